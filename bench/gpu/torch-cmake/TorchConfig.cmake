# A minimal stand-in for PyTorch's TorchConfig.cmake, for bench/gpu/run.sh only: it is used when the
# real one fails to configure on a bare machine (with CUDA it looks for the CUDA toolkit's CMake
# files, nvcc, nvToolsExt, cuDNN, which a driver-plus-wheel machine may lack). NoiseScope compiles
# only against LibTorch's C++ headers and links its shared libraries, so it needs none of those.
#
# Inputs (cache variables): NOISESCOPE_TORCH_ROOT, the torch package folder (the one holding lib/
# and include/: python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))'), and
# NOISESCOPE_TORCH_CXX11_ABI, 0 or 1 (torch.compiled_with_cxx11_abi()).
# Defines what NoiseScope uses of the real one: the target torch, TORCH_LIBRARIES,
# TORCH_INCLUDE_DIRS and TORCH_CXX_FLAGS.
set(_root "${NOISESCOPE_TORCH_ROOT}")
if(NOT EXISTS "${_root}/include/torch/csrc/api/include/torch/torch.h")
  message(FATAL_ERROR "bench/gpu/torch-cmake: NOISESCOPE_TORCH_ROOT='${_root}' holds no LibTorch "
                      "headers (include/torch/csrc/api/include/torch/torch.h)")
endif()
if(NOT NOISESCOPE_TORCH_CXX11_ABI MATCHES "^[01]$")
  message(FATAL_ERROR "bench/gpu/torch-cmake: NOISESCOPE_TORCH_CXX11_ABI must be 0 or 1")
endif()

set(_libs)
foreach(name torch torch_cpu c10)
  find_library(_lib_${name} ${name} PATHS "${_root}/lib" NO_DEFAULT_PATH)
  if(NOT _lib_${name})
    message(FATAL_ERROR "bench/gpu/torch-cmake: lib${name}.so not found in ${_root}/lib")
  endif()
  list(APPEND _libs "${_lib_${name}}")
endforeach()
# The CUDA parts register themselves when loaded, and nothing of ours calls into them by name, so a
# linker with --as-needed would drop them: force them in, as PyTorch's own config does.
set(_cuda_options)
foreach(name torch_cuda c10_cuda)
  if(EXISTS "${_root}/lib/lib${name}.so")
    list(APPEND _cuda_options "LINKER:--no-as-needed,${_root}/lib/lib${name}.so,--as-needed")
  endif()
endforeach()

set(TORCH_INCLUDE_DIRS "${_root}/include" "${_root}/include/torch/csrc/api/include")
set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=${NOISESCOPE_TORCH_CXX11_ABI}")
if(NOT TARGET torch)
  add_library(torch INTERFACE IMPORTED)
  set_target_properties(torch PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${TORCH_INCLUDE_DIRS}"
    INTERFACE_COMPILE_DEFINITIONS "_GLIBCXX_USE_CXX11_ABI=${NOISESCOPE_TORCH_CXX11_ABI}"
    INTERFACE_LINK_LIBRARIES "${_libs}"
    # The wheel's libraries find their own CUDA libraries through their RUNPATH; the linker need not.
    INTERFACE_LINK_OPTIONS "${_cuda_options};LINKER:-rpath,${_root}/lib;LINKER:--allow-shlib-undefined")
endif()
set(TORCH_LIBRARIES torch)
set(TORCH_FOUND TRUE)
set(Torch_FOUND TRUE)
message(STATUS "Torch (bench/gpu stand-in config): ${_root}, cxx11 ABI ${NOISESCOPE_TORCH_CXX11_ABI}, "
               "CUDA libraries forced in: ${_cuda_options}")
