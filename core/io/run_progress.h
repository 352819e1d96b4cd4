#pragma once
// How long a training run has left, from its own progress record: the wall-clock stamps of its
// "train" events (io/run_events.h). Those stamps include the time spent in evaluations and
// checkpoints, which the instantaneous steps_per_s of one event leaves out, so the rate here is
// the one the run really advances at. Torch-free and Qt-free: the GUI's run list shows it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace noisescope {

struct ProgressPoint {
  double step = 0.0;  // optimizer steps done
  double time = 0.0;  // Unix seconds when they were done
};

// Points of the rate: the latest `window` intervals (window + 1 points), enough to span an
// evaluation at the default log_every 50 and eval.every 250, few enough to follow a change of
// pace (another run finishing and freeing cores).
constexpr int kEtaWindow = 10;

// Seconds left as of the last point: (totalSteps − last step) / rate, the rate being steps over
// wall time between the first and last point of the recent window. Empty before two points, or
// when the window shows no progress or no elapsed time (no rate to extrapolate); 0 once the last
// point has reached totalSteps. Points must be in the order written (a resumed run's events are
// read again from the start, so they never go back).
std::optional<double> estimateSecondsLeft(const std::vector<ProgressPoint>& points,
                                          double totalSteps, int window = kEtaWindow);

// "42 s", "3 min 20 s", "2 h 05 min": whole seconds, the two largest units.
std::string formatDuration(double seconds);

}  // namespace noisescope
