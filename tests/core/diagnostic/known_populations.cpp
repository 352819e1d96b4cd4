#include "known_populations.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "diagnostic/bracket.h"
#include "diagnostic/gaussian_profile.h"

namespace noisescope::known {

double Draws::normal() {
  const double r = std::sqrt(-2.0 * std::log(uniform())), a = 2.0 * M_PI * uniform();
  return r * std::cos(a);
}

int Draws::categorical(const std::vector<double>& p) {
  double u = uniform();
  for (size_t k = 0; k + 1 < p.size(); ++k) {
    if (u < p[k]) return static_cast<int>(k);
    u -= p[k];
  }
  return static_cast<int>(p.size()) - 1;
}

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

Population powerLawGaussian(int64_t d, const std::vector<double>& sigma) {
  Population p;
  p.name = "gaussian-d" + std::to_string(d);
  p.tails = "light";
  p.shape = {d};
  std::vector<double> lambda;
  for (int64_t k = 1; k <= d; ++k) lambda.push_back(4.0 * std::pow(static_cast<double>(k), -1.5));
  p.draw = [lambda](Draws& r, float* x) {
    for (size_t k = 0; k < lambda.size(); ++k)
      x[k] = static_cast<float>(std::sqrt(lambda[k]) * r.normal());
  };
  p.mmse = wienerMmse(lambda, sigma);
  return p;
}

Population gaussianMixture(const std::vector<double>& sigma) {
  Population p;
  p.name = "mixture";
  p.tails = "light";
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
  for (double level : sigma) {
    const double v = s * s + level * level, shrink = s * s / v;
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
      double spread = d * shrink * level * level;  // within-component posterior variance
      for (int c = 0; c < k; ++c)
        for (int64_t j = 0; j < d; ++j)
          spread += logw[c] / z * (mu[c * d + j] - mean[j]) * (mu[c * d + j] - mean[j]);
      total += spread;
    }
    p.mmse.push_back(total / draws);
  }
  return p;
}

Population oneHotLetters(const std::vector<double>& sigma) {
  Population p;
  p.name = "letters";
  p.tails = "light";
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
  for (double level : sigma) {
    double total = 0.0;
    const int draws = 40000;
    for (int t = 0; t < draws; ++t) {
      const int a = mc.categorical(comp);
      double y[4], w[4], top = -1e300;
      for (int b = 0; b < 4; ++b) y[b] = (b == a ? 1.0 : -1.0) + level * mc.normal();
      for (int b = 0; b < 4; ++b) {
        w[b] = std::log(comp[b]) + 2.0 * y[b] / (level * level);  // y·e_b up to a constant
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

namespace {

// Student t density with ν degrees of freedom, up to its constant (the posterior needs no more).
double studentKernel(double x, double dof) {
  return std::pow(1.0 + x * x / dof, -0.5 * (dof + 1));
}

// A grid on the whole line, x = scale·tan θ with θ uniform in (−π/2, π/2), and its trapezoid
// weights: dense near 0, reaching the heavy tails with few points.
void tangentGrid(int points, double scale, std::vector<double>& x, std::vector<double>& w) {
  x.resize(static_cast<size_t>(points));
  w.resize(static_cast<size_t>(points));
  const double step = M_PI / (points + 1);
  for (int i = 0; i < points; ++i) {
    const double theta = -0.5 * M_PI + (i + 1) * step, t = std::tan(theta);
    x[static_cast<size_t>(i)] = scale * t;
    w[static_cast<size_t>(i)] = scale * (1.0 + t * t) * step;
  }
}

}  // namespace

double scalarStudentTMmse(double dof, double sigma) {
  // MMSE = ∫ p(y) Var(x | y) dy. Var(x | y) ≤ σ² at every y, so the heavy tails of p(y) cost
  // nothing, unlike E x² − E E[x|y]², where both terms are carried by the tails.
  std::vector<double> ys, yw, xs, xw;
  tangentGrid(3000, std::max(1.0, sigma), ys, yw);
  const bool local = sigma <= 0.5;  // posterior within ±12σ of y, where the prior is smooth
  if (!local) tangentGrid(12000, 1.0, xs, xw);
  double mass = 0.0, total = 0.0;
  for (size_t j = 0; j < ys.size(); ++j) {
    const double y = ys[j];
    if (local) {
      const int n = 1201;
      const double du = 24.0 / (n - 1);
      xs.resize(n);
      xw.resize(n);
      for (int i = 0; i < n; ++i) {
        xs[static_cast<size_t>(i)] = y + sigma * (-12.0 + i * du);
        xw[static_cast<size_t>(i)] = sigma * du * (i == 0 || i == n - 1 ? 0.5 : 1.0);
      }
    }
    double z = 0.0, m1 = 0.0, m2 = 0.0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const double d = (y - xs[i]) / sigma;
      const double f = xw[i] * studentKernel(xs[i], dof) * std::exp(-0.5 * d * d);
      z += f;
      m1 += f * xs[i];
      m2 += f * xs[i] * xs[i];
    }
    if (z <= 0.0) continue;
    const double mean = m1 / z, variance = std::max(0.0, m2 / z - mean * mean);
    // z is p(y) up to the prior's and the noise's constants, which `mass` divides out.
    mass += yw[j] * z;
    total += yw[j] * z * variance;
  }
  return total / mass;
}

Population studentT(int64_t d, double dof, const std::vector<double>& sigma) {
  Population p;
  char name[64];
  std::snprintf(name, sizeof name, "student-t%g-d%lld", dof, static_cast<long long>(d));
  p.name = name;
  p.tails = "heavy";
  p.shape = {d};
  p.draw = [d, dof](Draws& r, float* x) {
    // t = z / sqrt(χ²_ν / ν), with an integer ν as a sum of squared normals.
    const int nu = static_cast<int>(dof);
    for (int64_t j = 0; j < d; ++j) {
      double chi = 0.0;
      for (int k = 0; k < nu; ++k) {
        const double z = r.normal();
        chi += z * z;
      }
      x[j] = static_cast<float>(r.normal() / std::sqrt(chi / dof));
    }
  };
  for (double level : sigma)
    p.mmse.push_back(static_cast<double>(d) * scalarStudentTMmse(dof, level));
  return p;
}

namespace {

// I1(κ)/I0(κ): the mean resultant length of a von Mises posterior; its large-κ expansion where
// the Bessel functions would overflow.
double besselRatio(double kappa) {
  if (kappa < 1e-8) return 0.5 * kappa;
  if (kappa > 200.0) {
    const double k = 1.0 / kappa;
    return 1.0 - 0.5 * k - 0.125 * k * k - 0.125 * k * k * k;
  }
  return std::cyl_bessel_i(1.0, kappa) / std::cyl_bessel_i(0.0, kappa);
}

}  // namespace

Population circle(int64_t d, double radius, const std::vector<double>& sigma) {
  Population p;
  p.name = "circle-d" + std::to_string(d);
  p.tails = "light";
  p.shape = {d};
  // An orthonormal pair (u, v) in R^D, by Gram–Schmidt on two seeded normal vectors.
  Draws layout(123);
  std::vector<double> u(d), v(d);
  for (auto& x : u) x = layout.normal();
  for (auto& x : v) x = layout.normal();
  double nu = 0.0;
  for (double x : u) nu += x * x;
  for (auto& x : u) x /= std::sqrt(nu);
  double dot = 0.0;
  for (int64_t j = 0; j < d; ++j) dot += u[j] * v[j];
  double nv = 0.0;
  for (int64_t j = 0; j < d; ++j) nv += (v[j] -= dot * u[j]) * v[j];
  for (auto& x : v) x /= std::sqrt(nv);
  p.draw = [u, v, radius, d](Draws& r, float* x) {
    const double a = 2.0 * M_PI * r.uniform(), c = radius * std::cos(a), s = radius * std::sin(a);
    for (int64_t j = 0; j < d; ++j) x[j] = static_cast<float>(c * u[j] + s * v[j]);
  };
  // Only the noise in the plane informs the angle; by symmetry put the point at (r, 0).
  Draws mc(13);
  for (double level : sigma) {
    double total = 0.0;
    const int draws = 200000;
    for (int t = 0; t < draws; ++t) {
      const double a = radius + level * mc.normal(), b = level * mc.normal();
      const double rho = besselRatio(radius * std::hypot(a, b) / (level * level));
      total += 1.0 - rho * rho;
    }
    p.mmse.push_back(radius * radius * total / draws);
  }
  return p;
}

DiagnosticOptions coverageGrid() {
  DiagnosticOptions o;
  o.levels = 8;
  o.sigmaMin = 0.02;
  o.sigmaMax = 20.0;
  o.queries = 64;
  o.device = "cpu";
  return o;
}

double LevelCoverage::pooledRate() const {
  int all = 0;
  for (int c : covered) all += c;
  return static_cast<double>(all) / (seeds * static_cast<double>(covered.size()));
}

LevelCoverage boundCoverage(const Population& p, const DiagnosticOptions& grid, int64_t priorSize,
                            int64_t heldOutSize, int seeds, int firstSeed, bool withPlugin) {
  LevelCoverage c;
  c.population = p.name;
  c.priorSize = priorSize;
  c.heldOutSize = heldOutSize;
  c.seeds = seeds;
  c.sigma = logSigmaLevels(grid.levels, grid.sigmaMin, grid.sigmaMax);
  c.mmse = p.mmse;
  c.covered.assign(static_cast<size_t>(grid.levels), 0);
  c.declined.assign(static_cast<size_t>(grid.levels), 0);
  c.upperRatio.assign(static_cast<size_t>(grid.levels), {});
  c.meanRatio.assign(static_cast<size_t>(grid.levels), {});
  GaussianSpectrumOptions noBootstrap;
  noBootstrap.bootstrap = 0;  // the plug-in value with a zero-width interval
  for (int seed = firstSeed; seed < firstSeed + seeds; ++seed) {
    const Dataset prior = sample(p, priorSize, 1000 + seed, "prior");
    const Dataset heldOut = sample(p, heldOutSize, 5000 + seed, "held-out");
    DiagnosticOptions o = grid;
    o.seed = static_cast<uint64_t>(seed);
    const Bracket b = computeBracket(prior, heldOut, o);
    const MmseEstimate& bound = b.bound.primary();
    Profile plugin;
    if (withPlugin) plugin = computeGaussianProfile(prior, o, noBootstrap);
    // A level the bound declines (its points' tail heavier than the tail term covers) is a miss.
    std::vector<double> declined;
    if (b.bound.provenance.contains("upper95_not_covering"))
      declined = b.bound.provenance["upper95_not_covering"].get<std::vector<double>>();
    for (int l = 0; l < o.levels; ++l) {
      const size_t k = static_cast<size_t>(l);
      const bool named =
          std::find(declined.begin(), declined.end(), b.bound.sigma[k]) != declined.end();
      c.declined[k] += named;
      c.covered[k] += bound.upper95[k] >= p.mmse[k] && !named;
      c.upperRatio[k].push_back(bound.upper95[k] / p.mmse[k]);
      c.meanRatio[k].push_back(bound.mean[k] / p.mmse[k]);
      if (withPlugin) c.pluginCovered += plugin.primary().ciHigh[k] >= p.mmse[k];
    }
  }
  return c;
}

}  // namespace noisescope::known
