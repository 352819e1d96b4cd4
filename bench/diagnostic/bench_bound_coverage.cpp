// Per-level coverage of the population bound's upper95 on populations whose MMSE is known
// (tests/core/diagnostic/known_populations.h), with enough seeds that 0.95 and 0.90 differ by
// several binomial standard errors at each level. Prints one markdown table per population: per σ
// the true MMSE, the seeds whose upper95 lay at or above it (a level the bound declined counts as
// a miss), that share with its binomial standard error, the declined seeds, and the median over
// seeds of upper95 / MMSE and of the bound's value / MMSE.
//
//   bench_bound_coverage [--seeds 300] [--population NAME]... [--first-seed 1]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "known_populations.h"

using namespace noisescope;
using namespace noisescope::known;

namespace {

struct Case {
  std::string name;
  int64_t priorSize, heldOutSize;
  std::function<Population(const std::vector<double>&)> make;
};

std::vector<Case> cases() {
  return {
      {"gaussian-d32", 16, 40, [](const auto& s) { return powerLawGaussian(32, s); }},
      {"gaussian-d8", 120, 40, [](const auto& s) { return powerLawGaussian(8, s); }},
      {"mixture", 60, 40, [](const auto& s) { return gaussianMixture(s); }},
      {"letters", 40, 40, [](const auto& s) { return oneHotLetters(s); }},
      {"circle-d16", 100, 40, [](const auto& s) { return circle(16, 2.0, s); }},
      {"student-t3-d16", 200, 100, [](const auto& s) { return studentT(16, 3.0, s); }},
  };
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Per-level coverage of the population bound's upper95"};
  int seeds = 300, firstSeed = 1;
  std::vector<std::string> only;
  app.add_option("--seeds", seeds, "independent (prior, held-out) draws per population")
      ->check(CLI::Range(2, 100000));
  app.add_option("--first-seed", firstSeed, "seed of the first draw");
  app.add_option("--population", only, "run only these (default: all)");
  CLI11_PARSE(app, argc, argv);

  const DiagnosticOptions grid = coverageGrid();
  const std::vector<double> sigma = logSigmaLevels(grid.levels, grid.sigmaMin, grid.sigmaMax);
  for (const Case& c : cases()) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.name) == only.end()) continue;
    const auto start = std::chrono::steady_clock::now();
    const Population p = c.make(sigma);
    const LevelCoverage cov =
        boundCoverage(p, grid, c.priorSize, c.heldOutSize, seeds, firstSeed, false);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("\n#### %s (%s tails): N = %lld prior, %lld held-out points, %d seeds, %.0f s\n\n",
                p.name.c_str(), p.tails.c_str(), static_cast<long long>(c.priorSize),
                static_cast<long long>(c.heldOutSize), seeds, secs);
    std::printf(
        "| σ | MMSE | covered | share ± binomial se | declined | median upper95 / MMSE | "
        "median value / MMSE |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t l = 0; l < sigma.size(); ++l) {
      const double r = cov.rate(static_cast<int>(l));
      // Where the MMSE underflows (one-hot letters at small σ), a ratio says nothing.
      const bool ratio = p.mmse[l] > 1e-12;
      std::printf("| %.3g | %.4g | %d / %d | %.3f ± %.3f | %d | %s | %s |\n", sigma[l], p.mmse[l],
                  cov.covered[l], seeds, r, std::sqrt(r * (1.0 - r) / seeds), cov.declined[l],
                  ratio ? std::to_string(median(cov.upperRatio[l])).substr(0, 5).c_str() : "–",
                  ratio ? std::to_string(median(cov.meanRatio[l])).substr(0, 5).c_str() : "–");
    }
    std::fflush(stdout);
  }
  return 0;
}
