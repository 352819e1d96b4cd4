#include "tensor/device.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>

#include <thread>

#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope {

c10::Device resolveDevice(const std::string& name) {
  if (name.empty() || name == "auto") {
    return at::hasCUDA() ? c10::Device(c10::DeviceType::CUDA, 0) : c10::Device(c10::kCPU);
  }
  if (name == "cpu") return c10::Device(c10::kCPU);
  if (name.rfind("cuda", 0) == 0) {
    if (!at::hasCUDA()) {
      throw InputError(std::string(settings::kDevice) + " " + name,
                       "CUDA was requested but this build of LibTorch or this machine has no CUDA "
                       "device; use 'cpu' or 'auto'");
    }
    try {
      return c10::Device(name);
    } catch (const std::exception&) {
      throw InputError(std::string(settings::kDevice) + " " + name,
                       "not a device name (expected cuda or cuda:N)");
    }
  }
  throw InputError(std::string(settings::kDevice) + " " + name,
                   "unknown device (expected auto, cpu, cuda or cuda:N)");
}

std::string describeDevice(const c10::Device& device) {
  return device.str();
}

std::vector<std::string> availableDeviceNames() {
  std::vector<std::string> names = {"auto", "cpu"};
  if (at::hasCUDA()) names.push_back("cuda");
  return names;
}

void initTorchThreads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
}

}  // namespace noisescope
