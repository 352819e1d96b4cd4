#include "schedule/trainers/musubi_window.h"

#include <atomic>
#include <cmath>

#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::schedule::trainers {

std::uint64_t newKeptMassOwner() {
  static std::atomic<std::uint64_t> next{1};  // 0 is keptMass's "nothing cached yet"
  return next++;
}

std::string TimestepWindow::flags(bool withPreserve) const {
  return " --min_timestep " + std::to_string(min) + " --max_timestep " + std::to_string(max) +
         (withPreserve && preserve ? " --preserve_distribution_shape" : "");
}

TimestepWindow heldTimestepWindow(const TrainerSettings& settings) {
  TimestepWindow w{settings.timestepMin, settings.timestepMax, settings.preserveDistributionShape};
  if (w.min < 0 || w.max > 1000 || w.min >= w.max)
    throw InputError(settings::kTimestepWindow,
                     "--min_timestep " + std::to_string(w.min) + " and --max_timestep " +
                         std::to_string(w.max) +
                         " are not a window of musubi-tuner's timesteps (0 ≤ min < max ≤ 1000)");
  return w;
}

namespace {

// ∫ₐᵇ density(t) dt in logit coordinates, where the tools' densities are smooth.
double massBetween(const std::function<double(double, const Params&)>& density, const Params& p,
                   double a, double b) {
  auto logit = [](double t) { return std::log(t / (1.0 - t)); };
  const double lo = logit(std::max(a, 1e-12)), hi = logit(std::min(b, 1.0 - 1e-12));
  const int n = 2000;
  const double h = (hi - lo) / n;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = 1.0 / (1.0 + std::exp(-(lo + (i + 0.5) * h)));
    sum += density(t, p) * t * (1.0 - t) * h;
  }
  return sum;
}

// The snippet with `flags` at the end of its first line (comment lines follow it).
std::string withFlags(const std::string& snippet, const std::string& flags) {
  const auto end = snippet.find('\n');
  if (end == std::string::npos) return snippet + flags;
  return snippet.substr(0, end) + flags + snippet.substr(end);
}

}  // namespace

TrainerFamily windowedMode(const TrainerFamily& mode, const TimestepWindow& window) {
  TrainerFamily f = mode;
  const double a = window.low(), b = window.high();
  const auto density = mode.density;
  if (!window.preserve) {
    f.density = [density, a, b](double t, const Params& p) {
      return t < a || t > b ? 0.0 : density((t - a) / (b - a), p) / (b - a);
    };
    f.note += "; squeezed into [" + num(a) + ", " + num(b) + "]";
  } else {
    const std::uint64_t owner = newKeptMassOwner();  // keptMass's key for this family's masses
    f.density = [density, a, b, owner](double t, const Params& p) {
      if (t < a || t > b) return 0.0;
      const double inside = keptMass(owner, p, [&] { return massBetween(density, p, a, b); });
      return inside > 0.0 ? density(t, p) / inside : 0.0;
    };
    f.note += "; kept where it falls in [" + num(a) + ", " + num(b) + "]";
  }
  const auto snippet = mode.snippet;
  const std::string flags = window.flags(true);
  f.snippet = [snippet, flags](const Params& p) { return withFlags(snippet(p), flags); };
  return f;
}

std::vector<std::pair<double, double>> windowedTableAtoms(const std::function<double(double)>& cdf,
                                                          const TimestepWindow& window) {
  const double width = window.max - window.min;
  std::vector<std::pair<double, double>> atoms;
  double below = cdf(0.0);
  for (int j = window.min; j < window.max; ++j) {
    const double next = cdf((j + 1 - window.min) / width);
    atoms.emplace_back((1000.0 - j) / 1000.0, std::max(next - below, 0.0));
    below = next;
  }
  return atoms;
}

double windowedTableOutline(double t, const std::function<double(double)>& densityOfOneMinusU,
                            const TimestepWindow& window) {
  const double width = window.max - window.min;
  const double u = (1000.0 * (1.0 - t) - window.min) / width;
  return u < 0.0 || u > 1.0 ? 0.0 : densityOfOneMinusU(1.0 - u) * 1000.0 / width;
}

}  // namespace noisescope::schedule::trainers
