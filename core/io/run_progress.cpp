#include "io/run_progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace noisescope {

std::optional<double> estimateSecondsLeft(const std::vector<ProgressPoint>& points,
                                          double totalSteps, int window) {
  if (points.size() < 2) return std::nullopt;
  const ProgressPoint& last = points.back();
  if (last.step >= totalSteps) return 0.0;
  const size_t span = static_cast<size_t>(std::max(1, window));
  const ProgressPoint& first = points[points.size() - 1 - std::min(span, points.size() - 1)];
  const double steps = last.step - first.step, seconds = last.time - first.time;
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
