# Included by the top-level CMakeLists.txt when NOISESCOPE_SANITIZE is set: a clang build of the
# program and its tests with ThreadSanitizer ("thread") or AddressSanitizer with
# UndefinedBehaviorSanitizer ("address"; any UB report aborts). tests/sanitize/run.sh builds only
# the targets its tests need, in build folders of their own (docs/sanitizers.md).
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "NOISESCOPE_SANITIZE needs clang: configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang")
endif()
if(NOISESCOPE_SANITIZE STREQUAL "thread")
  set(sanitize_flags -fsanitize=thread)
  # libgomp is not instrumented: torch runs its kernels on one thread in the test processes.
  set(NOISESCOPE_TEST_OMP_THREADS 1)
elseif(NOISESCOPE_SANITIZE STREQUAL "address")
  set(sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined)
else()
  message(FATAL_ERROR "NOISESCOPE_SANITIZE is '${NOISESCOPE_SANITIZE}': use thread or address")
endif()
set(NOISESCOPE_BUILD_BENCH OFF CACHE BOOL "off in the sanitizer builds" FORCE)
# -O1 and line tables only: the sanitizers' recommended optimisation, readable stacks, and far
# less compile time than -O2 -g over the torch headers.
foreach(lang C CXX)
  set(CMAKE_${lang}_FLAGS_RELWITHDEBINFO "-O1 -gline-tables-only -DNDEBUG")
endforeach()
add_compile_options(${sanitize_flags} -fno-omit-frame-pointer)
add_link_options(${sanitize_flags})
