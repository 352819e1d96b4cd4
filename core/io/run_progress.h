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

// The rate is smoothed, not read off a recent window: every interval between consecutive points
// counts, weighted by exp(−age / τ), its age the wall time from its end to the last point, and
// τ = kEtaMemory × the time the points span. A window of the last few intervals swings whenever an
// evaluation pause enters or leaves it (ETAs of 4, 31 then 19 min, issue 35); with τ twice the
// span the oldest interval keeps e^−½ of the newest one's weight, so a pause counts about as often
// as it recurs, and a lasting change of pace (another run finishing and freeing cores) still
// pulls the rate towards the new one.
constexpr double kEtaMemory = 2.0;

// Seconds left as of the last point: (totalSteps − last step) / the smoothed rate. Empty before
// two points, or when the points show no progress or no elapsed time (no rate to extrapolate);
// 0 once the last point has reached totalSteps. Points must be in the order written (a resumed
// run's events are read again from the start, so they never go back).
std::optional<double> estimateSecondsLeft(const std::vector<ProgressPoint>& points,
                                          double totalSteps);

// "42 s", "3 min 20 s", "2 h 05 min": whole seconds, the two largest units.
std::string formatDuration(double seconds);

}  // namespace noisescope
