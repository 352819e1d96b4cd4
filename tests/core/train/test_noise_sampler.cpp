// Noise samplers: static draws follow the schedule (Kolmogorov–Smirnov), an InfoNoise or
// √-entropy refresh on known per-bin errors gives the π of THEORY §8 — the offline schedule of
// the same rate, to 1e-9 —, warm-up and refresh timing, the EMA across refreshes, bins below the
// minimum count accumulating across refreshes, gap filling, and an exact state round trip.
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

#include <nlohmann/json.hpp>

#include "schedule/allocation.h"
#include "schedule/entropic.h"
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

// The offline rate profile of per-bin errors: MMSE = m̂ at the bin centres.
schedule::RateProfile profileOf(const schedule::LogSigmaGrid& grid, const std::vector<double>& m) {
  schedule::RateProfile p;
  p.sigma = grid.sigmaCenters();
  p.mmse = m;
  p.source = "test";
  return p;
}

double maxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(std::abs(b[i]), 1e-300));
  return worst;
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
    for (int b = 0; b < 64; ++b)
      QVERIFY(std::abs(r.mhat[b] - gaussianError(sigmas[b])) < 1e-9 * gaussianError(sigmas[b]));
    // ρ and π are the offline InfoNoise allocation and schedule of the profile m̂ (THEORY §6).
    schedule::InfoNoiseOptions info;
    info.gateC = 0.15;
    info.weight = edmWeight(sd);
    const auto profile = profileOf(grid, r.mhat);
    QVERIFY(maxRelativeDifference(
                r.rho, schedule::infoNoiseAllocation(profile, grid, info).binMasses()) < 1e-12);
    QVERIFY(maxRelativeDifference(
                r.pi, schedule::infoNoiseSchedule(profile, grid, info).binMasses()) < 1e-12);
    // Which is, to the accuracy of one bin, ρ ∝ m̂/σ²·g at the centres and π ∝ ρ/w.
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
      QVERIFY(std::abs(r.rho[b] - rho[b] / rs) < 2e-2 * rho[b] / rs + 1e-12);
      QVERIFY(std::abs(r.pi[b] - pi[b] / ps) < 2e-2 * pi[b] / ps + 1e-12);
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
    // π is the offline √-entropy schedule of m̂ in log σ, the gate under the root.
    schedule::SqrtEntropyOptions root;
    root.gateC = 0.2;
    const auto offline = schedule::sqrtEntropySchedule(profileOf(grid, r.mhat), grid, root);
    QVERIFY(maxRelativeDifference(r.pi, offline.binMasses()) < 1e-12);
    // The sparse bins were not thrown away: they hold their samples for the next refresh.
    const auto state = sampler.state();
    for (int b = 0; b < 4; ++b) QCOMPARE(state["window_count"][b].get<double>(), 2.0);
    QCOMPARE(state["window_count"][4].get<double>(), 0.0);
  }

  void onlineScheduleIsTheOfflineScheduleOfTheSameRate() {
    // The same m̂ on the same bins: the online sampler's π equals the offline schedule built from
    // a profile with those MMSE values, for both laws, with and without the gate (THEORY §6, §8).
    const auto grid = schedule::LogSigmaGrid::uniform(0.002, 80, 48);
    const auto sigmas = grid.sigmaCenters();
    std::vector<double> m(48);
    for (int b = 0; b < 48; ++b)
      m[b] = gaussianMmse(sigmas[b], 0.5, 10.0) * (1.0 + 0.3 * std::sin(0.7 * b));
    const auto profile = profileOf(grid, m);
    const schedule::LossWeight weight = edmWeight(0.6);
    for (const double c : {0.0, 0.15, 0.4}) {
      AdaptiveSettings a;
      a.warmupSteps = 0;
      a.refreshEvery = 1;
      a.smoothingPasses = 0;
      a.minBinCount = 1;
      a.gateC = c;
      a.gateN = 3.0;
      BinStatistics window(48);
      for (int b = 0; b < 48; ++b) {
        window.count[b] = 4;
        window.errorSum[b] = 4 * m[b];
      }
      const auto base = schedule::makePresetSchedule("edm", grid);

      NoiseSampler info(SamplerKind::InfoNoise, base, grid, weight, a);
      info.record(window);
      QVERIFY(info.refresh(1));
      schedule::InfoNoiseOptions offlineInfo;
      offlineInfo.gateC = c;
      offlineInfo.gateN = 3.0;
      offlineInfo.weight = weight;
      const double infoGap = maxRelativeDifference(
          info.lastRefresh().pi,
          schedule::infoNoiseSchedule(profile, grid, offlineInfo).binMasses());
      QVERIFY2(infoGap < 1e-9, qPrintable(QString::number(infoGap)));

      NoiseSampler root(SamplerKind::SqrtEntropy, base, grid, weight, a);
      root.record(window);
      QVERIFY(root.refresh(1));
      schedule::SqrtEntropyOptions offlineRoot;
      offlineRoot.coordinate = schedule::Coordinate::LogSigma;
      offlineRoot.gateC = c;
      offlineRoot.gateN = 3.0;
      offlineRoot.weight = weight;
      const double rootGap = maxRelativeDifference(
          root.lastRefresh().pi,
          schedule::sqrtEntropySchedule(profile, grid, offlineRoot).binMasses());
      QVERIFY2(rootGap < 1e-9, qPrintable(QString::number(rootGap)));
      // The sampler draws from that π, and it is trained with the given weight.
      QVERIFY(maxRelativeDifference(root.current().binMasses(), root.lastRefresh().pi) < 1e-12);
      QCOMPARE(root.current().lossWeight.sigmaData, 0.6);
      // With a gate, √-entropy's gate sits under the root: its low-σ bins carry √g, not g.
      if (c > 0) {
        const auto noGate = [&] {
          schedule::SqrtEntropyOptions o = offlineRoot;
          o.gateC = 0.0;
          return schedule::sqrtEntropySchedule(profile, grid, o).binMasses();
        }();
        const double ratio0 = root.lastRefresh().pi[0] / noGate[0];
        const double ratioTop = root.lastRefresh().pi[47] / noGate[47];
        const double g0 = schedule::infoNoiseGate(sigmas[0], c, 3.0);
        QVERIFY(std::abs(ratio0 / ratioTop - std::sqrt(g0)) < 0.05 * std::sqrt(g0));
      }
    }
  }

  void sparseBinsAccumulateUntilTheMinimumCount() {
    // A tail bin that π visits once per refresh window, minimum count 4: its samples accumulate
    // across refreshes, and on the 4th refresh they are folded into m̂ (before the fix the
    // window was cleared at every refresh and the bin stayed at its warm-up value forever).
    const auto grid = schedule::LogSigmaGrid::uniform(0.002, 80, 16);
    AdaptiveSettings a;
    a.warmupSteps = 0;
    a.refreshEvery = 1;
    a.smoothingPasses = 0;
    a.minBinCount = 4;
    a.statDecay = 0.5;
    NoiseSampler sampler(SamplerKind::InfoNoise, schedule::makePresetSchedule("edm", grid), grid,
                         edmWeight(0.5), a);
    const int tail = 15;
    const double tailError = 1000.0;
    for (int refresh = 1; refresh <= 4; ++refresh) {
      BinStatistics w = syntheticWindow(grid, 8, gaussianError);
      w.count[tail] = 1;
      w.errorSum[tail] = tailError * refresh;  // errors 1000, 2000, 3000, 4000: mean 2500
      sampler.record(w);
      QVERIFY(sampler.refresh(refresh));
      const auto state = sampler.state();
      if (refresh < 4) {
        QCOMPARE(state["known"][tail].get<int>(), 0);  // not yet: still accumulating
        QCOMPARE(state["window_count"][tail].get<double>(), double(refresh));
        // Meanwhile its m̂ is filled from the neighbours (held above the last known bin).
        QVERIFY(std::abs(sampler.lastRefresh().mhat[tail] - sampler.lastRefresh().mhat[tail - 1]) <
                1e-9 * sampler.lastRefresh().mhat[tail - 1]);
      } else {
        QCOMPARE(state["known"][tail].get<int>(), 1);
        QCOMPARE(state["window_count"][tail].get<double>(), 0.0);  // folded and reset
        QVERIFY(std::abs(sampler.lastRefresh().mhat[tail] - 2500.0) < 1e-9);
      }
      // Well-observed bins are folded and reset at every refresh.
      QCOMPARE(state["window_count"][3].get<double>(), 0.0);
    }
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
