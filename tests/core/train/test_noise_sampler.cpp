// Noise samplers: static draws follow the schedule (Kolmogorov–Smirnov), an InfoNoise or
// √-entropy refresh on known per-bin errors gives the π of THEORY §8, warm-up and refresh timing,
// the EMA across refreshes, gap filling, and an exact state round trip.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#include <nlohmann/json.hpp>

#include "schedule/families.h"
#include "train/noise_sampler.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::train;

namespace {

schedule::LossWeight edmWeight(double sd) {
  schedule::LossWeight w;
  w.kind = schedule::LossWeight::Kind::Edm;
  w.sigmaData = sd;
  return w;
}

// Largest gap between the empirical CDF of the draws (in log σ) and the schedule's CDF.
double ksStatistic(const NoiseSampler& sampler, int n, uint32_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> logs(n);
  for (double& l : logs) l = std::log(sampler.sigmaFromUniform(uniform(engine)));
  std::sort(logs.begin(), logs.end());
  double d = 0;
  for (int i = 0; i < n; ++i) {
    const double f = sampler.current().cdfLogSigma(logs[i]);
    d = std::max({d, std::abs(f - double(i) / n), std::abs(f - double(i + 1) / n)});
  }
  return d;
}

// Gaussian data N(0, s² I_D): MMSE(σ) = D s² σ² / (s² + σ²) (THEORY §3).
double gaussianMmse(double sigma, double s, double dim) {
  return dim * s * s * sigma * sigma / (s * s + sigma * sigma);
}

BinStatistics syntheticWindow(const schedule::LogSigmaGrid& grid, double count,
                              double (*error)(double)) {
  BinStatistics stats(grid.bins());
  const auto sigmas = grid.sigmaCenters();
  for (int b = 0; b < grid.bins(); ++b) {
    stats.count[b] = count;
    stats.errorSum[b] = count * error(sigmas[b]);
  }
  return stats;
}

double gaussianError(double sigma) {
  return gaussianMmse(sigma, 0.5, 10.0);
}
double doubledGaussianError(double sigma) {
  return 2.0 * gaussianMmse(sigma, 0.5, 10.0);
}

}  // namespace

class TestNoiseSampler : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void staticDrawsFollowTheSchedule() {
    const auto fine = schedule::LogSigmaGrid::uniform(0.002, 80, 512);
    NoiseSampler sampler(SamplerKind::Static, schedule::makePresetSchedule("edm", fine),
                         schedule::LogSigmaGrid::uniform(0.002, 80, 64), edmWeight(0.5));
    const int n = 20000;
    const double d = ksStatistic(sampler, n, 7);
    // 1% critical value of the one-sample KS test: 1.63/√n.
    QVERIFY2(d < 1.63 / std::sqrt(double(n)), qPrintable(QString::number(d)));
    // The EDM log-normal has its median at exp(−1.2) (truncation is symmetric enough to ignore).
    QVERIFY(std::abs(std::log(sampler.sigmaFromUniform(0.5)) + 1.2) < 0.02);
    QVERIFY(!sampler.maybeRefresh(1000));  // a static sampler never changes
  }

  void infoNoiseRefreshGivesTheExpectedPi() {
    const auto grid = schedule::LogSigmaGrid::uniform(0.002, 80, 64);
    AdaptiveSettings a;
    a.warmupSteps = 100;
    a.refreshEvery = 50;
    a.smoothingPasses = 0;
    a.minBinCount = 4;
    a.gateC = 0.15;
    const double sd = 0.5;
    NoiseSampler sampler(
        SamplerKind::InfoNoise,
        schedule::makePresetSchedule("edm", schedule::LogSigmaGrid::uniform(0.002, 80, 512)), grid,
        edmWeight(sd), a);
    sampler.record(syntheticWindow(grid, 10, gaussianError));
    QVERIFY(!sampler.maybeRefresh(99));
    QVERIFY(sampler.maybeRefresh(100));
    const auto& r = sampler.lastRefresh();
    const auto sigmas = grid.sigmaCenters();
    std::vector<double> rho(64), pi(64);
    double rs = 0, ps = 0;
    for (int b = 0; b < 64; ++b) {
      const double s = sigmas[b];
      const double g = std::pow(s, 3) / (std::pow(s, 3) + std::pow(0.15, 3));
      rho[b] = gaussianError(s) / (s * s) * g;
      pi[b] = rho[b] / ((s * s + sd * sd) / (s * s * sd * sd));
      rs += rho[b];
      ps += pi[b];
    }
    for (int b = 0; b < 64; ++b) {
      QVERIFY(std::abs(r.rho[b] - rho[b] / rs) < 1e-12);
      QVERIFY(std::abs(r.pi[b] - pi[b] / ps) < 1e-12);
      QVERIFY(std::abs(r.mhat[b] - gaussianError(sigmas[b])) < 1e-9 * gaussianError(sigmas[b]));
    }
    // π·w ∝ ρ: the effective allocation is the InfoNoise target.
    // The draws now follow the new piecewise-constant π.
    const double d = ksStatistic(sampler, 20000, 11);
    QVERIFY2(d < 1.63 / std::sqrt(20000.0), qPrintable(QString::number(d)));
    // For Gaussian data with EDM weight the mass sits at intermediate σ, not at the ends.
    const int peak = int(std::max_element(r.pi.begin(), r.pi.end()) - r.pi.begin());
    QVERIFY(sigmas[peak] > 0.1 && sigmas[peak] < 2.0);
    // Next refresh only after another period; it blends old and new (EMA 0.9/0.1).
    sampler.record(syntheticWindow(grid, 10, doubledGaussianError));
    QVERIFY(!sampler.maybeRefresh(120));
    QVERIFY(sampler.maybeRefresh(150));
    for (int b = 0; b < 64; ++b)
      QVERIFY(std::abs(sampler.lastRefresh().mhat[b] - 1.1 * gaussianError(sigmas[b])) <
              1e-9 * gaussianError(sigmas[b]));
    QVERIFY(sampler.lastRefresh().cdfChange < 1e-9);  // a uniform factor leaves π unchanged
  }

  void sqrtEntropyRefreshAndSparseBins() {
    const auto grid = schedule::LogSigmaGrid::uniform(0.002, 80, 32);
    AdaptiveSettings a;
    a.warmupSteps = 0;
    a.refreshEvery = 10;
    a.smoothingPasses = 0;
    a.minBinCount = 5;
    a.gateC = 0.2;
    NoiseSampler sampler(SamplerKind::SqrtEntropy,
                         schedule::makePresetSchedule("log-uniform", grid), grid, edmWeight(1.0),
                         a);
    BinStatistics w = syntheticWindow(grid, 8, gaussianError);
    // The lowest 4 bins have too few samples: their m̂ is extrapolated as m̂ ∝ σ².
    for (int b = 0; b < 4; ++b) w.count[b] = 2, w.errorSum[b] = 1e9;
    sampler.record(w);
    QVERIFY(sampler.maybeRefresh(10));
    const auto& r = sampler.lastRefresh();
    const auto sigmas = grid.sigmaCenters();
    for (int b = 0; b < 4; ++b) {
      const double expected = gaussianError(sigmas[4]) * std::pow(sigmas[b] / sigmas[4], 2);
      QVERIFY(std::abs(r.mhat[b] - expected) < 1e-9 * expected);
    }
    double ps = 0;
    std::vector<double> pi(32);
    for (int b = 0; b < 32; ++b) {
      const double s = sigmas[b];
      pi[b] = std::sqrt(r.mhat[b] / (s * s)) * std::pow(s, 3) / (std::pow(s, 3) + 0.008);
      ps += pi[b];
    }
    for (int b = 0; b < 32; ++b) QVERIFY(std::abs(r.pi[b] - pi[b] / ps) < 1e-12);
  }

  void stateRoundTripIsExact() {
    const auto grid = schedule::LogSigmaGrid::uniform(0.002, 80, 16);
    AdaptiveSettings a;
    a.warmupSteps = 0;
    a.refreshEvery = 1;
    a.minBinCount = 1;
    const auto base = schedule::makePresetSchedule("edm", grid);
    NoiseSampler one(SamplerKind::InfoNoise, base, grid, edmWeight(0.5), a);
    one.record(syntheticWindow(grid, 3, gaussianError));
    QVERIFY(one.refresh(1));
    one.record(syntheticWindow(grid, 1, doubledGaussianError));  // an open window
    NoiseSampler two(SamplerKind::InfoNoise, base, grid, edmWeight(0.5), a);
    two.restoreState(nlohmann::json::parse(one.state().dump()), "state");
    for (double u : {0.0, 0.1, 0.37, 0.5, 0.93, 0.999999})
      QCOMPARE(two.sigmaFromUniform(u), one.sigmaFromUniform(u));
    QVERIFY(one.refresh(2) && two.refresh(2));
    QCOMPARE(two.lastRefresh().pi, one.lastRefresh().pi);
    // A state for another sampler kind is refused with a clear error.
    NoiseSampler other(SamplerKind::SqrtEntropy, base, grid, edmWeight(0.5), a);
    QVERIFY_THROWS_EXCEPTION(InputError, other.restoreState(one.state(), "state"));
  }
};

QTEST_APPLESS_MAIN(TestNoiseSampler)
#include "test_noise_sampler.moc"
