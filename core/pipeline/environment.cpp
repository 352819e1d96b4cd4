#include "pipeline/environment.h"

#include "tensor/device.h"

namespace noisescope::pipeline {

std::vector<std::string> deviceNames() {
  return availableDeviceNames();
}

void initComputeThreads(int threads) {
  initTorchThreads(threads);
}

}  // namespace noisescope::pipeline
