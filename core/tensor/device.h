#pragma once
// Which torch device a computation runs on. "auto" picks CUDA when both this LibTorch build and
// the machine have it; every torch computation in the core takes the resolved device, so there
// is one code path for CPU and GPU.
#include <c10/core/Device.h>

#include <string>
#include <vector>

namespace noisescope {

// Accepts "auto", "cpu", "cuda" or "cuda:N"; throws InputError naming the flag otherwise, or when
// CUDA is asked for and is not available.
c10::Device resolveDevice(const std::string& name);
std::string describeDevice(const c10::Device& device);
// The device names this build and machine can run on: "auto", "cpu", and "cuda" when available.
std::vector<std::string> availableDeviceNames();

// Sets torch's intra-op thread count (Debian's LibTorch starts at 1). threads <= 0 means all
// hardware threads. Call once at program start.
void initTorchThreads(int threads = 0);

}  // namespace noisescope
