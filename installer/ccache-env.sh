# Sourced by the build scripts: one compiler cache for every build the project makes (the gcc
# build, the fuzzing clang build and both sanitizer builds), shared by every clone on this machine.
# - base_dir: paths under the checkout are hashed relative to it, so a clone in another folder hits.
# - hash_dir off: the -g builds (fuzzing, sanitizers) would otherwise hash the build folder's path.
# - max_size: the three clang builds and the gcc one need about 5 GiB together, ccache's default
#   size, so a cache left at the default would evict one build while filling the next.
# A user's own setting of any of these wins.
if command -v ccache >/dev/null 2>&1; then
  _noisescope_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$_noisescope_root}"
  if [ -z "${CCACHE_HASHDIR+x}" ] && [ -z "${CCACHE_NOHASHDIR+x}" ] &&
     ccache -p 2>/dev/null | grep -q '^(default) hash_dir'; then
    export CCACHE_NOHASHDIR=1
  fi
  if [ -z "${CCACHE_MAXSIZE:-}" ] && ccache -p 2>/dev/null | grep -q '^(default) max_size'; then
    export CCACHE_MAXSIZE=20G
  fi
  unset _noisescope_root
fi
