# Sourced by the build scripts: one compiler cache for every build the project makes (the gcc
# build, the fuzzing clang build and both sanitizer builds), shared by every clone on this machine.
# - base_dir: paths under the checkout are hashed relative to it, so a clone in another folder hits.
# - hash_dir off: the -g builds (fuzzing, sanitizers) would otherwise hash the build folder's path.
# All four builds together take about 0.11 GB of cache (compressed), far below ccache's default
# size. A user's own setting of either wins.
if command -v ccache >/dev/null 2>&1; then
  _noisescope_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$_noisescope_root}"
  if [ -z "${CCACHE_HASHDIR+x}" ] && [ -z "${CCACHE_NOHASHDIR+x}" ] &&
     ccache -p 2>/dev/null | grep -q '^(default) hash_dir'; then
    export CCACHE_NOHASHDIR=1
  fi
  unset _noisescope_root
fi
