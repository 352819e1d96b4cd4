// Coverage of the population bound (THEORY §10) against populations whose MMSE is known: over
// many seeds, the bound's one-sided 95 % upper end must lie at or above the true population MMSE
// at ≥ 95 % of (seed, level) pairs. The same draws show the plug-in Gaussian curve (the old
// "Gaussian bound") falling below the truth when N < D. Small sizes, so that it runs in CI.
#include <QObject>
#include <QString>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <random>

#include "data/dataset.h"
#include "diagnostic/bracket.h"
#include "diagnostic/gaussian_profile.h"

using namespace noisescope;

namespace {

constexpr int kSeeds = 50;

// Normal draws from mt19937_64's raw bits (fixed by the standard), so every platform sees the
// same populations.
class Draws {
 public:
  explicit Draws(uint64_t seed) : engine_(seed) {}
  double uniform() { return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() {
    const double r = std::sqrt(-2.0 * std::log(uniform())), a = 2.0 * M_PI * uniform();
    return r * std::cos(a);
  }
  int categorical(const std::vector<double>& p) {
    double u = uniform();
    for (size_t k = 0; k + 1 < p.size(); ++k) {
      if (u < p[k]) return static_cast<int>(k);
      u -= p[k];
    }
    return static_cast<int>(p.size()) - 1;
  }

 private:
  std::mt19937_64 engine_;
};

// A population: how to draw one sample, its layout, and its MMSE on a σ grid.
struct Population {
  std::string name;
  SampleKind kind = SampleKind::Vector;
  std::vector<int64_t> shape;
  std::function<void(Draws&, float*)> draw;
  std::vector<double> mmse;  // on the test grid
};

Dataset sample(const Population& p, int64_t n, uint64_t seed, const std::string& part) {
  Dataset d;
  d.name = d.source = p.name + "/" + part + "/" + std::to_string(seed);
  d.kind = p.kind;
  d.sampleShape = p.shape;
  d.values.resize(static_cast<size_t>(n * d.dim()));
  Draws draws(seed);
  for (int64_t i = 0; i < n; ++i) p.draw(draws, d.sample(i));
  return d;
}

DiagnosticOptions grid() {
  DiagnosticOptions o;
  o.levels = 8;
  o.sigmaMin = 0.02;
  o.sigmaMax = 20.0;
  o.queries = 64;
  o.device = "cpu";
  return o;
}

std::vector<double> sigmas() {
  const DiagnosticOptions o = grid();
  return logSigmaLevels(o.levels, o.sigmaMin, o.sigmaMax);
}

// N(0, diag(λ)) with a power-law spectrum λ_k = 4 k^(−1.5): the Wiener MMSE is exact.
Population powerLawGaussian(int64_t d) {
  Population p;
  p.name = "gaussian-d" + std::to_string(d);
  p.shape = {d};
  std::vector<double> lambda;
  for (int64_t k = 1; k <= d; ++k) lambda.push_back(4.0 * std::pow(static_cast<double>(k), -1.5));
  p.draw = [lambda](Draws& r, float* x) {
    for (size_t k = 0; k < lambda.size(); ++k)
      x[k] = static_cast<float>(std::sqrt(lambda[k]) * r.normal());
  };
  p.mmse = wienerMmse(lambda, sigmas());
  return p;
}

// Four isotropic Gaussian components N(m_k, s²I) in D = 6 with equal weights. The population MMSE
// is E tr Cov(x | y), by Monte Carlo over y with the exact posterior (responsibilities times the
// component posteriors): 40 000 draws per level, a relative error well under 1 %.
Population gaussianMixture() {
  Population p;
  p.name = "mixture";
  const int64_t d = 6;
  const int k = 4;
  const double s = 0.4;
  p.shape = {d};
  std::vector<std::vector<double>> means(k, std::vector<double>(d));
  Draws layout(99);
  for (auto& m : means)
    for (double& v : m) v = 1.5 * layout.normal();
  p.draw = [means, s, d](Draws& r, float* x) {
    const auto& m = means[static_cast<size_t>(r.categorical({0.25, 0.25, 0.25, 0.25}))];
    for (int64_t j = 0; j < d; ++j) x[j] = static_cast<float>(m[j] + s * r.normal());
  };
  Draws mc(7);
  for (double sigma : sigmas()) {
    const double v = s * s + sigma * sigma, shrink = s * s / v;
    double total = 0.0;
    const int draws = 40000;
    for (int t = 0; t < draws; ++t) {
      std::vector<double> y(d);
      const auto& m = means[static_cast<size_t>(mc.categorical({0.25, 0.25, 0.25, 0.25}))];
      for (int64_t j = 0; j < d; ++j) y[j] = m[j] + std::sqrt(v) * mc.normal();
      std::vector<double> logw(k), mu(static_cast<size_t>(k * d));
      double top = -1e300;
      for (int c = 0; c < k; ++c) {
        double q = 0.0;
        for (int64_t j = 0; j < d; ++j) q += (y[j] - means[c][j]) * (y[j] - means[c][j]);
        logw[c] = -q / (2.0 * v);
        top = std::max(top, logw[c]);
        for (int64_t j = 0; j < d; ++j) mu[c * d + j] = means[c][j] + shrink * (y[j] - means[c][j]);
      }
      double z = 0.0;
      for (double& w : logw) z += (w = std::exp(w - top));
      std::vector<double> mean(d, 0.0);
      for (int c = 0; c < k; ++c)
        for (int64_t j = 0; j < d; ++j) mean[j] += logw[c] / z * mu[c * d + j];
      double spread = d * shrink * sigma * sigma;  // within-component posterior variance
      for (int c = 0; c < k; ++c)
        for (int64_t j = 0; j < d; ++j)
          spread += logw[c] / z * (mu[c * d + j] - mean[j]) * (mu[c * d + j] - mean[j]);
      total += spread;
    }
    p.mmse.push_back(total / draws);
  }
  return p;
}

// L = 6 independent letters of composition (0.4, 0.3, 0.2, 0.1), one-hot ±1 (THEORY §1). The
// posterior factorises by position, w_b ∝ p_b exp(y·e_b/σ²); the MMSE is L times one position's
// E Σ_b w_b ‖e_b − E[e | y]‖², by Monte Carlo (40 000 draws per level).
Population oneHotLetters() {
  Population p;
  p.name = "letters";
  p.kind = SampleKind::Sequence;
  const int64_t length = 6;
  p.shape = {length, 4};
  const std::vector<double> comp = {0.4, 0.3, 0.2, 0.1};
  p.draw = [comp, length](Draws& r, float* x) {
    for (int64_t i = 0; i < length; ++i) {
      const int a = r.categorical(comp);
      for (int b = 0; b < 4; ++b) x[i * 4 + b] = b == a ? 1.0f : -1.0f;
    }
  };
  Draws mc(11);
  for (double sigma : sigmas()) {
    double total = 0.0;
    const int draws = 40000;
    for (int t = 0; t < draws; ++t) {
      const int a = mc.categorical(comp);
      double y[4], w[4], top = -1e300;
      for (int b = 0; b < 4; ++b) y[b] = (b == a ? 1.0 : -1.0) + sigma * mc.normal();
      for (int b = 0; b < 4; ++b) {
        w[b] = std::log(comp[b]) + 2.0 * y[b] / (sigma * sigma);  // y·e_b up to a constant
        top = std::max(top, w[b]);
      }
      double z = 0.0;
      for (double& v : w) z += (v = std::exp(v - top));
      double mean[4] = {0, 0, 0, 0};
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 4; ++c) mean[c] += w[b] / z * (b == c ? 1.0 : -1.0);
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 4; ++c) {
          const double e = (b == c ? 1.0 : -1.0) - mean[c];
          total += w[b] / z * e * e;
        }
    }
    p.mmse.push_back(length * total / draws);
  }
  return p;
}

struct Coverage {
  int covered = 0, pairs = 0, pluginCovered = 0;
  std::vector<int> perLevel = std::vector<int>(8, 0);
  double rate() const { return static_cast<double>(covered) / pairs; }
  double pluginRate() const { return static_cast<double>(pluginCovered) / pairs; }
};

Coverage measure(const Population& p, int64_t priorSize, int64_t heldOutSize) {
  Coverage c;
  GaussianSpectrumOptions noBootstrap;
  noBootstrap.bootstrap = 0;  // the old curve: the plug-in value with a zero-width interval
  for (int seed = 1; seed <= kSeeds; ++seed) {
    const Dataset prior = sample(p, priorSize, 1000 + seed, "prior");
    const Dataset heldOut = sample(p, heldOutSize, 5000 + seed, "held-out");
    DiagnosticOptions o = grid();
    o.seed = static_cast<uint64_t>(seed);
    const Bracket b = computeBracket(prior, heldOut, o);
    const Profile plugin = computeGaussianProfile(prior, o, noBootstrap);
    for (int l = 0; l < o.levels; ++l) {
      ++c.pairs;
      const bool covers = b.bound.primary().upper95[l] >= p.mmse[l];
      c.covered += covers;
      c.perLevel[static_cast<size_t>(l)] += covers;
      c.pluginCovered += plugin.primary().ciHigh[l] >= p.mmse[l];
    }
  }
  std::printf("%-16s N=%-4lld H=%-3lld bound covers %.3f, plug-in %.3f of %d (seed, level)\n",
              p.name.c_str(), static_cast<long long>(priorSize),
              static_cast<long long>(heldOutSize), c.rate(), c.pluginRate(), c.pairs);
  std::printf("  covered seeds per level (of %d):", kSeeds);
  for (int v : c.perLevel) std::printf(" %d", v);
  std::printf("\n");
  return c;
}

}  // namespace

class TestBoundCoverage : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void gaussianFewerSamplesThanDimensions() {
    const Coverage c = measure(powerLawGaussian(32), 16, 40);
    QVERIFY2(c.rate() >= 0.95, qPrintable(QString::number(c.rate())));
    QVERIFY2(c.pluginRate() < 0.5, qPrintable(QString::number(c.pluginRate())));
  }
  void gaussianMoreSamplesThanDimensions() {
    const Coverage c = measure(powerLawGaussian(8), 120, 40);
    QVERIFY2(c.rate() >= 0.95, qPrintable(QString::number(c.rate())));
    QVERIFY2(c.pluginRate() < 0.95, qPrintable(QString::number(c.pluginRate())));
  }
  void gaussianMixture() {
    const Coverage c = measure(::gaussianMixture(), 60, 40);
    QVERIFY2(c.rate() >= 0.95, qPrintable(QString::number(c.rate())));
  }
  void oneHotLetters() {
    const Coverage c = measure(::oneHotLetters(), 40, 40);
    QVERIFY2(c.rate() >= 0.95, qPrintable(QString::number(c.rate())));
  }
};

QTEST_GUILESS_MAIN(TestBoundCoverage)
#include "test_bound_coverage.moc"
