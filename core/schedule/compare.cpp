#include "schedule/compare.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::schedule {

double klDivergence(const std::vector<double>& p, const std::vector<double>& q) {
  double kl = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] <= 0.0) continue;
    if (q[i] <= 0.0) return std::numeric_limits<double>::infinity();
    kl += p[i] * std::log(p[i] / q[i]);
  }
  return std::max(0.0, kl);
}

double totalVariation(const std::vector<double>& p, const std::vector<double>& q) {
  double tv = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) tv += std::abs(p[i] - q[i]);
  return 0.5 * tv;
}

double hellingerDistance(const std::vector<double>& p, const std::vector<double>& q) {
  double h = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double d = std::sqrt(p[i]) - std::sqrt(q[i]);
    h += d * d;
  }
  return std::sqrt(0.5 * h);
}

Comparison compareSchedules(const std::vector<Schedule>& schedules,
                            const ComparisonOptions& options) {
  if (schedules.empty()) throw InputError("compare", "no schedules to compare");
  if (options.reference < 0 || options.reference >= static_cast<int>(schedules.size()))
    throw InputError(settings::kReference, "index out of range");
  options.grid.validate("comparison grid");
  Comparison c;
  c.grid = options.grid;
  c.reference = options.reference;

  std::vector<Schedule> allocations;
  for (const Schedule& s : schedules) {
    allocations.push_back(effectiveAllocation(s));
    std::vector<double> masses = allocations.back().massesOn(c.grid);
    double total = 0.0;
    for (double m : masses) total += m;
    if (!(total > 0.0))
      throw InputError("compare",
                       "schedule '" + s.info.label + "' has no mass on the comparison grid");
    for (double& m : masses) m /= total;
    c.allocationMasses.push_back(std::move(masses));
    std::string label = s.info.label.empty() ? s.info.kind : s.info.label;
    int copies = 0;
    for (const auto& existing : c.labels) copies += existing.rfind(label, 0) == 0;
    if (copies > 0) label += " #" + std::to_string(copies + 1);
    c.labels.push_back(label);
  }

  // The profile's informative band and its uninformative bins.
  std::vector<bool> lowRate(c.grid.bins(), false);
  if (options.profile) {
    c.hasProfile = true;
    InfoNoiseOptions gate;
    gate.gateC = options.bandGateC;
    const Schedule rho = infoNoiseAllocation(*options.profile, c.grid, gate);
    const double tail = 0.5 * (1.0 - options.bandMass);
    c.bandLow = rho.quantileSigma(tail);
    c.bandHigh = rho.quantileSigma(1.0 - tail);
    std::vector<double> rate(c.grid.bins());
    double peak = 0.0;
    for (int b = 0; b < c.grid.bins(); ++b)
      peak = std::max(peak, rate[b] = options.profile->rateLogSigma(c.grid.center(b)));
    for (int b = 0; b < c.grid.bins(); ++b) lowRate[b] = rate[b] < options.lowRateFraction * peak;
  }

  const std::vector<double>& ref = c.allocationMasses[c.reference];
  for (std::size_t i = 0; i < schedules.size(); ++i) {
    const std::vector<double>& phi = c.allocationMasses[i];
    ScheduleMetrics m;
    m.label = c.labels[i];
    m.atomic = schedules[i].isAtomic();
    m.klToReference = klDivergence(phi, ref);
    m.klFromReference = klDivergence(ref, phi);
    m.totalVariation = totalVariation(phi, ref);
    m.hellinger = hellingerDistance(phi, ref);
    const Schedule& a = allocations[i];
    m.sigmaMedian = a.quantileSigma(0.5);
    m.sigmaQ05 = a.quantileSigma(0.05);
    m.sigmaQ95 = a.quantileSigma(0.95);
    m.truncatedMass = schedules[i].info.truncatedMass;
    if (c.hasProfile) {
      m.massInBand = a.cdfSigma(c.bandHigh) - a.cdfSigma(c.bandLow);
      if (a.isAtomic()) {
        // Atoms exactly at the lower band edge belong to the band.
        for (const Atom& atom : a.atoms())
          if (atom.sigma == c.bandLow) m.massInBand += atom.weight;
      }
      m.massLowRate = 0.0;
      for (int b = 0; b < c.grid.bins(); ++b)
        if (lowRate[b]) m.massLowRate += phi[b];
    }
    c.metrics.push_back(m);
  }
  return c;
}

}  // namespace noisescope::schedule
