#include "pipeline/progress_eta.h"

namespace noisescope::pipeline {

namespace {
constexpr double kWhole = 1000.0;  // thousandths: the same resolution as the faces' bars
}

void ProgressEta::add(double fraction, double unixSeconds) {
  points_.push_back({kWhole * fraction, unixSeconds});
}

std::optional<double> ProgressEta::secondsLeft() const {
  return estimateSecondsLeft(points_, kWhole);
}

std::string ProgressEta::text() const {
  const auto left = secondsLeft();
  return left ? "ETA " + formatDuration(*left) : std::string("ETA estimating…");
}

}  // namespace noisescope::pipeline
