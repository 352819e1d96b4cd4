#pragma once
// Where the trainer draws its noise levels from. A static sampler is any schedule of the schedule
// model (a fixed family or one loaded from a noisescope.schedule/1 file). The adaptive samplers
// (THEORY §8) start from a base schedule for a warm-up, record every training sample's unweighted
// x0 error in its log-σ bin, and every R steps rebuild π from the smoothed per-bin errors m̂:
//   InfoNoise:    ρ ∝ r_g = m̂/σ² · g(σ),  π ∝ ρ / w(σ)
//   √-entropy:    π ∝ √(r_g) = √(m̂/σ² · g(σ))   (in log σ; the gate under the root)
// with the low-noise gate g = σⁿ/(σⁿ + cⁿ) (c = 0: no gate). The schedules are built by the
// offline builders of schedule/entropic.h on m̂ at the bin centres, so an online schedule is the
// offline schedule of the same rate. Plain C++: uniforms come from the caller.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "schedule/engine_defaults.h"
#include "schedule/schedule.h"
#include "train/train_config.h"

namespace noisescope::train {

// Per-bin sums of unweighted x0 errors ‖D(y;σ) − x0‖² (summed over dimensions) and counts.
struct BinStatistics {
  std::vector<double> errorSum;
  std::vector<double> count;

  explicit BinStatistics(int bins = 0) : errorSum(bins, 0.0), count(bins, 0.0) {}
  int bins() const { return static_cast<int>(errorSum.size()); }
  void clear();
  void add(const BinStatistics& other);
  // Mean error per bin; bins without samples get `empty`.
  std::vector<double> means(double empty = 0.0) const;
};

// The defaults are the trainer's noise section's (NoiseSettings; test_defaults pins them).
struct AdaptiveSettings {
  int64_t warmupSteps = 200;
  int64_t refreshEvery = 100;
  double statDecay = 0.9;  // m̂ ← decay·m̂ + (1 − decay)·(new window mean)
  int64_t smoothingPasses = 1;
  int64_t minBinCount = 16;  // a bin is folded into m̂ once its window holds this many samples
  double gateC = schedule::defaults::kGateC;  // 0: no gate
  double gateN = schedule::defaults::kGateN;
  double uniformMix = 0.0;
};

// What one refresh produced, for the events file and charts. All vectors have one entry per bin.
struct RefreshRecord {
  int64_t step = 0;
  std::vector<double> logSigmaEdges;
  std::vector<double> sigmaCenters;
  std::vector<double> mhat;  // smoothed per-bin unweighted x0 error (summed over dimensions)
  std::vector<double> rho;  // gated rate ρ ∝ m̂/σ²·g as bin masses summing to 1 (InfoNoise's
                            // target effective allocation)
  std::vector<double> pi;   // sampling distribution, bin masses summing to 1
  double cdfChange = 0.0;   // max |ΔCDF| at bin edges against the previous π
};

class NoiseSampler {
 public:
  // `base` is the static schedule, or the warm-up schedule of the adaptive samplers. `grid` holds
  // the statistics bins (K bins over [σ_min, σ_max]); `weight` is the training loss weight.
  NoiseSampler(SamplerKind kind, schedule::Schedule base, schedule::LogSigmaGrid grid,
               schedule::LossWeight weight, AdaptiveSettings settings = {});

  SamplerKind kind() const { return kind_; }
  const schedule::LogSigmaGrid& grid() const { return grid_; }
  const schedule::Schedule& current() const { return current_; }
  const AdaptiveSettings& settings() const { return settings_; }
  const schedule::LossWeight& lossWeight() const { return weight_; }

  // σ for a uniform number in [0, 1): inverse CDF of the current π.
  double sigmaFromUniform(double u) const { return current_.sampleSigma(u); }
  // Statistics bin of a level (clamped into the grid).
  int binOf(double sigma) const;

  // Adds one step's (already rank-reduced) statistics to the refresh window.
  void record(const BinStatistics& stepStatistics);
  // Called after `stepsDone` optimizer steps. Adaptive samplers refresh when the warm-up has
  // ended and a refresh period is complete; returns true when π was rebuilt.
  bool maybeRefresh(int64_t stepsDone);
  // Rebuilds π from the window now (what maybeRefresh does when due). Bins whose window holds at
  // least minBinCount samples are folded into m̂ and reset; the others keep accumulating. Returns
  // false (and keeps π) when no bin has ever had enough samples.
  bool refresh(int64_t stepsDone);
  const RefreshRecord& lastRefresh() const { return last_; }
  int64_t refreshCount() const { return refreshes_; }

  // The complete mutable state (window, m̂, π), so that a resumed run continues exactly.
  nlohmann::json state() const;
  void restoreState(const nlohmann::json& state, const std::string& source);

  double gate(double sigma) const;

 private:
  std::vector<double> estimateErrors() const;
  schedule::Schedule adaptedSchedule(const std::vector<double>& masses,
                                     int64_t step) const;  // m̂ per bin with gaps filled, smoothed

  SamplerKind kind_;
  schedule::Schedule base_;
  schedule::Schedule current_;
  schedule::LogSigmaGrid grid_;
  schedule::LossWeight weight_;
  AdaptiveSettings settings_;
  BinStatistics window_;
  std::vector<double> mhat_;    // EMA across refreshes (unsmoothed)
  std::vector<char> known_;     // bin has ever had ≥ minBinCount samples
  std::vector<double> masses_;  // current π as bin masses (empty until the first refresh)
  int64_t refreshes_ = 0;
  RefreshRecord last_;
};

}  // namespace noisescope::train
