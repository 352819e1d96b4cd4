#pragma once
// Populations whose MMSE on a σ grid is known (closed form, quadrature or a large Monte Carlo), and
// the per-level coverage of the population bound's upper95 over seeds drawn from them. Shared by
// test_bound_coverage (few seeds, in CI) and bench/diagnostic/bench_bound_coverage (~300 seeds,
// docs/profiles.md).
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "diagnostic/diagnostic_options.h"

namespace noisescope::known {

// Normal draws from mt19937_64's raw bits (fixed by the standard), so every platform sees the
// same populations.
class Draws {
 public:
  explicit Draws(uint64_t seed) : engine_(seed) {}
  double uniform() { return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53; }
  double normal();
  int categorical(const std::vector<double>& p);

 private:
  std::mt19937_64 engine_;
};

// A population: how to draw one sample, its layout, and its MMSE on the σ grid it was built for.
struct Population {
  std::string name;
  std::string tails;  // "light" or "heavy": how the per-point errors behave
  SampleKind kind = SampleKind::Vector;
  std::vector<int64_t> shape;
  std::function<void(Draws&, float*)> draw;
  std::vector<double> mmse;
};

// n samples of the population, reproducible from the seed; `part` names the draw.
Dataset sample(const Population& p, int64_t n, uint64_t seed, const std::string& part);

// N(0, diag(λ)) with a power-law spectrum λ_k = 4 k^(−1.5): the Wiener MMSE is exact.
Population powerLawGaussian(int64_t d, const std::vector<double>& sigma);

// Four isotropic Gaussian components in D = 6 (multi-modal); MMSE by Monte Carlo over y with the
// exact posterior (40 000 draws per level, relative error well under 1 %).
Population gaussianMixture(const std::vector<double>& sigma);

// L = 6 independent one-hot ±1 letters of composition (0.4, 0.3, 0.2, 0.1); MMSE by Monte Carlo
// with the exact factorised posterior.
Population oneHotLetters(const std::vector<double>& sigma);

// D i.i.d. Student t coordinates with `dof` > 2 degrees of freedom: heavy tails (for dof = 3 the
// squared coordinate has no variance). The MMSE is D times the scalar one, by quadrature of the
// posterior variance (scalarStudentTMmse).
Population studentT(int64_t d, double dof, const std::vector<double>& sigma);
double scalarStudentTMmse(double dof, double sigma);

// Points on a circle of radius r in a random plane of R^D (multi-modal posterior at mid σ, a
// one-dimensional manifold). MMSE = r²(1 − E[(I1(κ)/I0(κ))²]), κ = r·|y_plane|/σ², by Monte Carlo
// over the noise in the plane (200 000 draws per level).
Population circle(int64_t d, double radius, const std::vector<double>& sigma);

// The σ grid of the coverage test and bench: 8 levels on [0.02, 20], 64 queries, on the CPU.
DiagnosticOptions coverageGrid();

// Per level, how many seeds' upper95 lay at or above the population MMSE.
struct LevelCoverage {
  std::string population;
  int64_t priorSize = 0, heldOutSize = 0;
  int seeds = 0;
  std::vector<double> sigma, mmse;
  std::vector<int> covered;   // per level, of `seeds`; a declined level is not covered
  std::vector<int> declined;  // per level: seeds whose bound said upper95 does not cover there
  std::vector<std::vector<double>> upperRatio;  // per level, per seed: upper95 / MMSE
  std::vector<std::vector<double>> meanRatio;   // per level, per seed: the bound's value / MMSE
  int pluginCovered = 0;                        // the plug-in Gaussian curve, pooled over levels
  double rate(int level) const { return static_cast<double>(covered[level]) / seeds; }
  double pooledRate() const;
};

// The bracket of `seeds` independent (prior, held-out) draws, seeds firstSeed, firstSeed + 1, …;
// the plug-in Gaussian curve too when `withPlugin`.
LevelCoverage boundCoverage(const Population& p, const DiagnosticOptions& grid, int64_t priorSize,
                            int64_t heldOutSize, int seeds, int firstSeed = 1,
                            bool withPlugin = false);

}  // namespace noisescope::known
