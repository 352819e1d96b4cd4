# Sourced by the end-to-end CLI tests: `check NAME COMMAND...` counts COMMAND's success as a pass and
# prints "FAIL: NAME" otherwise; the script ends with `finish`, which reports both counts and exits
# non-zero after any failure.
failures=0
passes=0
check() {
  local name="$1"
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; failures=$((failures + 1)); fi
}
finish() {
  echo "$passes passed, $failures failed"
  test $failures -eq 0
}
