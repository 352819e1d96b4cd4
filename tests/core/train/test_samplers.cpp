// The samplers of train/evaluation.h on a two-point dataset, whose optimal denoiser is known in
// closed form: for data ½δ_a + ½δ_b and y = x0 + σε, E[x0 | y] = (a·e^{−‖y−a‖²/2σ²} +
// b·e^{−‖y−b‖²/2σ²}) / (the same weights). Sampling with it and enough steps must land every
// sample on a or b, about half on each; the evaluations spent must be what the race counts.
#include <QObject>
#include <QString>
#include <QTest>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

#include "train/evaluation.h"
#include "util/error.h"
#include "util/progress.h"

using namespace noisescope;
using namespace noisescope::train;
using namespace noisescope::schedule;

namespace {

const double kA[2] = {1.0, -0.5}, kB[2] = {-1.0, 0.75};

at::Tensor points() {
  return at::tensor({kA[0], kA[1], kB[0], kB[1]}, at::kFloat).reshape({2, 2});
}

// The exact posterior mean of the two-point data, counting its calls.
DenoiseFunction twoPointDenoiser(int64_t* calls) {
  return [calls](const at::Tensor& y, const at::Tensor& sigma) {
    if (calls) ++*calls;
    const auto p = points().to(y.scalar_type());
    const auto d2 = (y.unsqueeze(1) - p.unsqueeze(0)).pow(2).sum(-1);  // [B, 2]
    const auto s2 = sigma.to(y.scalar_type()).pow(2).unsqueeze(1);
    const auto w = at::softmax(-d2 / (2 * s2), 1);
    return at::matmul(w, p);
  };
}

at::Tensor startNoise(int64_t n, uint64_t seed) {
  auto gen = at::detail::createCPUGenerator(seed);
  return at::randn({n, 2}, gen, at::kFloat);
}

// Largest distance of a sample to its nearer point, and the share that land nearer to a.
std::pair<double, double> landing(const at::Tensor& x) {
  const auto d = (x.unsqueeze(1) - points().unsqueeze(0)).pow(2).sum(-1).sqrt();  // [N, 2]
  const auto nearest = std::get<0>(d.min(1));
  const auto toA = (d.select(1, 0) < d.select(1, 1)).to(at::kDouble).mean().item<double>();
  return {nearest.max().item<double>(), toA};
}

// The same steps without the final one to σ = 0: the samples then show where the ODE got to at
// σ_min, before a last denoising snaps them onto the nearer point.
std::vector<double> withoutZero(std::vector<double> sigmas) {
  sigmas.pop_back();
  return sigmas;
}

}  // namespace

class TestSamplers : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void heunReproducesTheTwoPoints() {
    const auto sigmas = edmSamplingSigmas(64, 0.002, 80.0, 7.0);
    for (const auto& steps : {sigmas, withoutZero(sigmas)}) {
      const auto x = heunSample(twoPointDenoiser(nullptr), startNoise(400, 3), steps);
      const auto [far, toA] = landing(x);
      QVERIFY2(far < 2e-2, qPrintable(QString("a sample ended %1 from both points").arg(far)));
      // Symmetric in the start noise's law: 400 draws give ½ ± 0.075 with probability > 0.997.
      QVERIFY2(std::abs(toA - 0.5) < 0.075, qPrintable(QString("share at a: %1").arg(toA)));
    }
  }

  void eulerAndAncestralReproduceTheTwoPoints() {
    const auto sigmas = withoutZero(edmSamplingSigmas(200, 0.002, 80.0, 7.0));
    for (int kind = 0; kind < 2; ++kind) {
      const auto x = kind == 0 ? eulerSample(twoPointDenoiser(nullptr), startNoise(400, 4), sigmas)
                               : eulerAncestralSample(twoPointDenoiser(nullptr), startNoise(400, 4),
                                                      sigmas, 9);
      const auto [far, toA] = landing(x);
      QVERIFY2(
          far < 1e-2,
          qPrintable(QString("sampler %1: a sample ended %2 from both points").arg(kind).arg(far)));
      QVERIFY2(std::abs(toA - 0.5) < 0.075,
               qPrintable(QString("sampler %1: share at a %2").arg(kind).arg(toA)));
    }
  }

  void fewStepsLeaveSamplesBetweenThePoints() {
    // The check at σ_min is not vacuous: two Heun steps from σ = 80 do not resolve the points.
    const auto x = heunSample(twoPointDenoiser(nullptr), startNoise(400, 3),
                              withoutZero(edmSamplingSigmas(2, 0.002, 80.0, 7.0)));
    QVERIFY(landing(x).first > 0.1);
  }

  void evaluationsAreCountedAsTheRaceCountsThem() {
    for (int64_t steps : {2, 4, 16}) {
      const auto sigmas = edmSamplingSigmas(steps, 0.002, 80.0, 7.0);
      int64_t heun = 0, euler = 0, ancestral = 0;
      heunSample(twoPointDenoiser(&heun), startNoise(8, 1), sigmas);
      eulerSample(twoPointDenoiser(&euler), startNoise(8, 1), sigmas);
      eulerAncestralSample(twoPointDenoiser(&ancestral), startNoise(8, 1), sigmas, 2);
      QCOMPARE(heun, samplerEvaluations(OdeSampler::Heun, steps));
      QCOMPARE(heun, 2 * steps - 1);
      QCOMPARE(euler, samplerEvaluations(OdeSampler::Euler, steps));
      QCOMPARE(ancestral, samplerEvaluations(OdeSampler::EulerAncestral, steps));
    }
    // A budget n gives Heun ⌊(n + 1)/2⌋ steps: never more evaluations than n.
    for (int64_t n : {8, 16, 32, 64}) {
      QCOMPARE(stepsForEvaluations(OdeSampler::Heun, n), n / 2);
      QVERIFY(samplerEvaluations(OdeSampler::Heun, stepsForEvaluations(OdeSampler::Heun, n)) <= n);
      QCOMPARE(stepsForEvaluations(OdeSampler::Euler, n), n);
    }
    QVERIFY_THROWS_EXCEPTION(InputError, odeSamplerFromString("dpm"));
    for (OdeSampler s : odeSamplers()) QVERIFY(odeSamplerFromString(toString(s)) == s);
  }

  void theGridElboOfTheExactDenoiserTightensWithSteps() {
    // For the optimal denoiser the finite-step bound L_T falls towards L_∞ as levels are added
    // (Kingma et al. 2021): refining a log-uniform grid lowers it. Common x0 and noise.
    const auto x0 = points().repeat({200, 1});
    auto gen = at::detail::createCPUGenerator(11);
    const auto noise = at::randn(x0.sizes(), gen, at::kFloat);
    const auto denoise = twoPointDenoiser(nullptr);
    double previous = 0;
    for (int n : {3, 5, 9, 17}) {
      std::vector<double> s;
      for (int i = 0; i < n; ++i) s.push_back(80.0 * std::pow(0.1 / 80.0, double(i) / (n - 1)));
      const double elbo = gridElbo(denoise, x0, noise, s);
      QVERIFY(std::isfinite(elbo) && elbo > 0);
      if (n > 3)
        QVERIFY2(elbo <= previous + 1e-9,
                 qPrintable(QString("%1 levels: %2 > %3").arg(n).arg(elbo).arg(previous)));
      previous = elbo;
    }
  }

  void theEndTermsOfDiscreteDataAreTheirClosedForms() {
    // x0 ∈ {±1}: the prior KL is 1/(2σ_max²); the reconstruction vanishes as σ_min → 0 and is
    // E softplus(−2/σ² − 2ε/σ) otherwise (here at σ = 1 with ε = 0: log(1 + e^{−2})).
    const auto x0 = at::tensor({1.0f, -1.0f, 1.0f, -1.0f}).reshape({2, 2});
    const auto zero = at::zeros_like(x0);
    QVERIFY(std::abs(discreteElboEnds(x0, zero, 0.01, 2.0) - 1.0 / 8.0) < 1e-9);
    const double atOne = discreteElboEnds(x0, zero, 1.0, 1e6);
    QVERIFY(std::abs(atOne - std::log1p(std::exp(-2.0))) < 1e-9);
  }

  void cancelStopsASampler() {
    auto flag = std::make_shared<std::atomic<bool>>(true);
    const Progress cancelled([](double, const std::string&) {}, flag);
    QVERIFY_THROWS_EXCEPTION(Cancelled,
                             heunSample(twoPointDenoiser(nullptr), startNoise(4, 1),
                                        edmSamplingSigmas(8, 0.002, 80.0, 7.0), cancelled));
  }
};

QTEST_GUILESS_MAIN(TestSamplers)
#include "test_samplers.moc"
