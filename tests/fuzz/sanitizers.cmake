# Included by the top-level CMakeLists.txt when NOISESCOPE_FUZZ is on: a clang build of the
# torch-free libraries with coverage instrumentation for libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer (any UB report aborts), and nothing else of the program.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "NOISESCOPE_FUZZ needs clang (libFuzzer): configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang")
endif()
foreach(option NOISESCOPE_WITH_TORCH NOISESCOPE_BUILD_GUI NOISESCOPE_BUILD_TESTS
               NOISESCOPE_BUILD_BENCH)
  set(${option} OFF CACHE BOOL "off in the fuzzing build" FORCE)
endforeach()
set(fuzz_sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined)
add_compile_options(-fsanitize=fuzzer-no-link ${fuzz_sanitize_flags} -fno-omit-frame-pointer -g)
add_link_options(${fuzz_sanitize_flags})
