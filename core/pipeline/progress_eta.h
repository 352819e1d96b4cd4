#pragma once
// The ETA a face shows for a job that reports the fraction it has done (util/progress.h): the
// rate of the recent reports extrapolated to 1, by the rule a training run's ETA follows
// (io/run_progress.h, estimateSecondsLeft). Fractions are kept as thousandths of the job.
#include <optional>
#include <string>
#include <vector>

#include "io/run_progress.h"

namespace noisescope::pipeline {

class ProgressEta {
 public:
  void clear() { points_.clear(); }
  // One report: the fraction done at wall-clock `unixSeconds`.
  void add(double fraction, double unixSeconds);
  std::optional<double> secondsLeft() const;
  // "ETA 3 min 20 s", or "ETA estimating…" before the reports show a rate.
  std::string text() const;

 private:
  std::vector<ProgressPoint> points_;
};

}  // namespace noisescope::pipeline
