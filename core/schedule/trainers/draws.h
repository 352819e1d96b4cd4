#pragma once
// The pieces the trainers' families are made of: the densities of their draws per unit of their
// coordinate, the x0-space factor of each prediction's loss, the loss weightings they share, and
// the builders of a tool in each coordinate. Internal to core/schedule/trainers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "schedule/trainer_families.h"
#include "util/math_constants.h"

namespace noisescope::schedule::trainers {

using Params = std::vector<double>;

// A parameter value as the snippets print it.
inline std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

inline TrainerParameter param(std::string name, double initial, double lower, double upper,
                              bool logScale = false) {
  return {std::move(name), initial, lower, upper, logScale};
}

inline double normalPdf(double z) {
  return std::exp(-0.5 * z * z) / std::sqrt(2.0 * kPi);
}

// logit t ~ N(m, s²): the sigmoid of a normal draw.
inline double logitNormal(double t, double m, double s) {
  if (!(t > 0.0 && t < 1.0) || !(s > 0.0)) return 0.0;
  return normalPdf((std::log(t / (1.0 - t)) - m) / s) / (s * t * (1.0 - t));
}

// The static shift a on flow time: t ↦ a·t/(1 + (a − 1)·t), which multiplies σ by a, and its
// inverse (the shift by 1/a).
inline double shiftFlowTime(double t, double a) {
  return a * t / (1.0 + (a - 1.0) * t);
}
// Density at t of a draw whose unshifted density is `base`, after the shift a.
template <class Base>
double shiftedDensity(double t, double a, Base base) {
  if (!(t >= 0.0 && t <= 1.0) || !(a > 0.0)) return 0.0;
  const double d = a - (a - 1.0) * t;  // dt0/dt = a/d² at t0 = shift_{1/a}(t) = t/d
  return base(t / d) * a / (d * d);
}
// t = a·t0/(1 + (a − 1)·t0) with t0 uniform: σ multiplied by a.
inline double shiftedUniform(double t, double a) {
  return shiftedDensity(t, a, [](double) { return 1.0; });
}

inline double betaPdf(double t, double alpha, double beta) {
  if (!(t > 0.0 && t < 1.0) || !(alpha > 0.0 && beta > 0.0)) return 0.0;
  const double logB = std::lgamma(alpha) + std::lgamma(beta) - std::lgamma(alpha + beta);
  return std::exp((alpha - 1.0) * std::log(t) + (beta - 1.0) * std::log1p(-t) - logB);
}

// SD3's "mode" map g(u) = u + s·(cos²(πu/2) − 1 + u) of a uniform u; monotone for −1 < s < 1.75.
inline double modeMap(double u, double s) {
  const double c = std::cos(kPi * u / 2.0);
  return u + s * (c * c - 1.0 + u);
}
// g⁻¹(t) by bisection on [0, 1] (g(0) = 0, g(1) = 1).
inline double modeInverseBisection(double t, double s) {
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (modeMap(mid, s) < t ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}
inline double modeInverse(double t, double s) {
  return modeInverseBisection(t, s);
}
// The same, remembered per (t, s) and thread, for the table CDFs (modeDrawCdf): a fit asks for
// the same 1001 table points at every shift it tries with one mode_scale, and each bisection
// costs 60 cosines. (A density's points move with the shift, so it does not use this.)
double modeInverseAtTable(double t, double s);
// Density of g(U) at t: 1/g'(g⁻¹(t)).
inline double modeDensity(double t, double s) {
  if (!(t >= 0.0 && t <= 1.0)) return 0.0;
  const double u = modeInverse(t, s);
  const double slope = 1.0 + s * (1.0 - kPi / 2.0 * std::sin(kPi * u));
  return slope > 0.0 ? 1.0 / slope : 0.0;
}

inline double logNormalSigma(double sigma, double mean, double std) {
  if (!(sigma > 0.0) || !(std > 0.0)) return 0.0;
  return normalPdf((std::log(sigma) - mean) / std) / (std * sigma);
}

// EDM's λ(σ) = (σ² + σ_d²)/(σ·σ_d)² on x0 error (NVlabs/edm training/loss.py).
inline double edmWeight(double sigma, double sigmaData = 0.5) {
  const double d = sigmaData;
  return (sigma * sigma + d * d) / (sigma * d * sigma * d);
}

inline double flowT(double sigma) {
  return sigma / (1.0 + sigma);
}

// The x0-space factor of each prediction's squared error (THEORY §12): velocity (ε − x0)
// (1 + 1/σ)² = 1/t², ε 1/σ² = SNR, DDPM v 1 + SNR, x0 1.
inline double flowVelocityToX0(double sigma) {
  const double f = 1.0 + 1.0 / sigma;
  return f * f;
}
inline double epsilonToX0(double sigma) {
  return 1.0 / (sigma * sigma);
}
inline double vPredictionToX0(double sigma) {
  return 1.0 + 1.0 / (sigma * sigma);
}
inline double one(double) {
  return 1.0;
}
// A weight that reads no parameter.
template <class F>
auto fixedWeight(F f) {
  return [f](double sigma, const Params&) { return f(sigma); };
}
inline double noWeight(double, const Params&) {
  return 1.0;
}

// compute_loss_weighting_for_sd3 (diffusers' training_utils.py; sd-scripts and musubi-tuner carry
// the same function) at the flow time x its caller passes: cosmap 2/(π(1 − 2x + 2x²)),
// sigma_sqrt x⁻², every other scheme 1.
inline double cosmapWeight(double x) {
  return 2.0 / (kPi * (1.0 - 2.0 * x + 2.0 * x * x));
}
inline double sigmaSqrtWeight(double x) {
  return 1.0 / (x * x);
}
// The schemes that weigh the loss, "uniform" (ones) first, with their weight of x.
std::vector<std::pair<std::string, std::function<double(double)>>> sd3LossWeightings();

// The loss-space weight of SD 1.5/SDXL-style min-SNR-γ: min(SNR, γ)/SNR for ε, /(SNR + 1) for v;
// min(SNR, γ) in x0 space for both.
inline double minSnrWeight(double sigma, double gamma, bool vPrediction) {
  const double snr = 1.0 / (sigma * sigma);
  return std::min(snr, gamma) / (vPrediction ? snr + 1.0 : snr);
}

// The edges shift_a(j/n), j = 0 … n: an n-point table in flow time (a = 1: unshifted) or in the
// DDPM timestep fraction.
inline std::vector<double> tableEdges(int n, double a = 1.0) {
  std::vector<double> edges(n + 1);
  for (int j = 0; j <= n; ++j) edges[j] = shiftFlowTime(double(j) / n, a);
  return edges;
}

// P(u < x) for u = sigmoid(N(m, s²)), and for SD3's mode draw u = 1 − g(U) (diffusers'
// compute_density_for_timestep_sampling, copied by sd-scripts and musubi-tuner).
inline double logitNormalCdf(double x, double m, double s) {
  if (!(x > 0.0)) return 0.0;
  if (!(x < 1.0)) return 1.0;
  return 0.5 * std::erfc(-(std::log(x / (1.0 - x)) - m) / (s * std::sqrt(2.0)));
}
inline double modeDrawCdf(double x, double s) {
  if (!(x > 0.0)) return 0.0;
  if (!(x < 1.0)) return 1.0;
  return 1.0 - modeInverseAtTable(1.0 - x, s);  // g is increasing: 1 − g(U) < x ⇔ U > g⁻¹(1 − x)
}

// A draw u ∈ [0, 1) indexed as j = ⌊1000·u⌋ into a descending 1000-entry flow table t_j =
// shift_a((1000 − j)/1000) (diffusers' FlowMatchEulerDiscreteScheduler with shift a, the training
// sigmas sd-scripts' and musubi-tuner's `sigma` modes index): the (t_j, P(j)) it trains, P(j) =
// cdf((j + 1)/1000) − cdf(j/1000) from u's CDF.
inline std::vector<std::pair<double, double>> descendingTableAtoms(
    const std::function<double(double)>& cdf, double a = 1.0) {
  std::vector<std::pair<double, double>> atoms;
  atoms.reserve(1000);
  double below = cdf(0.0);
  for (int j = 0; j < 1000; ++j) {
    const double next = cdf((j + 1) / 1000.0);
    atoms.emplace_back(shiftFlowTime((1000.0 - j) / 1000.0, a), std::max(next - below, 0.0));
    below = next;
  }
  return atoms;
}

// A tool drawing flow time t, its loss the velocity unless a model says otherwise.
TrainerTool flowTool(std::string name, std::string knob);
// A tool drawing an integer DDPM timestep of SD's scaled-linear table, ε or v prediction.
TrainerTool ddpmTool(std::string name, std::string knob, bool vPrediction);
// A tool drawing σ itself, its loss EDM's preconditioned x0 loss.
TrainerTool sigmaTool(std::string name, std::string knob);

// A weighting one of a tool's options applies to whatever it draws, with at most one parameter.
struct LossWeighting {
  std::string name;  // the tool's own value, e.g. "min_snr_gamma", "MIN_SNR_GAMMA", "cosmap"
  std::vector<TrainerParameter> parameters;  // none or one (γ)
  double fixedValue = 0.0;  // the tool's default for the parameter, when it cannot be fitted
  std::function<double(double sigma, double parameter)> weight;
  std::function<std::string(double parameter)> snippet;  // the option's own lines
  std::string joiner = "\n";  // between the draw's lines and these (",\n" in a JSON config)
  // Whether it multiplies the draw of this name: a tool whose option is a draw in one mode and a
  // weight in the others (musubi-tuner's --weighting_scheme) leaves that mode out. Empty: every
  // draw with the tool's base weighting.
  std::function<bool(const std::string& draw)> combines = {};
};
// The family `draw` trained with `weighting`: its parameter is fitted when the draw has at most
// one, else held at the tool's default (said in the note).
TrainerFamily withWeighting(const TrainerFamily& draw, const LossWeighting& weighting);

}  // namespace noisescope::schedule::trainers
