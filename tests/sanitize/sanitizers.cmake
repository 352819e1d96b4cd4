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
# -O1 and line tables only: the sanitizers' recommended optimisation and readable stacks. The
# libraries that carry no numerical loops (the file formats, the pipeline's jobs, the faces) and the
# test suites build at -O0 instead: they are most of the JSON, CLI11 and Qt parsing, which compiles
# about twice as fast at -O0 under the sanitizers, and they finish as quickly. The numerical
# libraries keep -O1: at -O0 the atomic design of test_gui_cli_schedules took 124 s of CPU against
# 12 s (installer/README.md, "Where the build time goes").
foreach(lang C CXX)
  set(CMAKE_${lang}_FLAGS_RELWITHDEBINFO "-O1 -gline-tables-only -DNDEBUG")
endforeach()
set(NOISESCOPE_SANITIZE_UNOPTIMISED noisescope_io noisescope_pipeline noisescope_ui noisescope-cli
                                    noisescope)
function(noisescope_sanitize_unoptimised)
  get_property(suites DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY NOISESCOPE_TEST_SUITES)
  foreach(target IN LISTS NOISESCOPE_SANITIZE_UNOPTIMISED suites)
    if(TARGET ${target})
      target_compile_options(${target} PRIVATE -O0)
    endif()
  endforeach()
endfunction()
# After every folder has declared its targets.
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL noisescope_sanitize_unoptimised)
add_compile_options(${sanitize_flags} -fno-omit-frame-pointer)
add_link_options(${sanitize_flags})
