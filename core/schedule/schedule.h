#pragma once
// The schedule model: a probability distribution of noise levels on [σ_min, σ_max], held in the
// canonical coordinate ℓ = log σ. Two forms:
//
//  * Binned: a density that is piecewise-constant in ℓ on the bins of a grid (any increasing ℓ
//  edges;
//    usually uniform). Its CDF is piecewise-linear, so the inverse CDF — and sampling — is exact
//    linear interpolation inside a bin (THEORY §8 step 3). Smooth families are discretised by
//    giving each bin its exact probability (differences of the family's CDF), so the CDF is exact
//    at every edge and only interpolated inside a bin.
//  * Atomic: a finite measure Σ_k w_k δ(σ − σ_k) (THEORY §7). Its CDF is a step function and
//    sampling picks an atom.
//
// Samplers take uniform numbers from the caller, so a torch generator, a std engine or a fixed
// sequence can drive the same code. The header is plain C++ (no torch, no JSON).
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "schedule/coordinates.h"
#include "schedule/engine_defaults.h"
#include "schedule/loss_weight.h"

namespace noisescope::schedule {

// Bins in ℓ = log σ. Edges are strictly increasing; bin b spans [edges[b], edges[b+1]].
struct LogSigmaGrid {
  std::vector<double> edges;

  // `bins` bins of equal width in ℓ on [log σ_min, log σ_max] (defaults of THEORY §1).
  static LogSigmaGrid uniform(double sigmaMin = defaults::kSigmaMin,
                              double sigmaMax = defaults::kSigmaMax, int bins = 256);
  // Throws InputError(source, ...) unless there are ≥ 1 bins with finite, strictly increasing
  // edges.
  void validate(const std::string& source = "grid") const;

  int bins() const { return edges.empty() ? 0 : static_cast<int>(edges.size()) - 1; }
  double logSigmaMin() const { return edges.front(); }
  double logSigmaMax() const { return edges.back(); }
  double sigmaMin() const;
  double sigmaMax() const;
  double width(int bin) const { return edges[bin + 1] - edges[bin]; }
  double center(int bin) const { return 0.5 * (edges[bin] + edges[bin + 1]); }
  std::vector<double> centers() const;       // ℓ at bin centres
  std::vector<double> sigmaCenters() const;  // σ = exp(ℓ) at bin centres
  // Masses per bin as densities per unit ℓ (mass / width): the one conversion every file, chart
  // and table of a binned schedule uses.
  std::vector<double> densities(const std::vector<double>& masses) const;
  // The bin holding ℓ (the last bin for ℓ = ℓ_max); −1 outside the grid.
  int binOf(double logSigma) const;
};

struct Atom {
  double sigma = 1.0;
  double weight = 0.0;  // probability; weights of a schedule sum to 1
};

// What made a schedule: enough to write it back to a file and to say so in the UI.
struct ScheduleInfo {
  std::string kind;   // family or method, e.g. "edm", "infonoise", "atomic"
  std::string label;  // display name, e.g. "EDM (−1.2, 1.2)"
  std::vector<std::pair<std::string, double>> parameters;  // numeric parameters, in order
  std::vector<std::pair<std::string, std::string>> notes;  // text facts: coordinate, regime, model…
  double truncatedMass = 0.0;  // mass of the untruncated family outside [σ_min, σ_max]

  double parameter(const std::string& name, double fallback) const;
  std::string note(const std::string& name, const std::string& fallback = {}) const;
  void setParameter(const std::string& name, double value);
  void setNote(const std::string& name, const std::string& value);
};

class Schedule {
 public:
  Schedule() = default;

  // Binned schedule from bin probabilities (≥ 0, finite, positive sum; renormalised to 1).
  static Schedule fromBinMasses(LogSigmaGrid grid, std::vector<double> masses);
  // Atomic schedule from atoms (σ > 0, weight ≥ 0, positive total; renormalised). Atoms are sorted
  // by σ and equal σ merged. The range [σ_min, σ_max] must contain every atom.
  static Schedule fromAtoms(std::vector<Atom> atoms, double sigmaMin, double sigmaMax);

  bool empty() const { return grid_.edges.empty() && atoms_.empty(); }
  bool isAtomic() const { return atomic_; }
  double sigmaMin() const { return sigmaMin_; }
  double sigmaMax() const { return sigmaMax_; }

  // Binned form (for an atomic schedule: empty grid and masses).
  const LogSigmaGrid& grid() const { return grid_; }
  const std::vector<double>& binMasses() const { return masses_; }
  // Cumulative probability at every grid edge (size bins + 1, first 0, last 1).
  const std::vector<double>& edgeCdf() const { return cumulative_; }
  // Atomic form (empty for a binned schedule).
  const std::vector<Atom>& atoms() const { return atoms_; }

  // Density per unit ℓ at ℓ (0 outside the range; 0 for atomic schedules, which have none).
  double densityLogSigma(double logSigma) const;
  // Density per unit of `coordinate` at the level σ (Jacobian applied).
  double density(double sigma, Coordinate coordinate, const VpParameters& vp = {}) const;

  // P(σ' ≤ σ): exact for both forms.
  double cdfLogSigma(double logSigma) const;
  double cdfSigma(double sigma) const;
  // Inverse CDF. u ∈ [0, 1] (clamped). Binned: linear inside a bin, zero-mass bins skipped.
  // Atomic: the smallest atom with CDF ≥ u (u ≤ 0 gives the first atom).
  double quantileLogSigma(double u) const;
  double quantileSigma(double u) const;

  // σ from one uniform number in [0, 1) — the sampler the trainer uses.
  double sampleSigma(double uniform) const { return quantileSigma(uniform); }
  void sampleSigmas(const double* uniforms, double* sigmas, std::size_t count) const;
  std::vector<double> sampleSigmas(const std::vector<double>& uniforms) const;

  // Probability of each bin of another grid (exact for both forms: CDF differences). Mass of this
  // schedule outside that grid is left out (so the result may sum to less than 1).
  std::vector<double> massesOn(const LogSigmaGrid& grid) const;

  // This schedule restricted to [σ_min, σ_max] and renormalised; `lostMass` receives the mass that
  // fell outside. Binned schedules keep their edges inside the range plus the two cut points.
  Schedule truncated(double sigmaMin, double sigmaMax, double* lostMass = nullptr) const;

  ScheduleInfo info;
  // The loss weight this schedule is meant to be trained with (its effective allocation is π·w).
  LossWeight lossWeight;

 private:
  void buildCumulative();

  bool atomic_ = false;
  double sigmaMin_ = 0.0, sigmaMax_ = 0.0;
  LogSigmaGrid grid_;
  std::vector<double> masses_;
  std::vector<double> cumulative_;  // binned: per edge; atomic: per atom (after it)
  std::vector<Atom> atoms_;
};

}  // namespace noisescope::schedule
