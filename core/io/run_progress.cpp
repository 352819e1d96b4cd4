#include "io/run_progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace noisescope {

std::optional<double> estimateSecondsLeft(const std::vector<ProgressPoint>& points,
                                          double totalSteps) {
  if (points.size() < 2) return std::nullopt;
  const ProgressPoint& last = points.back();
  if (last.step >= totalSteps) return 0.0;
  const double tau = kEtaMemory * (last.time - points.front().time);
  if (!(tau > 0) || !std::isfinite(tau)) return std::nullopt;
  double steps = 0.0, seconds = 0.0;
  for (size_t i = 1; i < points.size(); ++i) {
    const double weight = std::exp(-(last.time - points[i].time) / tau);
    steps += weight * (points[i].step - points[i - 1].step);
    seconds += weight * (points[i].time - points[i - 1].time);
  }
  if (!(steps > 0) || !(seconds > 0) || !std::isfinite(steps / seconds)) return std::nullopt;
  return (totalSteps - last.step) * seconds / steps;
}

std::string formatDuration(double seconds) {
  const long long s = std::llround(std::max(0.0, std::min(seconds, 1e12)));
  char text[64];
  if (s < 60)
    std::snprintf(text, sizeof text, "%lld s", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%lld min %lld s", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%lld h %02lld min", s / 3600, (s % 3600) / 60);
  return text;
}

}  // namespace noisescope
