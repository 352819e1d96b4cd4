# Sourced by the build scripts. noisescope_generator_args DIR prints the CMake generator argument
# for a new build folder: Ninja where it is installed, since it starts compiling a target's files
# before the libraries it links have been linked, which keeps both cores busy along the chain of
# libraries (installer/README.md, "Where the build time goes"). A folder configured before keeps
# its generator (CMake refuses to change it), so nothing is printed for it.
noisescope_generator_args() {
  if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    printf '%s\n' -G Ninja
  fi
}
