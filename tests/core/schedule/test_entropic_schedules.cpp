// Entropic schedules from analytic profiles whose integrals are known in closed form.
#include <QObject>
#include <QString>
#include <QTest>

#include <cmath>

#include "schedule/allocation.h"
#include "schedule/entropic.h"
#include "util/error.h"
#include "util/log_grid.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {
std::vector<double> logSpaced(double lo, double hi, int n) {
  return logSpacedGrid(lo, hi, n);
}
}  // namespace

class TestEntropicSchedules : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void infoNoiseOnGaussianMatchesClosedForm();
  void sqrtEntropyCoordinates();
  void twoPointProfileIntegratesToLog2();
  void gateAndWeight();
  void entropicTimeGrid();
  void smoothingAndBadProfiles();
  void gatedRateIsOneDefinition();
};

void TestEntropicSchedules::infoNoiseOnGaussianMatchesClosedForm() {
  // Gaussian N(0, s²I): rate = D s²/(s²+σ²); its antiderivative in ℓ is ℓ − ½ log(s² + σ²).
  const double s = 0.5;
  const RateProfile profile = gaussianProfile(s, 10, logSpaced(0.002, 80.0, 400));
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
  InfoNoiseOptions options;
  options.gateC = 0.0;
  options.weight.kind = LossWeight::Kind::Uniform;
  const Schedule pi = infoNoiseSchedule(profile, grid, options);
  auto antiderivative = [&](double ell) { return ell - 0.5 * std::log(s * s + std::exp(2 * ell)); };
  const double a = grid.logSigmaMin(), b = grid.logSigmaMax();
  for (double sigma : {0.01, 0.1, 0.5, 2.0, 20.0}) {
    const double ell = std::log(sigma);
    const double expected =
        (antiderivative(ell) - antiderivative(a)) / (antiderivative(b) - antiderivative(a));
    QVERIFY2(std::abs(pi.cdfSigma(sigma) - expected) < 2e-4, std::to_string(sigma).c_str());
  }
  QCOMPARE(pi.info.kind, std::string("infonoise"));
  QCOMPARE(pi.info.note("profile-kind"), std::string("analytic"));
}

void TestEntropicSchedules::sqrtEntropyCoordinates() {
  const double s = 0.5;
  const RateProfile profile = gaussianProfile(s, 3, logSpaced(0.002, 80.0, 400));
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
  // In ℓ: π ∝ s/√(s²+σ²), whose antiderivative is −asinh(s/σ).
  SqrtEntropyOptions options;
  const Schedule inLog = sqrtEntropySchedule(profile, grid, options);
  const double a = grid.sigmaMin(), b = grid.sigmaMax();
  for (double sigma : {0.01, 0.3, 3.0}) {
    const double expected =
        (std::asinh(s / a) - std::asinh(s / sigma)) / (std::asinh(s / a) - std::asinh(s / b));
    QVERIFY(std::abs(inLog.cdfSigma(sigma) - expected) < 2e-4);
  }
  QCOMPARE(inLog.info.note("coordinate"), std::string("log-sigma"));
  // In λ the Jacobian is a constant: the same schedule as in ℓ.
  options.coordinate = Coordinate::Lambda;
  const Schedule inLambda = sqrtEntropySchedule(profile, grid, options);
  for (int bin = 0; bin < grid.bins(); bin += 17)
    QVERIFY(std::abs(inLambda.binMasses()[bin] - inLog.binMasses()[bin]) < 1e-12);
  // In σ: π_ℓ ∝ √(rate_ℓ·σ), so the density ratio between two levels follows that formula.
  options.coordinate = Coordinate::Sigma;
  const Schedule inSigma = sqrtEntropySchedule(profile, grid, options);
  auto expectedShape = [&](double sigma) {
    return std::sqrt(sigma) / std::sqrt(s * s + sigma * sigma);
  };
  const double l1 = grid.center(40), l2 = grid.center(200);
  const double ratio = inSigma.densityLogSigma(l1) / inSigma.densityLogSigma(l2);
  QVERIFY(std::abs(ratio / (expectedShape(std::exp(l1)) / expectedShape(std::exp(l2))) - 1.0) <
          1e-3);
  QVERIFY(inSigma.quantileSigma(0.5) > inLog.quantileSigma(0.5));
  options.coordinate = Coordinate::FlowTime;
  QVERIFY_THROWS_EXCEPTION(InputError, sqrtEntropySchedule(profile, grid, options));
}

void TestEntropicSchedules::twoPointProfileIntegratesToLog2() {
  // H[x0] = log 2 for two points: ∫ MMSE/σ² d log σ over all σ.
  const RateProfile profile = twoPointProfile(1.0, logSpaced(1e-3, 1e3, 200));
  double integral = 0.0;
  const int n = 20000;
  const double a = std::log(1e-3), b = std::log(1e3);
  for (int i = 0; i < n; ++i)
    integral += profile.rateLogSigma(a + (b - a) * (i + 0.5) / n) * (b - a) / n;
  QVERIFY2(std::abs(integral - std::log(2.0)) < 5e-3, std::to_string(integral).c_str());
  // The information is gained around σ ≈ a: the InfoNoise allocation's median is within [0.3, 3].
  InfoNoiseOptions options;
  options.gateC = 0.0;
  const Schedule rho =
      infoNoiseAllocation(profile, LogSigmaGrid::uniform(0.002, 80.0, 128), options);
  QVERIFY(rho.quantileSigma(0.5) > 0.3 && rho.quantileSigma(0.5) < 3.0);
  // MMSE of two points at σ → 0 vanishes, at σ → ∞ tends to a².
  QVERIFY(twoPointMmse(1.0, 0.05) < 1e-6);
  QVERIFY(std::abs(twoPointMmse(1.0, 100.0) - 1.0) < 1e-3);
}

void TestEntropicSchedules::gateAndWeight() {
  const RateProfile profile = gaussianProfile(0.5, 10, logSpaced(0.002, 80.0, 200));
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 128);
  InfoNoiseOptions options;  // c = 0.15, n = 3, EDM weight
  QVERIFY(std::abs(infoNoiseGate(0.15, 0.15, 3.0) - 0.5) < 1e-15);
  const Schedule rho = infoNoiseAllocation(profile, grid, options);
  const Schedule pi = infoNoiseSchedule(profile, grid, options);
  // π·w reproduces ρ.
  const Schedule phi = effectiveAllocation(pi);
  for (int bin = 0; bin < grid.bins(); ++bin)
    QVERIFY(std::abs(phi.binMasses()[bin] - rho.binMasses()[bin]) < 1e-12);
  // The gate removes the flat low-noise plateau: little mass below σ = c/4.
  QVERIFY(rho.cdfSigma(0.15 / 4) < 0.01);
  options.gateC = 0.0;
  QVERIFY(infoNoiseAllocation(profile, grid, options).cdfSigma(0.15 / 4) > 0.2);
}

void TestEntropicSchedules::entropicTimeGrid() {
  const RateProfile profile = twoPointProfile(1.0, logSpaced(0.002, 80.0, 64));
  const Schedule rho = infoNoiseAllocation(profile, LogSigmaGrid::uniform(0.002, 80.0, 128));
  const std::vector<double> steps = noisescope::schedule::entropicTimeGrid(rho, 11);
  QCOMPARE(steps.size(), std::size_t(11));
  for (int k = 1; k < 11; ++k) {
    QVERIFY(steps[k] > steps[k - 1]);
    QVERIFY(std::abs(rho.cdfSigma(steps[k]) - k / 10.0) < 1e-9);
  }
  QVERIFY_THROWS_EXCEPTION(InputError, noisescope::schedule::entropicTimeGrid(rho, 1));
}

void TestEntropicSchedules::smoothingAndBadProfiles() {
  const RateProfile profile = gaussianProfile(0.5, 1, logSpaced(0.002, 80.0, 64));
  RateProfile noisy = profile;
  for (std::size_t i = 0; i < noisy.mmse.size(); ++i) noisy.mmse[i] *= i % 2 ? 1.2 : 1.0 / 1.2;
  const RateProfile smooth = smoothProfile(noisy, 0.5);
  double before = 0.0, after = 0.0;
  for (std::size_t i = 5; i + 5 < profile.mmse.size(); ++i) {
    before += std::abs(std::log(noisy.mmse[i] / profile.mmse[i]));
    after += std::abs(std::log(smooth.mmse[i] / profile.mmse[i]));
  }
  QVERIFY(after < 0.2 * before);
  RateProfile bad = profile;
  bad.mmse[3] = -1.0;
  QVERIFY_THROWS_EXCEPTION(InputError, bad.validate());
  bad = profile;
  std::swap(bad.sigma[1], bad.sigma[2]);
  QVERIFY_THROWS_EXCEPTION(InputError, infoNoiseSchedule(bad, LogSigmaGrid::uniform()));
}

void TestEntropicSchedules::gatedRateIsOneDefinition() {
  // THEORY §6: the gate is part of the rate; c = 0 is no gate; √-entropy takes the root of the
  // gated rate per du.
  const RateGate off{0.0, 3.0}, on{0.15, 3.0};
  for (double sigma : {0.002, 0.15, 1.0, 80.0}) {
    QCOMPARE(off.at(sigma), 1.0);
    QCOMPARE(gatedRate(2.5, sigma, off), 2.5);
    QCOMPARE(gatedRate(2.5, sigma, on), 2.5 * on.at(sigma));
    QCOMPARE(on.at(sigma), infoNoiseGate(sigma, 0.15, 3.0));
  }
  QVERIFY(std::abs(on.at(0.15) - 0.5) < 1e-15);
  const double ell = std::log(0.3), r = 1.7;
  QCOMPARE(entropicDensity(EntropicLaw::InfoNoise, r, ell), r);
  QVERIFY(std::abs(entropicDensity(EntropicLaw::SqrtEntropy, r, ell, Coordinate::LogSigma) -
                   std::sqrt(r)) < 1e-15);
  // Per σ: |dℓ/dσ| = 1/σ, so π_ℓ = √(r/σ)·σ; per λ: |dℓ/dλ| = ½, so π_ℓ = √(r/2)·2.
  QVERIFY(std::abs(entropicDensity(EntropicLaw::SqrtEntropy, r, ell, Coordinate::Sigma) -
                   std::sqrt(r * 0.3)) < 1e-14);
  QVERIFY(std::abs(entropicDensity(EntropicLaw::SqrtEntropy, r, ell, Coordinate::Lambda) -
                   std::sqrt(2.0 * r)) < 1e-14);
  QVERIFY_THROWS_EXCEPTION(InputError, RateGate({-0.1, 3.0}).validate("gate"));
  QVERIFY_THROWS_EXCEPTION(InputError, RateGate({0.1, 0.0}).validate("gate"));

  // On a flat rate (MMSE ∝ σ²) the gate shapes ρ as g and √-entropy's π as √g: the root is
  // taken of the gated rate, not multiplied by the gate afterwards.
  RateProfile flat;
  flat.sigma = logSpaced(0.002, 80.0, 64);
  for (double sigma : flat.sigma) flat.mmse.push_back(3.0 * sigma * sigma);
  flat.source = "flat";
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 200);
  SqrtEntropyOptions root;
  root.gateC = 0.15;
  const auto gated = sqrtEntropySchedule(flat, grid, root).binMasses();
  const auto rho = entropicAllocation(EntropicLaw::InfoNoise, flat, grid, on).binMasses();
  const int top = grid.bins() - 1;
  for (int b : {0, 40, 80}) {
    const double sigma = std::exp(grid.center(b));
    const double g = on.at(sigma) / on.at(std::exp(grid.center(top)));
    QVERIFY2(std::abs(gated[b] / gated[top] - std::sqrt(g)) < 0.02 * std::sqrt(g),
             qPrintable(QString::number(b)));
    QVERIFY2(std::abs(rho[b] / rho[top] - g) < 0.02 * g, qPrintable(QString::number(b)));
  }
  // Both builders reject a bad gate.
  root.gateC = -1.0;
  QVERIFY_THROWS_EXCEPTION(InputError, sqrtEntropySchedule(flat, grid, root));
  InfoNoiseOptions info;
  info.gateN = 0.0;
  QVERIFY_THROWS_EXCEPTION(InputError, infoNoiseAllocation(flat, grid, info));
}

QTEST_APPLESS_MAIN(TestEntropicSchedules)
#include "test_entropic_schedules.moc"
