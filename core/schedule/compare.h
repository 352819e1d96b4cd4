#pragma once
// Comparing schedules (THEORY §5): every schedule is turned into its effective allocation φ ∝ π·w,
// binned on one common log-σ grid and normalised there; the metrics are computed on those bin
// probabilities. Atomic schedules enter as histograms (their atoms' weights per bin), so KL against
// a smooth schedule is finite one way and infinite the other.
#include <limits>
#include <string>
#include <vector>

#include "schedule/allocation.h"
#include "schedule/engine_defaults.h"
#include "schedule/entropic.h"
#include "schedule/schedule.h"

namespace noisescope::schedule {

struct ComparisonOptions {
  LogSigmaGrid grid = LogSigmaGrid::uniform(defaults::kSigmaMin, defaults::kSigmaMax, 128);
  int reference = 0;  // index of the schedule the divergences are measured against
  const RateProfile* profile = nullptr;  // optional: enables the band and low-rate columns
  double bandMass = 0.9;                 // informative band: the central bandMass of ρ
  double bandGateC = defaults::kGateC;  // ρ = MMSE/σ²·g(σ) with this gate c (0: the plain rate)
  double lowRateFraction = 0.01;  // "uninformative": rate MMSE/σ² below this fraction of its peak
};

struct ScheduleMetrics {
  std::string label;
  bool atomic = false;
  double klToReference = 0.0;  // KL(φ ‖ φ_ref), nats (+inf when φ has mass where φ_ref has none)
  double klFromReference = 0.0;  // KL(φ_ref ‖ φ)
  double totalVariation = 0.0;   // ½ Σ |φ − φ_ref|
  double hellinger = 0.0;        // √(½ Σ (√φ − √φ_ref)²)
  double massInBand = std::numeric_limits<double>::quiet_NaN();   // φ mass in the informative band
  double massLowRate = std::numeric_limits<double>::quiet_NaN();  // φ mass where rate < 1 % of peak
  double sigmaMedian = 0.0, sigmaQ05 = 0.0, sigmaQ95 = 0.0;       // quantiles of σ under φ
  double truncatedMass = 0.0;  // of the schedule's family at its own truncation
};

struct Comparison {
  LogSigmaGrid grid;
  std::vector<std::string> labels;
  std::vector<std::vector<double>> allocationMasses;  // φ per bin, per schedule (sums to 1)
  std::vector<ScheduleMetrics> metrics;
  int reference = 0;
  bool hasProfile = false;
  double bandLow = 0.0, bandHigh = 0.0;  // σ range of the informative band
};

// Labels default to info.label (or kind); duplicates get a suffix. Throws InputError for an empty
// list or a reference index out of range.
Comparison compareSchedules(const std::vector<Schedule>& schedules,
                            const ComparisonOptions& options = {});

// Its text table and CSV are file formats: io/comparison_io.h.

// Probability-vector divergences used above (inputs sum to 1).
double klDivergence(const std::vector<double>& p, const std::vector<double>& q);
double totalVariation(const std::vector<double>& p, const std::vector<double>& q);
double hellingerDistance(const std::vector<double>& p, const std::vector<double>& q);

}  // namespace noisescope::schedule
