#pragma once
// What the faces ask of the machine before any job: the devices a job may run on and the number
// of compute threads. Both faces call these, so the GUI's device list and the CLI's --device
// accept the same names.
#include <string>
#include <vector>

namespace noisescope::pipeline {

// "auto", "cpu", and "cuda" where this build and machine have it (tensor/device.h).
std::vector<std::string> deviceNames();

// Sets the compute thread count once at program start; threads <= 0: all hardware threads.
void initComputeThreads(int threads);

}  // namespace noisescope::pipeline
