// The effective allocation φ each (tool, model, family) trains, checked against the tool's own
// code: draws made by a few-line transcription of the tool's draw (file and function named per
// case), each weighted by the tool's loss weight times its prediction's x0 factor, histogrammed on
// 16 coarse log-σ bins and compared with the φ `fit` reports for the same knobs (TV within 0.03).
#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <tuple>

#include "ai_toolkit_lognorm_blend.h"
#include "schedule/trainer_fit.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kDraws = 400000;
constexpr int kCoarseBins = 16;
const double kLow = std::log(0.002), kHigh = std::log(80.0);

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// SD's scaled-linear table: σ_k and SNR_k = 1/σ_k² (diffusers DDPMScheduler, beta_schedule
// "scaled_linear", 0.00085 … 0.012, 1000 steps).
double ddpmSigma2(int k) {
  static const std::vector<double> table = [] {
    std::vector<double> t;
    double alphaBar = 1.0;
    for (int i = 0; i < 1000; ++i) {
      const double r = std::sqrt(0.00085) + (std::sqrt(0.012) - std::sqrt(0.00085)) * i / 999.0;
      alphaBar *= 1.0 - r * r;
      t.push_back((1.0 - alphaBar) / alphaBar);
    }
    return t;
  }();
  return table[std::clamp(k, 0, 999)];
}

double shift(double t, double a) {
  return a * t / (1.0 + (a - 1.0) * t);
}
// training_utils.py compute_density_for_timestep_sampling, "mode".
double modeDraw(double u, double s) {
  return 1.0 - u - s * (std::pow(std::cos(kPi * u / 2.0), 2.0) - 1.0 + u);
}

// Φ⁻¹(u) by bisection on erfc: the normal quantile a draw swept through u takes (musubi-tuner's
// uniform_to_normal_ppF does the same for its bucketed timesteps).
double probit(double u) {
  double lo = -9.0, hi = 9.0;
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < u ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// One weighted draw: σ and the weight on x0-space error the tool's loss gives it.
struct Draw {
  double sigma, weight;
};
Draw flowDraw(double t, double x0Weight) {
  return {t / (1.0 - t), x0Weight};
}

// k_diffusion/utils.py rand_cosine_interpolated: σ at the uniform draw u.
double cosineInterpolatedSigma(double u, double imageD, double noiseDLow, double noiseDHigh,
                               double sigmaData, double minValue, double maxValue) {
  auto cosine = [](double t, double logsnrMin, double logsnrMax) {
    const double tMin = std::atan(std::exp(-0.5 * logsnrMax));
    const double tMax = std::atan(std::exp(-0.5 * logsnrMin));
    return -2.0 * std::log(std::tan(tMin + t * (tMax - tMin)));
  };
  auto shifted = [&](double t, double noiseD, double logsnrMin, double logsnrMax) {
    const double shift = 2.0 * std::log(noiseD / imageD);
    return cosine(t, logsnrMin - shift, logsnrMax - shift) + shift;
  };
  const double logsnrMin = -2.0 * std::log(maxValue / sigmaData);
  const double logsnrMax = -2.0 * std::log(minValue / sigmaData);
  const double low = shifted(u, noiseDLow, logsnrMin, logsnrMax);
  const double high = shifted(u, noiseDHigh, logsnrMin, logsnrMax);
  return std::exp(-(low + (high - low) * u) / 2.0) * sigmaData;
}

// k_diffusion/layers.py Denoiser.loss: c_weight on (F − target)², target error = x0 error/c_out.
double kDiffusionX0Weight(const std::string& weighting, double sigma, double sigmaData) {
  const double s2 = sigma * sigma, d2 = sigmaData * sigmaData;
  const double cOut2 = s2 * d2 / (s2 + d2);
  double cWeight = 1.0;  // karras
  if (weighting == "soft-min-snr") cWeight = s2 * d2 / ((s2 + d2) * (s2 + d2));
  if (weighting == "snr") cWeight = d2 / (s2 + d2);
  return cWeight / cOut2;
}

// ModelSetupNoiseMixin._get_timestep_discrete's weight tables: weight g(x′)·dx′ at each of 1000
// indices, x = linspace(0, 1, 1000), x′ = x/(a − a·x + x), dx′ = a/(a + x − x·a)²; an index is
// drawn by torch.multinomial over these weights.
std::discrete_distribution<int> oneTrainerTable(double a, const std::function<double(double)>& g) {
  std::vector<double> weights(1000);
  for (int i = 0; i < 1000; ++i) {
    const double x = i / 999.0, inverse = x / (a - a * x + x);
    weights[i] = g(inverse) * a / std::pow(a + x - x * a, 2.0);
  }
  return std::discrete_distribution<int>(weights.begin(), weights.end());
}

// helpers/training/timestep_distribution.py CubicSplineDistribution.sample: the PCHIP pdf on a
// 4097-point grid, its trapezoid CDF, and inverse-CDF sampling with linear interpolation.
std::function<double(std::mt19937_64&)> cubicSplineSampler(const std::vector<double>& v) {
  const int k = static_cast<int>(v.size()), n = 4097;
  const double h = 1.0 / (k - 1);
  std::vector<double> d(k - 1), m(k, 0.0);
  for (int i = 0; i + 1 < k; ++i) d[i] = (v[i + 1] - v[i]) / h;
  for (int i = 1; i + 1 < k; ++i)
    if (d[i - 1] * d[i] > 0) m[i] = 2 * d[i - 1] * d[i] / (d[i - 1] + d[i]);
  auto sign = [](double x) { return (x > 0) - (x < 0); };
  auto end = [&](double d0, double d1) {
    double e = (3 * d0 - d1) / 2;
    if (sign(e) != sign(d0))
      e = 0;
    else if (sign(d0) != sign(d1) && std::abs(e) > 3 * std::abs(d0))
      e = 3 * d0;
    return e;
  };
  m[0] = end(d[0], d[1]);
  m[k - 1] = end(d[k - 2], d[k - 3]);
  std::vector<double> x(n), cdf(n, 0.0);
  for (int i = 0; i < n; ++i) {
    const double pos = double(i) / (n - 1) * (k - 1);
    const int j = std::min(static_cast<int>(pos), k - 2);
    const double u = pos - j;
    const double pdf = (2 * u * u * u - 3 * u * u + 1) * v[j] +
                       (u * u * u - 2 * u * u + u) * h * m[j] +
                       (-2 * u * u * u + 3 * u * u) * v[j + 1] + (u * u * u - u * u) * h * m[j + 1];
    x[i] = std::max(pdf, 0.0);
  }
  for (int i = 1; i < n; ++i) cdf[i] = cdf[i - 1] + 0.5 * (x[i - 1] + x[i]);
  for (auto& c : cdf) c /= cdf.back();
  return [cdf](std::mt19937_64& g) {
    const double u = std::uniform_real_distribution<double>(0.0, 1.0)(g);
    const int i =
        std::clamp(static_cast<int>(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin()), 1,
                   static_cast<int>(cdf.size()) - 1);
    const double f = (u - cdf[i - 1]) / std::max(cdf[i] - cdf[i - 1], 1e-300);
    return (i - 1 + f) / (cdf.size() - 1.0);
  };
}

// toolkit/timestep_weighing/default_weighing_scheme.py, every 25th entry and the last (the
// figures core/schedule/trainers/ai_toolkit.cpp uses), linear between.
double aiToolkitWeighing(int index) {
  static const std::vector<double> knots = {
      0.906, 1.220, 1.375, 1.471, 1.507, 1.522, 1.507, 1.481, 1.441, 1.400, 1.355,
      1.309, 1.264, 1.218, 1.172, 1.126, 1.083, 1.041, 1.000, 0.962, 0.925, 0.891,
      0.860, 0.831, 0.805, 0.782, 0.762, 0.745, 0.731, 0.721, 0.715, 0.714, 0.716,
      0.721, 0.729, 0.732, 0.716, 0.666, 0.582, 0.493, 0.447};
  const int j = std::min(index / 25, 39);
  const double right = j == 39 ? 999.0 : 25.0 * (j + 1);
  return knots[j] + (knots[j + 1] - knots[j]) * (index - 25.0 * j) / (right - 25.0 * j);
}

struct Case {
  std::string tool, model, weighting, family;
  std::vector<double> params;
  std::function<Draw(std::mt19937_64&)> draw;
  std::vector<std::pair<double, double>> modelError = {};  // TrainerSettings::modelError
  // OneTrainer's min_noising_strength / max_noising_strength
  std::pair<double, double> noisingStrength = {0.0, 1.0};
  // musubi-tuner's --min_timestep / --max_timestep / --preserve_distribution_shape, held
  std::pair<int, int> timestepWindow = {0, 1000};
  bool preserveDistributionShape = false;
};

std::vector<Case> cases() {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  auto randint = [](std::mt19937_64& g, int lo, int hi) {  // torch.randint(lo, hi)
    return std::uniform_int_distribution<int>(lo, hi - 1)(g);
  };
  std::vector<Case> c;

  // diffusers SD3 (examples/dreambooth/train_dreambooth_lora_sd3.py, main's loop): idx =
  // (u·1000).long() into the scheduler's sigmas, linspace(1, 1000)[::-1]/1000 shifted by 3;
  // --precondition_outputs 1: x0 loss, times compute_loss_weighting_for_sd3.
  auto sd3Table = [](double u) {
    const int idx = std::min(static_cast<int>(u * 1000.0), 999);
    return shift((1000.0 - idx) / 1000.0, 3.0);
  };
  c.push_back({"diffusers", "sd3", "", "logit_normal", {0.3, 1.1}, [=](auto& g) mutable {
                 return flowDraw(sd3Table(sigmoid(0.3 + 1.1 * normal(g))), 1.0);
               }});
  c.push_back({"diffusers", "sd3", "", "mode", {0.8}, [=](auto& g) mutable {
                 return flowDraw(sd3Table(modeDraw(uniform(g), 0.8)), 1.0);
               }});
  c.push_back({"diffusers", "sd3", "", "cosmap", {}, [=](auto& g) mutable {
                 const double t = sd3Table(uniform(g));
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)));
               }});
  c.push_back({"diffusers", "sd3", "", "sigma_sqrt", {}, [=](auto& g) mutable {
                 const double t = sd3Table(uniform(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // diffusers HiDream (train_dreambooth_lora_hidream.py, main's loop: the scheduler loaded with
  // shift=3.0) and Z-Image (train_dreambooth_lora_z_image.py: the checkpoint's static shift 3):
  // the same index into the shifted table, velocity target noise − x0 against the negated output.
  c.push_back({"diffusers", "hidream", "", "logit_normal", {0.3, 1.0}, [=](auto& g) mutable {
                 const double t = sd3Table(sigmoid(0.3 + 1.0 * normal(g)));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"diffusers", "zimage", "", "mode", {1.29}, [=](auto& g) mutable {
                 const double t = sd3Table(modeDraw(uniform(g), 1.29));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // diffusers Sana (train_dreambooth_lora_sana.py, main's loop): the same index into
  // FlowMatchEulerDiscreteScheduler's table, loaded from a DPMSolverMultistepScheduler config
  // whose flow_shift it drops, so unshifted: t = 1 − ⌊1000·u⌋/1000; velocity target noise − x0.
  c.push_back({"diffusers", "sana", "", "logit_normal", {-0.4, 0.9}, [=](auto& g) mutable {
                 const double u = sigmoid(-0.4 + 0.9 * normal(g));
                 const double t = (1000.0 - std::min(static_cast<int>(u * 1000.0), 999)) / 1000.0;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // diffusers Lumina 2 (train_dreambooth_lora_lumina2.py, main's loop): the same index into the
  // checkpoint's table shifted by 6, but the input is (1 − σ)·noise + σ·x0 against x0 − noise,
  // so the noise fraction is 1 − σ; sigma_sqrt weights by σ⁻² of the table. (sigma_sqrt sweeps
  // the 1000 indices, each with probability 1/1000: at random the weights at both ends of the
  // table leave too few effective draws.)
  auto luminaTable = [](int j) { return 1.0 - shift((1000.0 - j) / 1000.0, 6.0); };
  c.push_back({"diffusers", "lumina2", "", "logit_normal", {0.5, 1.0}, [=](auto& g) mutable {
                 const double u = sigmoid(0.5 + 1.0 * normal(g));
                 const double t = luminaTable(std::min(static_cast<int>(u * 1000.0), 999));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"diffusers", "lumina2", "sigma_sqrt", "sigma_sqrt", {}, [=, n = 0](auto&) mutable {
                 const int j = n++ % 1000;
                 const double t = luminaTable(j), tableSigma = 1.0 - t;
                 return flowDraw(t, 1.0 / (tableSigma * tableSigma) / (t * t));
               }});
  // diffusers Ideogram 4 (train_dreambooth_lora_ideogram4.py, main's loop): the value of
  // compute_density_for_timestep_sampling is the noise fraction t itself, the logit mean moved by
  // _resolution_aware_mu = 0.5·ln(pixels/512²) (ln 2 at 1024×1024), target model_input − noise (x0
  // factor 1/t²). Swept through the draw's quantiles rather than drawn: a continuous t near 0
  // carries weights up to 10¹⁰ under t⁻⁴ and a few random draws there would decide the histogram.
  const double ideogramMu = std::log(2.0);
  c.push_back({"diffusers", "ideogram4", "", "logit_normal", {0.3, 1.5}, [=, n = 0](auto&) mutable {
                 const double t =
                     sigmoid(0.3 + ideogramMu + 1.5 * probit((n++ % kDraws + 0.5) / kDraws));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"diffusers", "ideogram4", "", "mode", {0.9}, [=, n = 0](auto&) mutable {
                 const double t = modeDraw((n++ % kDraws + 0.5) / kDraws, 0.9);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"diffusers", "ideogram4", "sigma_sqrt", "sigma_sqrt", {}, [=, n = 0](auto&) mutable {
                 const double t = (n++ % kDraws + 0.5) / kDraws;
                 return flowDraw(t, 1.0 / (t * t) / (t * t));
               }});
  // diffusers Flux (train_dreambooth_lora_flux.py): the same indexing into an unshifted table,
  // velocity target noise − x0 (x0 factor 1/t²).
  auto fluxTable = [](double u) {
    return (1000.0 - std::min(static_cast<int>(u * 1000.0), 999)) / 1000.0;
  };
  c.push_back({"diffusers", "flux", "", "none", {}, [=](auto& g) mutable {
                 const double t = fluxTable(uniform(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"diffusers", "flux", "", "logit_normal", {-0.5, 0.8}, [=](auto& g) mutable {
                 const double t = fluxTable(sigmoid(-0.5 + 0.8 * normal(g)));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // diffusers SD 1.x/SDXL (examples/text_to_image/train_text_to_image.py, main's loop): k =
  // randint(0, 1000); --snr_gamma: min(SNR, γ)/SNR for ε, /(SNR + 1) for v; the ε loss's x0
  // factor is SNR, v's SNR + 1.
  c.push_back({"diffusers", "sd15", "", "uniform", {}, [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000));
                 return Draw{std::sqrt(s2), 1.0 / s2};
               }});
  c.push_back({"diffusers", "sdxl", "snr_gamma", "uniform + snr_gamma", {3.0}, [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), std::min(snr, 3.0) / snr * snr};
               }});
  c.push_back({"diffusers", "sd2-v", "snr_gamma", "uniform + snr_gamma", {5.0}, [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), std::min(snr, 5.0) / (snr + 1.0) * (snr + 1.0)};
               }});

  // diffusers SDXL --timestep_bias_strategy (examples/text_to_image/train_text_to_image_sdxl.py
  // generate_timestep_weights, then torch.multinomial over its weights in main's loop); ε loss.
  auto biasWeights = [](const std::string& strategy, double multiplier, double portion, int begin,
                        int end) {
    std::vector<double> weights(1000, 1.0);
    const int n = static_cast<int>(portion * 1000);
    if (strategy == "later") begin = n == 0 ? 0 : 1000 - n, end = 1000;  // slice(-n, None)
    if (strategy == "earlier") begin = 0, end = n;                       // slice(0, n)
    for (int k = begin; k < end; ++k) weights[k] *= multiplier;
    return std::discrete_distribution<int>(weights.begin(), weights.end());
  };
  c.push_back({"diffusers",
               "sdxl",
               "",
               "later",
               {4.0, 0.3},
               [table = biasWeights("later", 4.0, 0.3, 0, 0)](auto& g) mutable {
                 const double s2 = ddpmSigma2(table(g));
                 return Draw{std::sqrt(s2), 1.0 / s2};
               }});
  c.push_back({"diffusers",
               "sdxl",
               "",
               "earlier",
               {0.2, 0.5},
               [table = biasWeights("earlier", 0.2, 0.5, 0, 0)](auto& g) mutable {
                 const double s2 = ddpmSigma2(table(g));
                 return Draw{std::sqrt(s2), 1.0 / s2};
               }});
  c.push_back({"diffusers",
               "sdxl",
               "",
               "range",
               {6.0, 150, 480},
               [table = biasWeights("range", 6.0, 0.0, 150, 480)](auto& g) mutable {
                 const double s2 = ddpmSigma2(table(g));
                 return Draw{std::sqrt(s2), 1.0 / s2};
               }});
  c.push_back({"diffusers",
               "sdxl",
               "snr_gamma",
               "later + snr_gamma",
               {8.0, 0.6},
               [table = biasWeights("later", 8.0, 0.6, 0, 0)](auto& g) mutable {
                 const double s2 = ddpmSigma2(table(g)), snr = 1.0 / s2;  // γ at its default 5
                 return Draw{std::sqrt(s2), std::min(snr, 5.0) / snr * snr};
               }});

  // musubi-tuner (src/musubi_tuner/training/trainer_base.py get_noisy_model_input_and_timesteps):
  // logsnr, t = sigmoid(−logsnr/2); qwen_shift, μ = lin((256, 0.5), (8192, 0.9)) of
  // (h//2)(w//2) with h = w = 1024/8; velocity loss.
  c.push_back({"musubi-tuner", "flux", "", "logsnr", {-1.0, 1.2}, [=](auto& g) mutable {
                 const double t = sigmoid(-(-1.0 + 1.2 * normal(g)) / 2.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"musubi-tuner", "flux", "", "qwen_shift", {1.3}, [=](auto& g) mutable {
                 const double mu = 0.5 + (0.9 - 0.5) / (8192.0 - 256.0) * (64.0 * 64.0 - 256.0);
                 const double t = shift(sigmoid(1.3 * normal(g)), std::exp(mu));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // krea2_shift (same function): μ = lin((256, 0.5), (6400, 1.15)) of (h//2)(w//2), h = w = 128.
  c.push_back({"musubi-tuner", "flux", "", "krea2_shift", {0.8}, [=](auto& g) mutable {
                 const double mu = 0.5 + (1.15 - 0.5) / (6400.0 - 256.0) * (64.0 * 64.0 - 256.0);
                 const double t = shift(sigmoid(0.8 * normal(g)), std::exp(mu));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // ideogram4_shift (training/timesteps.py compute_ideogram4_shift_timestep, fed by trainer_base's
  // rand): t = sigmoid(½ ln(pixels/512²) + 1.5·Φ⁻¹(u)), the pixels of a 64 × 64 grid of 16-pixel
  // tokens, clamped to [1 − sigmoid(7.5), 1 − sigmoid(−9)]. The function takes the uniform u, as
  // musubi's bucketed timesteps pass it; here u runs through (i + ½)/N instead of at random,
  // because under 1/t² the weights of a 1.5-wide logit-normal leave a random sum with ~50
  // effective draws.
  c.push_back({"musubi-tuner", "flux", "", "ideogram4_shift", {}, [n = 0](auto&) mutable {
                 const double u = (n++ % kDraws + 0.5) / kDraws;
                 const double mean = 0.5 * std::log(1024.0 * 1024.0 / (512.0 * 512.0));
                 const double t = std::clamp(sigmoid(mean + 1.5 * probit(u)), 1.0 - sigmoid(7.5),
                                             1.0 - sigmoid(-9.0));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // qinglong_flux / qinglong_qwen (same function): a uniform decision per sample: below 0.79
  // (Qwen: 0.95) the resolution-shifted sigmoid draw, 0.79 … 0.9 logsnr N(logit_mean, logit_std)
  // (Flux only), else logsnr N(5.36, 1); t = sigmoid(−logsnr/2).
  c.push_back({"musubi-tuner", "flux", "", "qinglong_flux", {0.8, -1.0, 1.2}, [=](auto& g) mutable {
                 const double decision = uniform(g), z = normal(g);
                 const double mu = 0.5 + (1.15 - 0.5) / (4096.0 - 256.0) * (64.0 * 64.0 - 256.0);
                 const double t = decision < 0.79  ? shift(sigmoid(0.8 * z), std::exp(mu))
                                  : decision < 0.9 ? sigmoid(-(-1.0 + 1.2 * z) / 2.0)
                                                   : sigmoid(-(5.36 + z) / 2.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"musubi-tuner", "flux", "", "qinglong_qwen", {0.8}, [=](auto& g) mutable {
                 const double decision = uniform(g), z = normal(g);
                 const double mu = 0.5 + (0.9 - 0.5) / (8192.0 - 256.0) * (64.0 * 64.0 - 256.0);
                 const double t = decision < 0.95 ? shift(sigmoid(0.8 * z), std::exp(mu))
                                                  : sigmoid(-(5.36 + z) / 2.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // musubi-tuner's default mode, sigma (same function, its last branch): u from
  // training/timesteps.py compute_density_for_timestep_sampling (weighting_scheme: logit_normal,
  // mode, else uniform), indices = (u·1000).long() into
  // modules/scheduling_flow_match_discrete.py FlowMatchDiscreteScheduler's timesteps, whose
  // sigmas linspace(1, 0, 1001) the constructor leaves unshifted, so t = 1 − j/1000; the loss
  // (NetworkTrainer's loss hook) is the velocity MSE times compute_loss_weighting_for_sd3
  // (cosmap, sigma_sqrt; none for the others).
  auto musubiTable = [](double u) {
    return 1.0 - std::min(static_cast<int>(u * 1000.0), 999) / 1000.0;
  };
  c.push_back(
      {"musubi-tuner", "flux", "", "sigma + logit_normal", {-0.5, 1.0}, [=](auto& g) mutable {
         const double t = musubiTable(sigmoid(-0.5 + 1.0 * normal(g)));
         return flowDraw(t, 1.0 / (t * t));
       }});
  c.push_back({"musubi-tuner", "flux", "", "sigma + mode", {1.29}, [=](auto& g) mutable {
                 const double t = musubiTable(modeDraw(uniform(g), 1.29));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"musubi-tuner", "flux", "cosmap", "sigma + cosmap", {}, [=](auto& g) mutable {
                 const double t = musubiTable(uniform(g));
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)) / (t * t));
               }});
  c.push_back({"musubi-tuner", "flux", "", "sigma", {}, [=](auto& g) mutable {
                 const double t = musubiTable(uniform(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // --min_timestep / --max_timestep (same function, after compute_sampling_timesteps): t_min,
  // t_max = min/1000, max/1000; without --preserve_distribution_shape t·(t_max − t_min) + t_min,
  // with it the draws outside [t_min, t_max] are thrown away and drawn again; in the sigma branch
  // indices = (u·(max − min) + min).long(). Wan 2.2's experts: 875 … 1000 and 0 … 875.
  c.push_back(
      {"musubi-tuner", "flux", "", "shift + window", {1.0, 5.0, 875, 1000}, [=](auto& g) mutable {
         const double t = shift(sigmoid(normal(g)), 5.0) * (1.0 - 0.875) + 0.875;
         return flowDraw(t, 1.0 / (t * t));
       }});
  c.push_back({"musubi-tuner",
               "flux",
               "",
               "shift + window, preserve_distribution_shape",
               {0.9, 3.0, 0, 875},
               [=](auto& g) mutable {
                 double t = 1.0;
                 while (!(t >= 0.0 && t <= 0.875)) t = shift(sigmoid(0.9 * normal(g)), 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"musubi-tuner", "flux", "", "sigma + window", {0, 875}, [=](auto& g) mutable {
                 const int j = static_cast<int>(uniform(g) * (875.0 - 0.0) + 0.0);
                 const double t = 1.0 - j / 1000.0;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // Wan 2.2's two experts trained together (wan_train_network.py
  // get_noisy_model_input_and_timesteps with --dit_high_noise): a step's first draw picks the
  // expert (t·1000 + 1 ≥ 1000·boundary is the high-noise one) and every sample of the batch is
  // redrawn until it falls on that side. Over the steps, all samples together follow the mode's own
  // draw: the same family, no window (here shift, boundary 875, batches of 4 replayed in order).
  c.push_back({"musubi-tuner",
               "flux",
               "",
               "shift",
               {1.0, 5.0},
               [=, batch = std::vector<double>(), next = std::size_t{0}](auto& g) mutable {
                 auto draw = [&] { return shift(sigmoid(normal(g)), 5.0); };
                 if (next == batch.size()) {
                   const bool high = draw() * 1000.0 + 1.0 >= 875.0;
                   batch.clear();
                   while (batch.size() < 4) {
                     const double t = draw();
                     if ((t * 1000.0 + 1.0 >= 875.0) == high) batch.push_back(t);
                   }
                   next = 0;
                 }
                 const double t = batch[next++];
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // The same window held (fit --timestep-window, or read from a file by fit --current) on the
  // other modes: sigmoid squeezed into [0.1, 0.9]; logsnr (t = sigmoid(−logsnr/2), logsnr ~
  // N(m, s²)) redrawn until inside [0, 0.7] (a narrow logsnr: under 1/t² a wide one leaves
  // too few effective draws); qwen_shift under cosmap squeezed into [0.875, 1];
  // the sigma mode's logit_normal u indexed as ⌊u·(900 − 100) + 100⌋.
  {
    Case held{"musubi-tuner", "flux", "", "sigmoid", {1.3}, [=](auto& g) mutable {
                const double t = sigmoid(1.3 * normal(g)) * (0.9 - 0.1) + 0.1;
                return flowDraw(t, 1.0 / (t * t));
              }};
    held.timestepWindow = {100, 900};
    c.push_back(held);
    Case kept{"musubi-tuner", "flux", "", "logsnr", {-1.0, 1.2}, [=](auto& g) mutable {
                double t = 1.0;
                while (!(t >= 0.0 && t <= 0.7)) t = sigmoid(-(-1.0 + 1.2 * normal(g)) / 2.0);
                return flowDraw(t, 1.0 / (t * t));
              }};
    kept.timestepWindow = {0, 700};
    kept.preserveDistributionShape = true;
    c.push_back(kept);
    const double qwenMu = 0.5 + (0.9 - 0.5) / (8192.0 - 256.0) * (64.0 * 64.0 - 256.0);
    Case high{"musubi-tuner", "flux", "cosmap", "qwen_shift + cosmap", {1.0}, [=](auto& g) mutable {
                const double x = sigmoid(normal(g)), e = std::exp(qwenMu);
                const double t = e / (e + (1.0 / x - 1.0)) * (1.0 - 0.875) + 0.875;
                // compute_loss_weighting_for_sd3 at the table's nearest timestep t·1000 + 1
                const double k = std::clamp(std::round(1000.0 * t + 1.0), 1.0, 1000.0) / 1000.0;
                return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * k + 2.0 * k * k)) / (t * t));
              }};
    high.timestepWindow = {875, 1000};
    c.push_back(high);
    Case sigma{
        "musubi-tuner", "flux", "", "sigma + logit_normal", {0.4, 1.2}, [=](auto& g) mutable {
          const double u = sigmoid(0.4 + 1.2 * normal(g));
          const int j = static_cast<int>(u * (900.0 - 100.0) + 100.0);
          const double t = 1.0 - j / 1000.0;
          return flowDraw(t, 1.0 / (t * t));
        }};
    sigma.timestepWindow = {100, 900};
    c.push_back(sigma);
  }
  // The shared Flux-style modes (same function, its first branch): shift t = shift_a(sigmoid(s·z))
  // with a = --discrete_flow_shift; sigmoid; flux_shift, μ = lin((256, 0.5), (4096, 1.15)) of
  // (h//2)(w//2), h = w = 1024/8; flux2_shift, the same line of h·w, the packed Flux.2 latent h =
  // w = 1024/16 (flux_2_train_network.py); uniform t = rand. Velocity loss (target noise − x0).
  c.push_back({"musubi-tuner", "flux", "", "shift", {0.9, 3.0}, [=](auto& g) mutable {
                 const double t = shift(sigmoid(0.9 * normal(g)), 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"musubi-tuner", "flux", "", "sigmoid", {1.2}, [=](auto& g) mutable {
                 const double t = sigmoid(1.2 * normal(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  auto musubiMu = [](double tokens) {
    return 0.5 + (1.15 - 0.5) / (4096.0 - 256.0) * (tokens - 256.0);
  };
  c.push_back({"musubi-tuner", "flux", "", "flux_shift", {1.0}, [=](auto& g) mutable {
                 const double mu = musubiMu((128 / 2) * (128 / 2));
                 const double t = shift(sigmoid(1.0 * normal(g)), std::exp(mu));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"musubi-tuner", "flux", "", "flux2_shift", {0.8}, [=](auto& g) mutable {
                 const double mu = musubiMu(64 * 64);
                 const double t = shift(sigmoid(0.8 * normal(g)), std::exp(mu));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // uniform swept through u: under 1/t² a random draw leaves too few effective draws near t = 0.
  c.push_back({"musubi-tuner", "flux", "", "uniform", {}, [n = 0](auto&) mutable {
                 const double t = (n++ % kDraws + 0.5) / kDraws;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // sigma + sigma_sqrt: the 1000 table entries swept (probability 1/1000 each), the loss times
  // compute_loss_weighting_for_sd3's sigmas⁻² of the entry.
  c.push_back(
      {"musubi-tuner", "flux", "sigma_sqrt", "sigma + sigma_sqrt", {}, [n = 0](auto&) mutable {
         const double t = 1.0 - (n++ % 1000) / 1000.0;
         return flowDraw(t, 1.0 / (t * t) / (t * t));
       }});
  // --weighting_scheme in another mode (NetworkTrainer.compute_loss → training/timesteps.py
  // compute_loss_weighting_for_sd3 → get_sigmas): timesteps t·1000 + 1 are not in the table
  // (1000 … 1), so the nearest entry k is taken, sigma k/1000. shift: z swept over [−9, 9], each
  // point weighted by its normal density (under t⁻²·t⁻² φ peaks near z = −4, where a random or
  // quantile-swept draw has almost no points); logsnr at random.
  auto nearestTableT = [](double t) {
    return std::clamp(std::round(t * 1000.0 + 1.0), 1.0, 1000.0) / 1000.0;
  };
  c.push_back({"musubi-tuner",
               "flux",
               "sigma_sqrt",
               "shift + sigma_sqrt",
               {1.0, 3.0},
               [=, n = 0](auto&) mutable {
                 const double z = -9.0 + 18.0 * (n++ % kDraws + 0.5) / kDraws;
                 const double t = shift(sigmoid(z), 3.0), k = nearestTableT(t);
                 return flowDraw(t, std::exp(-0.5 * z * z) / (k * k) / (t * t));
               }});
  c.push_back(
      {"musubi-tuner", "flux", "cosmap", "logsnr + cosmap", {-1.0, 1.2}, [=](auto& g) mutable {
         const double t = sigmoid(-(-1.0 + 1.2 * normal(g)) / 2.0), k = nearestTableT(t);
         return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * k + 2.0 * k * k)) / (t * t));
       }});
  // SimpleTuner flow_cubic_schedule_weights (common.py sample_flow_sigmas: the cubic draw, then
  // apply_flow_schedule_shift, off with shift 0 and auto shift false); velocity loss.
  // (Zero below t = 1/16: near t = 0 the velocity loss's weight 1/t² would give the weighted Monte
  // Carlo sum an unbounded variance.)
  std::vector<double> knots;
  for (int j = 0; j < 33; ++j)
    knots.push_back(j < 3 ? 0.0 : std::exp(-std::pow((j / 32.0 - 0.4) / 0.15, 2.0)));
  // flux_fast_schedule (common.py sample_flow_sigmas, its last branch): random.choices over
  // [1.0]·7 + [0.75, 0.5, 0.25], no shift; velocity loss. t = 1 is σ = ∞, off the grid.
  c.push_back({"simpletuner", "flux", "", "flux_fast_schedule", {}, [=](auto& g) mutable {
                 static const double list[10] = {1, 1, 1, 1, 1, 1, 1, 0.75, 0.5, 0.25};
                 const double t = list[std::uniform_int_distribution<int>(0, 9)(g)];
                 return t < 1.0 ? flowDraw(t, 1.0 / (t * t)) : Draw{0.0, 0.0};
               }});
  // The models with their own sample_flow_sigmas: Ideogram 4 (ideogram/model.py, u uniform
  // through scheduler.py LogitNormalSchedule: σ = expit(mean + std·ndtri(u)), mean = mu + ½
  // ln(1024²/512²)); OmniGen (omnigen/model.py: σ = sigmoid(randn)). Velocity loss.
  c.push_back(
      {"simpletuner", "ideogram", "", "ideogram_schedule", {0.3, 1.2}, [=](auto& g) mutable {
         const double t = sigmoid(0.3 + 0.5 * std::log(4.0) + 1.2 * normal(g));
         return flowDraw(t, 1.0 / (t * t));
       }});
  c.push_back({"simpletuner", "omnigen", "", "sigmoid", {}, [=](auto& g) mutable {
                 const double t = sigmoid(normal(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"simpletuner", "flux", "", "cubic", knots,
               [draw = cubicSplineSampler(knots)](auto& g) mutable {
                 const double t = draw(g);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // SimpleTuner Sana (sana/model.py sample_flow_sigmas: u uniform, or the cubic draw, indexes the
  // unshifted table, t = 1 − min(⌊1000·u⌋, 999)/1000; prepare_batch halves the latents first
  // (LATENT_RESCALE), so against the cached latent σ = 2t/(1 − t); the velocity loss on the halved
  // latent weighs its x0 error by 1/t²). The uniform draw sweeps the 1000 entries (1/t² at
  // t = 0.001 would leave too few effective draws at random); the cubic knots vanish for u > 0.9.
  auto sanaDraw = [](int k) {
    const double t = (1000.0 - std::min(k, 999)) / 1000.0;
    return t < 1.0 ? Draw{2.0 * t / (1.0 - t), 1.0 / (t * t)} : Draw{0.0, 0.0};
  };
  c.push_back({"simpletuner", "sana", "", "uniform", {}, [=, n = 0](auto&) mutable {
                 return sanaDraw(n++ % 1000);
               }});
  std::vector<double> sanaKnots;
  for (int j = 0; j < 33; ++j)
    sanaKnots.push_back(j > 29 ? 0.0 : std::exp(-std::pow((j / 32.0 - 0.6) / 0.15, 2.0)));
  c.push_back({"simpletuner", "sana", "", "cubic", sanaKnots,
               [=, draw = cubicSplineSampler(sanaKnots)](auto& g) mutable {
                 return sanaDraw(static_cast<int>(draw(g) * 1000.0));
               }});
  // The models that keep the common draw (their model.py overrides neither sample_flow_sigmas
  // nor the loss): sigmoid of flow_sigmoid_scale·z, then the static flow_schedule_shift.
  for (const std::string model : {"anima", "longcat-image", "wan", "hunyuanvideo", "ltxvideo",
                                  "longcat-video", "kandinsky5-video"})
    c.push_back({"simpletuner", model, "", "sigmoid", {0.9, 2.5}, [=](auto& g) mutable {
                   const double t = shift(sigmoid(0.9 * normal(g)), 2.5);
                   return flowDraw(t, 1.0 / (t * t));
                 }});
  // SimpleTuner flow_schedule_auto_shift (helpers/models/common.py sample_flow_sigmas: sigmoid of
  // flow_sigmoid_scale·z, then helpers/training/custom_schedule.py apply_flow_schedule_shift:
  // seq_len = frames·(h // 2)·(w // 2) of the noise tensor, μ on the line from
  // (base_image_seq_len, base_shift) to (max_image_seq_len, max_shift) of the model's scheduler
  // config, σ·e^μ/(1 + (e^μ − 1)·σ)); velocity loss. At 1024 px: Flux.2's noise is the
  // pixel-shuffled latent [B, 128, 64, 64]; Qwen-Image's [B, 16, 1, 128, 128] and Krea 2's
  // [B, 16, 128, 128].
  auto autoShift = [](double scale, double seqLen, double maxSeqLen, double maxShift) {
    const double mu = 0.5 + (maxShift - 0.5) / (maxSeqLen - 256.0) * (seqLen - 256.0);
    return [=](std::mt19937_64& g) {
      const double t =
          shift(sigmoid(scale * std::normal_distribution<double>(0.0, 1.0)(g)), std::exp(mu));
      return flowDraw(t, 1.0 / (t * t));
    };
  };
  c.push_back({"simpletuner",
               "flux2",
               "",
               "auto_shift",
               {0.9},
               autoShift(0.9, (64 / 2) * (64 / 2), 4096.0, 1.15)});
  c.push_back({"simpletuner",
               "qwen",
               "",
               "auto_shift",
               {1.1},
               autoShift(1.1, 1 * (128 / 2) * (128 / 2), 8192.0, 0.9)});
  c.push_back({"simpletuner",
               "krea2",
               "",
               "auto_shift",
               {0.8},
               autoShift(0.8, (128 / 2) * (128 / 2), 6400.0, 1.15)});
  c.push_back({"simpletuner",
               "flux",
               "",
               "auto_shift",
               {1.0},
               autoShift(1.0, (128 / 2) * (128 / 2), 4096.0, 1.15)});
  // Anima's single-file scheduler keeps FlowMatchEuler's defaults: Flux's line.
  c.push_back({"simpletuner",
               "anima",
               "",
               "auto_shift",
               {1.2},
               autoShift(1.2, (128 / 2) * (128 / 2), 4096.0, 1.15)});
  // ai-toolkit (jobs/process/BaseSDTrainProcess.py: index randint(0, 999), or ⌊1000·U³⌋ for
  // content_or_style content; toolkit/samplers/custom_flowmatch_sampler.py set_train_timesteps
  // builds the grid; SDTrainer.py: velocity loss, × default_weighing_scheme for "weighted").
  auto aiIndex = [](std::mt19937_64& g) { return std::uniform_int_distribution<int>(0, 998)(g); };
  c.push_back({"ai-toolkit",
               "flux",
               "",
               "sigmoid",
               {},
               [grid = std::vector<double>(), n = 0](auto& g) mutable {
                 if (n++ % 100 ==
                     0) {  // a fresh grid per step: 1000 sorted draws of 1 − sigmoid(z)
                   std::normal_distribution<double> z(0.0, 1.0);
                   grid.resize(1000);
                   for (auto& t : grid) t = 1.0 - sigmoid(z(g));
                   std::sort(grid.begin(), grid.end(), std::greater<>());
                 }
                 const double t = grid[std::uniform_int_distribution<int>(0, 998)(g)];
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"ai-toolkit", "qwen", "", "shift", {}, [=](auto& g) mutable {
                 // use_dynamic_shifting: μ = calculate_shift(128·128/2², 256, 8192, 0.5, 0.9);
                 // shift_terminal 0.02 stretches the grid's end to t = 0.02.
                 const double mu = 0.5 + (0.9 - 0.5) / (8192.0 - 256.0) * (4096.0 - 256.0);
                 auto sigmaAt = [&](int i) {
                   return shift(1.0 - i * (1.0 - 0.001) / 999.0, std::exp(mu));
                 };
                 const double scale = (1.0 - sigmaAt(999)) / (1.0 - 0.02);
                 const double t = 1.0 - (1.0 - sigmaAt(aiIndex(g))) / scale;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"ai-toolkit", "hidream", "", "shift + style", {}, [=](auto& g) mutable {
                 // a static shift 3: the grid runs from the shifted table's ends and is shifted
                 // again
                 const double sMin = shift(0.001, 3.0);
                 const int i = std::clamp(
                     static_cast<int>((1.0 - std::pow(uniform(g), 3.0)) * 1000.0), 0, 999);
                 const double t = shift(1.0 - i * (1.0 - sMin) / 999.0, 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"ai-toolkit", "zimage", "", "weighted + content", {}, [=](auto& g) mutable {
                 const int i =
                     std::clamp(static_cast<int>(std::pow(uniform(g), 3.0) * 1000.0), 0, 999);
                 const double t = (1000.0 - i) / 1000.0;
                 return flowDraw(t, aiToolkitWeighing(i) / (t * t));
               }});
  // The other architectures' shift grids (each model class's get_train_scheduler config): Chroma
  // shifts dynamically (μ = 1.15 at 4096 tokens, no terminal stretch); Wan 2.2 5B, Lumina 2 and
  // SD3 statically by 5, 6 and 3, their grids running from the shifted table's ends and shifted
  // again.
  c.push_back({"ai-toolkit", "chroma", "", "shift", {}, [=](auto& g) mutable {
                 const double t = shift(1.0 - aiIndex(g) * (1.0 - 0.001) / 999.0, std::exp(1.15));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  auto staticShiftGrid = [](double a, std::function<int(std::mt19937_64&)> index) {
    return [=](std::mt19937_64& g) {
      const double sMin = shift(0.001, a);
      const double t = shift(1.0 - index(g) * (1.0 - sMin) / 999.0, a);
      return flowDraw(t, 1.0 / (t * t));
    };
  };
  auto contentIndex = [](std::mt19937_64& g) {  // ⌊1000·U³⌋, clamped to 999
    const double u = std::uniform_real_distribution<double>(0.0, 1.0)(g);
    return std::min(static_cast<int>(std::pow(u, 3.0) * 1000.0), 999);
  };
  c.push_back(
      {"ai-toolkit", "wan22-5b", "", "shift + content", {}, staticShiftGrid(5.0, contentIndex)});
  c.push_back({"ai-toolkit", "lumina2", "", "shift", {}, staticShiftGrid(6.0, aiIndex)});
  c.push_back({"ai-toolkit", "sd3", "", "shift", {}, staticShiftGrid(3.0, aiIndex)});
  // min_denoising_steps / max_denoising_steps (BaseSDTrainProcess.py, balanced: randint(min,
  // max)) on the sigmoid grid (a fresh one per 100 draws here) and on Z-Image's static-shift grid.
  c.push_back({"ai-toolkit",
               "flux",
               "",
               "sigmoid + window",
               {150, 700},
               [grid = std::vector<double>(), n = 0](auto& g) mutable {
                 if (n++ % 100 == 0) {
                   std::normal_distribution<double> z(0.0, 1.0);
                   grid.resize(1000);
                   for (auto& t : grid) t = 1.0 - sigmoid(z(g));
                   std::sort(grid.begin(), grid.end(), std::greater<>());
                 }
                 const double t = grid[std::uniform_int_distribution<int>(150, 699)(g)];
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"ai-toolkit", "zimage", "", "shift + window", {100, 600}, [=](auto& g) mutable {
                 const double sMin = shift(0.001, 3.0);
                 const int i = std::uniform_int_distribution<int>(100, 599)(g);
                 const double t = shift(1.0 - i * (1.0 - sMin) / 999.0, 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // The window under content_or_style (same function): the U³ index, value_map(x, 0, 999, min,
  // max) = x·(max − min)/999 + min, .long(), clamped to [min, max]; content toward high noise on
  // Z-Image's grid, style toward low noise on Wan 2.2 5B's (static shift 5).
  auto cubeInWindow = [](bool content, int lo, int hi) {
    return [=](std::mt19937_64& g) {
      const double u = std::uniform_real_distribution<double>(0.0, 1.0)(g);
      const double x = (content ? std::pow(u, 3.0) : 1.0 - std::pow(u, 3.0)) * 1000.0;
      return std::clamp(static_cast<int>(x * (hi - lo) / 999.0 + lo), lo, hi);
    };
  };
  // Wan 2.2 14B (extensions_built_in/diffusion_models/wan22/wan22_14b_model.py: the 5B's static
  // shift 5, multistage_boundaries [0.875, 0.0]; BaseSDTrainProcess.py adjust_multistage_timesteps
  // and SDTrainer.py's switch every step): an expert between b_max and b_min draws from
  // [#(timesteps ≥ 1000·b_max) − 1, #(timesteps > 1000·b_min) − 1], the two on alternate steps.
  // (An empty count is the code's whole grid, 0 … 999.)
  auto expertWindow = [](const std::function<double(int)>& t, double bMax, double bMin) {
    int atOrAbove = 0, above = 0;
    for (int i = 0; i < 1000; ++i) {
      atOrAbove += 1000.0 * t(i) >= 1000.0 * bMax;
      above += 1000.0 * t(i) > 1000.0 * bMin;
    }
    return above > atOrAbove ? std::pair<int, int>{std::max(atOrAbove - 1, 0), above - 1}
                             : std::pair<int, int>{0, 999};
  };
  // The window of the expert a step trains: with both, the high one on even steps.
  auto stepWindow = [=](const std::function<double(int)>& t, bool trainsHigh, bool trainsLow,
                        int step) {
    const bool high = trainsHigh && (!trainsLow || step % 2 == 0);
    return high ? expertWindow(t, 1.0, 0.875) : expertWindow(t, 0.875, 0.0);
  };
  const std::function<double(int)> linearT = [](int i) { return (1000.0 - i) / 1000.0; };
  const std::function<double(int)> wanShiftT = [](int i) {
    const double sMin = shift(0.001, 5.0);
    return shift(1.0 - i * (1.0 - sMin) / 999.0, 5.0);
  };
  c.push_back({"ai-toolkit", "wan22-14b", "", "linear", {}, [=, step = 0](auto& g) mutable {
                 const bool high = step++ % 2 == 0;
                 const auto window = expertWindow(linearT, high ? 1.0 : 0.875, high ? 0.875 : 0.0);
                 const double t = linearT(
                     std::uniform_int_distribution<int>(window.first, window.second - 1)(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  const auto [highLo, highHi] = expertWindow(wanShiftT, 1.0, 0.875);
  c.push_back({"ai-toolkit",
               "wan22-14b-high",
               "",
               "shift + content",
               {},
               staticShiftGrid(5.0, cubeInWindow(true, highLo, highHi))});
  const int lowLo = expertWindow(linearT, 0.875, 0.0).first;
  const int lowHi = expertWindow(linearT, 0.875, 0.0).second;
  c.push_back({"ai-toolkit", "wan22-14b-low", "weighted", "weighted", {}, [=](auto& g) mutable {
                 const int i = std::uniform_int_distribution<int>(lowLo, lowHi - 1)(g);
                 const double t = linearT(i);
                 return flowDraw(t, aiToolkitWeighing(i) / (t * t));
               }});
  c.push_back({"ai-toolkit",
               "zimage",
               "",
               "shift + content + window",
               {100, 600},
               staticShiftGrid(3.0, cubeInWindow(true, 100, 600))});
  c.push_back({"ai-toolkit",
               "wan22-5b",
               "",
               "shift + style + window",
               {0, 875},
               staticShiftGrid(5.0, cubeInWindow(false, 0, 875))});
  // linear_timesteps / linear_timesteps2 (custom_flowmatch_sampler.py
  // CustomFlowMatchEulerDiscreteScheduler.__init__ builds the weights, SDTrainer.py multiplies
  // the loss by the entry of the drawn index): exp(−2((x − 500)/1000)²) for x = 0 … 999, less its
  // minimum, times 1000/sum; version 2 sets the entries from 500 on to the largest of them. The
  // grid is the linear one, t = (1000 − i)/1000. The index is swept over 0 … 999 with its
  // probability as a weight (its exact law, as for lognorm_blend below).
  auto bell = [](bool half) {
    std::vector<double> y(1000);
    for (int x = 0; x < 1000; ++x) y[x] = std::exp(-2.0 * std::pow((x - 500.0) / 1000.0, 2.0));
    const double low = *std::min_element(y.begin(), y.end());
    double sum = 0.0;
    for (auto& v : y) sum += (v -= low);
    for (auto& v : y) v *= 1000.0 / sum;
    if (half) std::fill(y.begin() + 500, y.end(), *std::max_element(y.begin() + 500, y.end()));
    return y;
  };
  auto linearSweep = [](std::vector<double> lossWeight, std::function<double(int)> probability) {
    return [=, n = 0](std::mt19937_64&) mutable {
      const int i = n++ % 1000;
      const double t = (1000.0 - i) / 1000.0;
      return flowDraw(t, 1000.0 * probability(i) * lossWeight[i] / (t * t));
    };
  };
  c.push_back(
      {"ai-toolkit", "flux", "", "linear_timesteps", {}, linearSweep(bell(false), [](int i) {
         return i < 999 ? 1.0 / 999.0 : 0.0;
       })});
  c.push_back({"ai-toolkit",
               "qwen",
               "",
               "linear_timesteps2 + content",
               {},
               linearSweep(bell(true), [](int i) {  // P(⌊1000·U³⌋ = i), 999 the clamped rest
                 return i == 999 ? 1.0 - std::cbrt(0.999)
                                 : std::cbrt((i + 1) / 1000.0) - std::cbrt(i / 1000.0);
               })});
  c.push_back(
      {"ai-toolkit", "flux2", "weighted", "weighted + window", {50, 400}, [=](auto& g) mutable {
         const int i = std::uniform_int_distribution<int>(50, 399)(g);
         const double t = (1000.0 - i) / 1000.0;
         return flowDraw(t, aiToolkitWeighing(i) / (t * t));
       }});
  // lognorm_blend (custom_flowmatch_sampler.py set_train_timesteps): a fresh grid per step of 750
  // LogNormal(0, 0.333) draws as (1 − x/max x)·1000 and linspace(1000, 1, 250), sorted
  // descending, .to(torch.int). The index (BaseSDTrainProcess.py: randint(0, 999), or ⌊1000·U³⌋
  // for content, ⌊1000·(1 − U³)⌋ for style, clamped to 999) is swept over every entry of each
  // grid with its probability as a weight: its law, without the Monte Carlo noise that 1/t² would
  // give the few lowest entries.
  auto lognormBlend = [](std::function<double(int)> indexProbability) {
    return [grid = std::vector<int>(), n = 0, indexProbability](std::mt19937_64& g) mutable {
      if (n % 1000 == 0) {
        grid = aiToolkitLognormBlendGrid(g);
      }
      const int i = n++ % 1000;
      const double t = grid[i] / 1000.0;  // t = 0 is σ = 0: not on the grid
      return flowDraw(t, 1000.0 * indexProbability(i) / (t * t));
    };
  };
  c.push_back({"ai-toolkit", "flux", "", "lognorm_blend", {}, lognormBlend([](int i) {
                 return i < 999 ? 1.0 / 999.0 : 0.0;
               })});
  c.push_back({"ai-toolkit",
               "flux",
               "",
               "lognorm_blend + content",
               {},
               lognormBlend([](int i) {  // P(⌊1000·U³⌋ = i), 999 taking the clamped rest
                 return i == 999 ? 1.0 - std::cbrt(0.999)
                                 : std::cbrt((i + 1) / 1000.0) - std::cbrt(i / 1000.0);
               })});
  c.push_back({"ai-toolkit",
               "qwen",
               "",
               "lognorm_blend + style",
               {},
               lognormBlend([](int i) {  // P(⌊1000·(1 − U³)⌋ = i), clamped to 999
                 return i == 999
                            ? std::cbrt(0.001)
                            : std::cbrt((1000.0 - i) / 1000.0) - std::cbrt((999.0 - i) / 1000.0);
               })});
  // lognorm_blend under min/max_denoising_steps (the same index law as on the other grids,
  // BaseSDTrainProcess.py): swept over the window's entries with their probability.
  c.push_back(
      {"ai-toolkit", "flux", "", "lognorm_blend + window", {120, 640}, lognormBlend([](int i) {
         return i >= 120 && i < 640 ? 1.0 / 520.0 : 0.0;
       })});
  c.push_back(
      {"ai-toolkit",
       "qwen",
       "",
       "lognorm_blend + content + window",
       {0, 500},
       lognormBlend([](int i) {    // ⌊⌊1000·U³⌋·500/999⌋ = i, clamped to [0, 500]
         auto below = [](int j) {  // P(index < j)
           return j <= 0 ? 0.0 : j > 500 ? 1.0 : std::cbrt(std::min(j * 999.0 / 500e3, 1.0));
         };
         return below(i + 1) - below(i);
       })});
  // The sigmoid grid of Wan 2.2 14B: each step a fresh grid (its batch of 50 draws shares it,
  // as a batch does), its expert window counted off it by adjust_multistage_timesteps
  // (searchsorted on the ascending timesteps), the experts alternating steps.
  auto sigmoidExperts = [=](bool trainsHigh, bool trainsLow, const std::string& style) {
    return [=, grid = std::vector<double>(), n = 0, step = 0,
            window = std::pair<int, int>()](std::mt19937_64& g) mutable {
      if (n++ % 50 == 0) {
        std::normal_distribution<double> z(0.0, 1.0);
        grid.resize(1000);
        for (auto& t : grid) t = 1.0 - sigmoid(z(g));
        std::sort(grid.begin(), grid.end(), std::greater<>());
        window = stepWindow([&](int i) { return grid[i]; }, trainsHigh, trainsLow, step++);
      }
      const auto [first, last] = window;
      int i = first;
      if (style != "balanced")
        i = cubeInWindow(style == "content", first, last)(g);
      else if (first != last)
        i = std::uniform_int_distribution<int>(first, last - 1)(g);
      const double t = grid[i];
      return flowDraw(t, 1.0 / (t * t));
    };
  };
  // lognorm_blend on Wan 2.2 14B: each step's grid, its expert window counted off it as
  // adjust_multistage_timesteps does (#(T ≥ 1000·b_max) − 1 … #(T > 1000·b_min) − 1, else the
  // whole grid), the experts alternating steps; each grid's entries swept with the window's index
  // probability (balanced randint(lo, hi); content/style the U³ index value_map'ed onto it).
  // Every 10th entry from a random offset is swept, so that 4 000 grids are drawn: the few random
  // entries at t ≈ 0.001 carry weights near 10⁶, and too few grids leave TV 0.04 of Monte Carlo
  // error (0.011 with ten times the grids).
  auto lognormExperts = [=](bool trainsHigh, bool trainsLow, const std::string& style) {
    return [=, grid = std::vector<int>(), n = 0, step = 0, lo = 0, hi = 999,
            offset = 0](std::mt19937_64& g) mutable {
      if (n % 100 == 0) {
        offset = std::uniform_int_distribution<int>(0, 9)(g);
        grid = aiToolkitLognormBlendGrid(g);
        // 875/1000 and 1000/1000 are exact, so the counts at the boundaries are the tool's.
        std::tie(lo, hi) =
            stepWindow([&](int i) { return grid[i] / 1000.0; }, trainsHigh, trainsLow, step++);
      }
      const int i = 10 * (n++ % 100) + offset;
      auto below = [&](int j) {  // P(index < j)
        if (j <= lo) return 0.0;
        if (j > hi) return 1.0;
        if (style == "balanced") return lo == hi ? 1.0 : std::min((j - lo) / double(hi - lo), 1.0);
        const double f = std::min((j - lo) * 999.0 / (1000.0 * (hi - lo)), 1.0);
        return style == "content" ? std::cbrt(f) : 1.0 - std::cbrt(1.0 - f);
      };
      const double probability = below(i + 1) - below(i), t = grid[i] / 1000.0;
      return t > 0.0 ? flowDraw(t, 1000.0 * probability / (t * t)) : Draw{0.0, 0.0};
    };
  };
  // Both experts balanced, the high one with content, the low one with style, on each grid.
  struct ExpertCase {
    std::string model, style;
    bool high, low;
  };
  for (const ExpertCase& e : {ExpertCase{"wan22-14b", "balanced", true, true},
                              ExpertCase{"wan22-14b-high", "content", true, false},
                              ExpertCase{"wan22-14b-low", "style", false, true}}) {
    const std::string suffix = e.style == "balanced" ? "" : " + " + e.style;
    c.push_back({"ai-toolkit",
                 e.model,
                 "",
                 "sigmoid" + suffix,
                 {},
                 sigmoidExperts(e.high, e.low, e.style)});
    c.push_back({"ai-toolkit",
                 e.model,
                 "",
                 "lognorm_blend" + suffix,
                 {},
                 lognormExperts(e.high, e.low, e.style)});
  }
  // sd-scripts Flux's default mode (library/flux_train_utils.py
  // get_noisy_model_input_and_timesteps, "sigma"): indices = (u·1000).long() into
  // FlowMatchEulerDiscreteScheduler(shift = a)'s sigmas, shift_a((1000 − i)/1000); sigma_scaled
  // (apply_model_prediction_type): the loss is on x_t − t·F, the x0 estimate of a Flux sampler,
  // unweighted, so x0 weight 1, times compute_loss_weighting_for_sd3 (sigma_sqrt: t⁻²).
  auto kohyaSigmaTable = [](double u, double a) {
    return shift((1000.0 - std::min(static_cast<int>(u * 1000.0), 999)) / 1000.0, a);
  };
  c.push_back({"sd-scripts", "flux", "", "sigma", {3.0}, [=](auto& g) mutable {
                 return flowDraw(kohyaSigmaTable(uniform(g), 3.0), 1.0);
               }});
  // The same mode with --weighting_scheme logit_normal or mode: u from
  // compute_density_for_timestep_sampling, the same index into the shifted table;
  // compute_loss_weighting_for_sd3 gives them ones.
  c.push_back(
      {"sd-scripts", "flux", "", "sigma + logit_normal", {0.3, 1.0, 3.0}, [=](auto& g) mutable {
         return flowDraw(kohyaSigmaTable(sigmoid(0.3 + 1.0 * normal(g)), 3.0), 1.0);
       }});
  c.push_back({"sd-scripts", "flux", "", "sigma + mode", {1.29, 2.0}, [=](auto& g) mutable {
                 return flowDraw(kohyaSigmaTable(modeDraw(uniform(g), 1.29), 2.0), 1.0);
               }});
  c.push_back(
      {"sd-scripts", "flux", "sigma_sqrt", "sigma + sigma_sqrt", {1.7}, [=](auto& g) mutable {
         const double t = kohyaSigmaTable(uniform(g), 1.7);
         return flowDraw(t, 1.0 / (t * t));
       }});
  // sd-scripts SD3 (library/sd3_train_utils.py get_noisy_model_input_and_timesteps): u from the
  // scheme, u = shift(u, training_shift), indices = (u·(t_max − t_min) + t_min).long(), t =
  // indices/1000; sd3_train_network.py get_noise_pred_and_target: x0 loss.
  auto sd3Kohya = [](double u, double a) { return std::floor(shift(u, a) * 1000.0) / 1000.0; };
  c.push_back({"sd-scripts", "sd3", "", "logit_normal", {0.2, 0.9}, [=](auto& g) mutable {
                 return flowDraw(sd3Kohya(sigmoid(0.2 + 0.9 * normal(g)), 1.0), 1.0);
               }});
  c.push_back({"sd-scripts", "sd3", "", "uniform", {3.0}, [=](auto& g) mutable {
                 return flowDraw(sd3Kohya(uniform(g), 3.0), 1.0);
               }});
  c.push_back({"sd-scripts", "sd3", "", "mode", {0.8, 2.0}, [=](auto& g) mutable {
                 return flowDraw(sd3Kohya(modeDraw(uniform(g), 0.8), 2.0), 1.0);
               }});
  c.push_back({"sd-scripts", "sd3", "", "cosmap", {2.0}, [=](auto& g) mutable {
                 const double t = sd3Kohya(uniform(g), 2.0);
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)));
               }});
  // sd-scripts Flux (library/flux_train_utils.py get_noisy_model_input_and_timesteps, "shift"):
  // t = shift(sigmoid(s·z), a), continuous; --model_prediction_type raw: velocity.
  c.push_back({"sd-scripts", "flux", "", "shift", {1.0, 3.0}, [=](auto& g) mutable {
                 const double t = shift(sigmoid(normal(g)), 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // The other modes (same function): sigmoid, t = sigmoid(s·z); flux_shift, time_shift(μ, 1,
  // sigmoid(s·z)) = shift_{e^μ}, μ = get_lin_function(0.5, 1.15) of (h//2)(w//2) with h = w =
  // 1024/8; uniform, t = rand (swept through u: under 1/t² a random draw leaves too few effective
  // draws near t = 0); and the sigma mode with cosmap (sigma_scaled's weighting).
  c.push_back({"sd-scripts", "flux", "", "sigmoid", {1.1}, [=](auto& g) mutable {
                 const double t = sigmoid(1.1 * normal(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"sd-scripts", "flux", "", "flux_shift", {0.9}, [=](auto& g) mutable {
                 const double mu = 0.5 + (1.15 - 0.5) / (4096.0 - 256.0) * (64.0 * 64.0 - 256.0);
                 const double x = sigmoid(0.9 * normal(g)), e = std::exp(mu);
                 const double t = e / (e + (1.0 / x - 1.0));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"sd-scripts", "flux", "", "uniform", {}, [n = 0](auto&) mutable {
                 const double t = (n++ % kDraws + 0.5) / kDraws;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"sd-scripts", "flux", "cosmap", "sigma + cosmap", {2.5}, [=](auto& g) mutable {
                 const double t = kohyaSigmaTable(uniform(g), 2.5);
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)));
               }});
  // The sigma mode under --model_prediction_type raw: the same table, the velocity loss (x0
  // weight t⁻²) and no scheme weight.
  c.push_back({"sd-scripts", "flux", "", "sigma + raw", {3.0}, [=](auto& g) mutable {
                 const double t = kohyaSigmaTable(uniform(g), 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"sd-scripts",
               "flux",
               "",
               "sigma + logit_normal + raw",
               {0.5, 0.8, 2.0},
               [=](auto& g) mutable {
                 const double t = kohyaSigmaTable(sigmoid(0.5 + 0.8 * normal(g)), 2.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // The continuous modes under sigma_scaled: the same draws, the x0 weight 1 times the scheme's.
  c.push_back({"sd-scripts", "flux", "", "shift + sigma_scaled", {1.2, 2.0}, [=](auto& g) mutable {
                 return flowDraw(shift(sigmoid(1.2 * normal(g)), 2.0), 1.0);
               }});
  c.push_back({"sd-scripts",
               "flux",
               "cosmap",
               "sigmoid + sigma_scaled + cosmap",
               {0.8},
               [=](auto& g) mutable {
                 const double t = sigmoid(0.8 * normal(g));
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)));
               }});
  c.push_back({"sd-scripts",
               "flux",
               "sigma_sqrt",
               "flux_shift + sigma_scaled + sigma_sqrt",
               {1.0},
               [=](auto& g) mutable {
                 const double mu = 0.5 + (1.15 - 0.5) / (4096.0 - 256.0) * (64.0 * 64.0 - 256.0);
                 const double x = sigmoid(normal(g)), e = std::exp(mu);
                 const double t = e / (e + (1.0 / x - 1.0));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"sd-scripts", "flux", "", "uniform + sigma_scaled", {}, [n = 0](auto&) mutable {
                 return flowDraw((n++ % kDraws + 0.5) / kDraws, 1.0);
               }});
  // sd-scripts HunyuanImage 2.1 (hunyuan_image_train_network.py get_noise_pred_and_target: the
  // Flux function, apply_model_prediction_type with the default raw, target noise − latents):
  // the sigma mode at the script's shift 5; flux_shift with μ from (h//2)(w//2) of the 32×
  // latent, h = w = 1024/32, so 256 tokens and μ = 0.5.
  c.push_back({"sd-scripts", "hunyuan-image", "", "sigma", {5.0}, [=](auto& g) mutable {
                 const double t = kohyaSigmaTable(uniform(g), 5.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"sd-scripts", "hunyuan-image", "", "flux_shift", {1.1}, [=](auto& g) mutable {
                 const double t = shift(sigmoid(1.1 * normal(g)), std::exp(0.5));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // sd-scripts Anima (anima_train_network.py get_noise_pred_and_target: the Flux function, target
  // noise − latents, times anima_train_utils.py compute_loss_weighting_for_anima in every mode):
  // sigmoid (the script's default); shift under cosmap; the sigma mode (shift 1) under cosmap.
  c.push_back({"sd-scripts", "anima", "", "sigmoid", {0.9}, [=](auto& g) mutable {
                 const double t = sigmoid(0.9 * normal(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"sd-scripts", "anima", "cosmap", "shift + cosmap", {1.0, 2.0}, [=](auto& g) mutable {
                 const double t = shift(sigmoid(normal(g)), 2.0);
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)) / (t * t));
               }});
  c.push_back({"sd-scripts", "anima", "cosmap", "sigma + cosmap", {1.0}, [=](auto& g) mutable {
                 const double t = kohyaSigmaTable(uniform(g), 1.0);
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)) / (t * t));
               }});
  // sd-scripts Lumina 2 (library/lumina_train_util.py get_noisy_model_input_and_timesteps;
  // lumina_train_network.py get_noise_pred_and_target: target latents − noise, raw): shift at the
  // script's default a = 6; nextdit_shift, time_shift(μ, 1, U) with U uniform (swept through u)
  // and μ = get_lin_function(0.5, 1.15) of (h//2)(w//2), h = w = 128; the sigma mode under raw,
  // u = sigmoid(N(m, s²)) into the table shifted by 6, no weighting.
  c.push_back({"sd-scripts", "lumina2", "", "shift", {0.9, 6.0}, [=](auto& g) mutable {
                 const double t = shift(sigmoid(0.9 * normal(g)), 6.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"sd-scripts", "lumina2", "", "nextdit_shift", {}, [n = 0](auto&) mutable {
                 const double u = std::max((n++ % kDraws + 0.5) / kDraws, 1e-7);
                 const double e = std::exp(1.15), t = e / (e + (1.0 / u - 1.0));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back(
      {"sd-scripts", "lumina2", "", "sigma + logit_normal", {0.5, 1.0, 6.0}, [=](auto& g) mutable {
         const double t = kohyaSigmaTable(sigmoid(0.5 + 1.0 * normal(g)), 6.0);
         return flowDraw(t, 1.0 / (t * t));
       }});
  // sd-scripts SD 1.x/SDXL (library/train_util.py get_noise_noisy_latents_and_timesteps: randint
  // (min_timestep, max_timestep); library/custom_train_functions.py apply_snr_weight,
  // apply_debiased_estimation, scale_v_prediction_loss_like_noise_prediction, SNR capped at 1000
  // in the last two).
  c.push_back({"sd-scripts", "sdxl", "", "timestep_window", {200, 800}, [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 200, 800));
                 return Draw{std::sqrt(s2), 1.0 / s2};
               }});
  c.push_back(
      {"sd-scripts", "sdxl", "min_snr_gamma", "uniform + min_snr_gamma", {2.0}, [=](auto& g) {
         const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
         return Draw{std::sqrt(s2), std::min(snr, 2.0) / snr * snr};
       }});
  // --v_pred_like_loss 0.5 (add_v_prediction_like_loss): loss + loss/scale·λ, scale = SNR/(SNR + 1)
  // with SNR capped at 1000; ε loss, x0 factor SNR.
  c.push_back(
      {"sd-scripts", "sdxl", "v_pred_like_loss", "uniform + v_pred_like_loss", {0.5}, [=](auto& g) {
         const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
         const double capped = std::min(snr, 1000.0), scale = capped / (capped + 1.0);
         return Draw{std::sqrt(s2), (1.0 + 0.5 / scale) * snr};
       }});
  c.push_back({"sd-scripts",
               "sd15",
               "debiased_estimation_loss",
               "uniform + debiased_estimation_loss",
               {},
               [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), snr / std::sqrt(std::min(snr, 1000.0))};
               }});
  c.push_back({"sd-scripts",
               "sd2-v",
               "debiased_estimation_loss",
               "uniform + debiased_estimation_loss",
               {},
               [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), (snr + 1.0) / (std::min(snr, 1000.0) + 1.0)};
               }});
  c.push_back({"sd-scripts",
               "sdxl-v",
               "scale_v_pred_loss_like_noise_pred",
               "uniform + scale_v_pred_loss_like_noise_pred",
               {},
               [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 const double capped = std::min(snr, 1000.0);
                 return Draw{std::sqrt(s2), capped / (capped + 1.0) * (snr + 1.0)};
               }});

  // OneTrainer (modules/modelSetup/mixin/ModelSetupNoiseMixin.py _get_timestep_discrete: x·1000
  // shifted to 1000·a·x/((a − 1)·x + 1000), .int(); ModelSetupFlowMatchingMixin.py
  // _add_noise_discrete: t = (k + 1)/1000, velocity target, x0 factor 1/t²).
  auto oneTrainerFlow = [](double x, double a) {
    const double scaled = 1000.0 * x;
    const int k = static_cast<int>(1000.0 * a * scaled / ((a - 1.0) * scaled + 1000.0));
    return (k + 1) / 1000.0;
  };
  // Flux's dynamic shift at 1024×1024: (1024/8/2)² = 4096 tokens, μ on the line through
  // (256, 0.5) and (4096, 1.15) (FluxModel.calculate_timestep_shift).
  const double fluxShift = std::exp(1.15);
  c.push_back({"onetrainer", "flux", "", "LOGIT_NORMAL", {-0.3, 0.2}, [=](auto& g) mutable {
                 const double t = oneTrainerFlow(sigmoid(-0.3 + 1.2 * normal(g)), fluxShift);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"onetrainer", "sd3", "", "UNIFORM", {3.0}, [=](auto& g) mutable {
                 const double t = oneTrainerFlow(uniform(g), 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"onetrainer", "chroma", "", "HEAVY_TAIL", {0.5, 2.0}, [=](auto& g) mutable {
                 const double t = oneTrainerFlow(modeDraw(uniform(g), 0.5), 2.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back(
      {"onetrainer", "qwen", "SIGMA", "LOGIT_NORMAL + SIGMA", {0.4, -0.3}, [=](auto& g) mutable {
         const double t = oneTrainerFlow(sigmoid(0.4 + 0.7 * normal(g)), 1.0);
         return flowDraw(t, 1.0 / (t * t) * t);
       }});
  c.push_back({"onetrainer", "sd3", "", "BETA", {3.0, 1.5, 1.0}, [](auto& g) {
                 std::gamma_distribution<double> a(3.0, 1.0), b(1.5, 1.0);
                 const double x = a(g), y = b(g);
                 const double t = (static_cast<int>(1000.0 * x / (x + y)) + 1) / 1000.0;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // BETA under timestep_shift 0.4 (the continuous branch shifts the beta draw like the others).
  c.push_back({"onetrainer", "chroma", "", "BETA", {2.0, 4.0, 0.4}, [=](auto& g) {
                 std::gamma_distribution<double> a(2.0, 1.0), b(4.0, 1.0);
                 const double x = a(g), y = b(g);
                 const double t = oneTrainerFlow(x / (x + y), 0.4);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // COS_MAP and INVERTED_PARABOLA: weight tables over the 1000 indices k (flow: t = (k + 1)/1000).
  auto cosMap = [](double y) { return 2.0 / (kPi - 2.0 * kPi * y + 2.0 * kPi * y * y); };
  auto parabola = [](double bias, double weight) {
    return [=](double y) { return std::max(0.0, -weight * std::pow(y - bias - 0.5, 2.0) + 2.0); };
  };
  c.push_back({"onetrainer",
               "chroma",
               "",
               "INVERTED_PARABOLA",
               {0.0, 7.7, 1.0},
               [table = oneTrainerTable(1.0, parabola(0.0, 7.7))](auto& g) mutable {
                 const double t = (table(g) + 1) / 1000.0;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"onetrainer",
               "qwen",
               "",
               "INVERTED_PARABOLA",
               {-0.1, 3.0, 2.5},
               [table = oneTrainerTable(2.5, parabola(-0.1, 3.0))](auto& g) mutable {
                 const double t = (table(g) + 1) / 1000.0;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"onetrainer",
               "flux",
               "SIGMA",
               "COS_MAP + SIGMA",
               {},
               // (with loss_weight_fn SIGMA, × t: under the bare 1/t² the few draws at the table's
               // lowest t carry most of φ and the Monte Carlo sum is too noisy to judge)
               [table = oneTrainerTable(fluxShift, cosMap)](auto& g) mutable {
                 const double t = (table(g) + 1) / 1000.0;
                 return flowDraw(t, 1.0 / (t * t) * t);
               }});
  // SIGMOID (_get_timestep_discrete's discrete branch): the linspace x = i/999 inverse-shifted
  // (x/(a − a·x + x)), the sigmoid branch inverse-shifting that once more before
  // sigmoid(weight·(y − bias − 0.5)), times a/(a + x − x·a)²; torch.multinomial over the 1000
  // weights gives the index. The index is swept over all 1000 entries with its multinomial
  // probability as a weight (the exact law of the draw): at random, the few draws at the table's
  // lowest noise carry weights up to 10⁶ under the ε or velocity loss. (Had the inverse shift been
  // applied once, as for COS_MAP, these knobs would realise a φ at TV 0.11, 0.43 and 0.16 away.)
  auto oneTrainerSigmoid = [](double bias, double weight, double a,
                              std::function<Draw(int)> trained) {
    std::vector<double> weights(1000);
    double total = 0.0;
    for (int i = 0; i < 1000; ++i) {
      const double x = i / 999.0, once = x / (a - a * x + x), twice = once / (a - a * once + once);
      weights[i] = sigmoid(weight * (twice - bias - 0.5)) * a / std::pow(a + x - x * a, 2.0);
      total += weights[i];
    }
    return [weights, total, trained, n = 0](std::mt19937_64&) mutable {
      const int i = n++ % 1000;
      Draw d = trained(i);
      d.weight *= 1000.0 * weights[i] / total;
      return d;
    };
  };
  auto ddpmEpsilon = [](int k) {
    const double s2 = ddpmSigma2(k);
    return Draw{std::sqrt(s2), 1.0 / s2};
  };
  auto flowVelocity = [](int k) {  // ModelSetupFlowMatchingMixin: t = (k + 1)/1000
    const double t = (k + 1) / 1000.0;
    return flowDraw(t, 1.0 / (t * t));
  };
  c.push_back({"onetrainer",
               "sdxl",
               "",
               "SIGMOID",
               {0.1, 6.0, 2.5},
               oneTrainerSigmoid(0.1, 6.0, 2.5, ddpmEpsilon)});
  c.push_back({"onetrainer",
               "chroma",
               "",
               "SIGMOID",
               {0.3, 12.0, 4.0},
               oneTrainerSigmoid(0.3, 12.0, 4.0, flowVelocity)});
  // Under dynamic_timestep_shifting (Flux) the shift is e^μ of the first batch (1024 px: 1.15).
  c.push_back({"onetrainer",
               "flux",
               "",
               "SIGMOID",
               {0.0, 10.0},
               oneTrainerSigmoid(0.0, 10.0, std::exp(1.15), flowVelocity)});
  c.push_back({"onetrainer",
               "sdxl",
               "",
               "COS_MAP",
               {2.0},
               [table = oneTrainerTable(2.0, cosMap)](auto& g) mutable {
                 const double s2 = ddpmSigma2(table(g));
                 return Draw{std::sqrt(s2), 1.0 / s2};
               }});
  // min_noising_strength / max_noising_strength (_get_timestep_discrete): m = int(1000·min), M =
  // int(1000·max). The continuous branch draws timestep = x·(M − m) + m and shifts it as
  // 1000·a·timestep/((a − 1)·timestep + 1000) before .int(); the weight tables are built on
  // linspace(0, 1, M − m) and the multinomial index is offset by m.
  auto window = [](double strength) { return static_cast<int>(1000.0 * strength); };
  auto oneTrainerWindowed = [window](double x, double a, double min, double max) {
    const double m = window(min), timestep = x * (window(max) - m) + m;
    return static_cast<int>(1000.0 * a * timestep / ((a - 1.0) * timestep + 1000.0));
  };
  auto oneTrainerWindowTable = [window](double a, double min, double max,
                                        const std::function<double(double)>& g) {
    const int n = window(max) - window(min);
    std::vector<double> weights(n);
    for (int j = 0; j < n; ++j) {
      const double x = j / (n - 1.0), inverse = x / (a - a * x + x);
      weights[j] = g(inverse) * a / std::pow(a + x - x * a, 2.0);
    }
    return std::discrete_distribution<int>(weights.begin(), weights.end());
  };
  {
    Case windowed{
        "onetrainer", "flux", "SIGMA", "LOGIT_NORMAL + SIGMA", {0.2, 0.1}, [=](auto& g) mutable {
          const int k = oneTrainerWindowed(sigmoid(0.2 + 1.1 * normal(g)), fluxShift, 0.1, 0.85);
          const double t = (k + 1) / 1000.0;
          return flowDraw(t, 1.0 / (t * t) * t);
        }};
    windowed.noisingStrength = {0.1, 0.85};
    c.push_back(windowed);
  }
  {
    Case windowed{"onetrainer", "sdxl", "", "UNIFORM", {2.0}, [=](auto& g) mutable {
                    const double s2 = ddpmSigma2(oneTrainerWindowed(uniform(g), 2.0, 0.3, 1.0));
                    return Draw{std::sqrt(s2), 1.0 / s2};
                  }};
    windowed.noisingStrength = {0.3, 1.0};
    c.push_back(windowed);
  }
  {
    const int first = window(0.25);
    Case windowed{"onetrainer",
                  "sdxl",
                  "",
                  "COS_MAP",
                  {2.0},
                  [first, table = oneTrainerWindowTable(2.0, 0.25, 0.9, cosMap)](auto& g) mutable {
                    const double s2 = ddpmSigma2(table(g) + first);
                    return Draw{std::sqrt(s2), 1.0 / s2};
                  }};
    windowed.noisingStrength = {0.25, 0.9};
    c.push_back(windowed);
  }
  {
    const int first = window(0.4);
    Case windowed{"onetrainer",
                  "chroma",
                  "SIGMA",
                  "INVERTED_PARABOLA + SIGMA",
                  {-0.1, 3.0, 1.5},
                  [first, table = oneTrainerWindowTable(1.5, 0.4, 0.95, parabola(-0.1, 3.0))](
                      auto& g) mutable {
                    const double t = (table(g) + first + 1) / 1000.0;
                    return flowDraw(t, 1.0 / (t * t) * t);
                  }};
    windowed.noisingStrength = {0.4, 0.95};
    c.push_back(windowed);
  }
  {
    // SIGMOID in a window: the same double inverse shift on linspace(0, 1, M − m), swept with its
    // multinomial probability, the index offset by m = 150 (flow: t = (m + j + 1)/1000).
    const int first = window(0.15), n = window(0.75) - first;
    std::vector<double> weights(n);
    double total = 0.0;
    for (int j = 0; j < n; ++j) {
      const double a = 3.0, x = j / (n - 1.0), once = x / (a - a * x + x),
                   twice = once / (a - a * once + once);
      weights[j] = sigmoid(8.0 * (twice - 0.2 - 0.5)) * a / std::pow(a + x - x * a, 2.0);
      total += weights[j];
    }
    Case windowed{
        "onetrainer", "sd3", "", "SIGMOID", {0.2, 8.0, 3.0}, [=, i = 0](std::mt19937_64&) mutable {
          const int j = i++ % n;
          const double t = (first + j + 1) / 1000.0;
          Draw d = flowDraw(t, 1.0 / (t * t));
          d.weight *= n * weights[j] / total;
          return d;
        }};
    windowed.noisingStrength = {0.15, 0.75};
    c.push_back(windowed);
  }
  // DDPM models (ModelSetupDiffusionLossMixin.py: __min_snr_weight, __debiased_estimation_weight).
  c.push_back({"onetrainer",
               "sdxl",
               "MIN_SNR_GAMMA",
               "UNIFORM + MIN_SNR_GAMMA",
               {1.0, 4.0},
               [=](auto& g) mutable {
                 const double s2 = ddpmSigma2(static_cast<int>(1000.0 * uniform(g))),
                              snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), std::min(snr, 4.0) / snr * snr};
               }});
  c.push_back({"onetrainer", "sd15", "P2", "UNIFORM + P2", {1.0, 1.0}, [=](auto& g) mutable {
                 const double s2 = ddpmSigma2(static_cast<int>(1000.0 * uniform(g))),
                              snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), snr / (1.0 + snr)};
               }});
  c.push_back({"onetrainer", "sd2-v", "", "LOGIT_NORMAL", {0.5, 0.0}, [=](auto& g) mutable {
                 const double s2 = ddpmSigma2(static_cast<int>(1000.0 * sigmoid(0.5 + normal(g)))),
                              snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), snr + 1.0};
               }});
  c.push_back({"onetrainer",
               "sdxl-v",
               "DEBIASED_ESTIMATION",
               "UNIFORM + DEBIASED_ESTIMATION",
               {1.0},
               [=](auto& g) mutable {
                 const double s2 = ddpmSigma2(static_cast<int>(1000.0 * uniform(g))),
                              snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), (snr + 1.0) / std::sqrt(snr + 1.0)};
               }});
  // EDM (NVlabs/edm training/loss.py EDMLoss.__call__): σ = exp(P_mean + P_std·z), the loss
  // weight (σ² + σ_d²)/(σ·σ_d)² on the x0 error, σ_d = 0.5.
  c.push_back({"edm", "edm", "", "lognormal", {-1.2, 1.2}, [=](auto& g) mutable {
                 const double s = std::exp(-1.2 + 1.2 * normal(g));
                 return Draw{s, (s * s + 0.25) / (s * s * 0.25)};
               }});
  // EDM2 (training/training_loop.py EDM2Loss): σ = exp(P_mean + P_std·z); with the learned
  // log-variance at equilibrium the x0 weight is 1/E‖D − y‖²(σ). The error here is a Gaussian's
  // MMSE (σ_d = 0.5), given to fit as 121 (σ, error) pairs.
  auto gaussianMmse = [](double s) { return 0.25 * s * s / (s * s + 0.25); };
  std::vector<std::pair<double, double>> error;
  for (int i = 0; i <= 120; ++i) {
    const double s = 0.001 * std::pow(10.0, 5.0 * i / 120.0);
    error.emplace_back(s, gaussianMmse(s));
  }
  c.push_back({"edm2",
               "edm2-img512",
               "",
               "lognormal",
               {-0.4, 1.0},
               [=](auto& g) mutable {
                 const double s = std::exp(-0.4 + 1.0 * normal(g));
                 return Draw{s, 1.0 / gaussianMmse(s)};
               },
               error});
  // k-diffusion (k_diffusion/config.py make_sample_density, k_diffusion/utils.py rand_*), its
  // Denoiser loss with each loss_weighting; sigma_data 0.5, image_d 1024 (fit's defaults).
  const double sd = 0.5;
  c.push_back({"k-diffusion",
               "image",
               "",
               "cosine-interpolated + soft-min-snr",
               {32.0, 1024.0},
               [=](auto& g) mutable {
                 const double s =
                     cosineInterpolatedSigma(uniform(g), 1024, 32, 1024, sd, 1e-3, 1e3);
                 return Draw{s, kDiffusionX0Weight("soft-min-snr", s, sd)};
               }});
  c.push_back(
      {"k-diffusion", "image", "", "cosine-interpolated", {64.0, 256.0}, [=](auto& g) mutable {
         const double s = cosineInterpolatedSigma(uniform(g), 1024, 64, 256, sd, 1e-3, 1e3);
         return Draw{s, kDiffusionX0Weight("karras", s, sd)};
       }});
  c.push_back({"k-diffusion",
               "image",
               "snr",
               "split-lognormal + snr",
               {-1.0, 1.5, 0.8},
               [=](auto& g) mutable {  // rand_split_log_normal
                 const double n = std::abs(normal(g)), u = uniform(g);
                 const double l = u < 1.5 / 2.3 ? -1.0 - 1.5 * n : -1.0 + 0.8 * n;
                 return Draw{std::exp(l), kDiffusionX0Weight("snr", std::exp(l), sd)};
               }});
  c.push_back({"k-diffusion",
               "image",
               "soft-min-snr",
               "v-diffusion + soft-min-snr",
               {0.001, 1000.0},
               [=](auto& g) mutable {  // rand_v_diffusion
                 const double a = std::atan(0.001 / sd) * 2.0 / kPi;
                 const double b = std::atan(1000.0 / sd) * 2.0 / kPi;
                 const double s = std::tan((a + (b - a) * uniform(g)) * kPi / 2.0) * sd;
                 return Draw{s, kDiffusionX0Weight("soft-min-snr", s, sd)};
               }});
  c.push_back({"k-diffusion", "image", "karras", "lognormal", {-1.2, 1.2}, [=](auto& g) mutable {
                 const double s = std::exp(-1.2 + 1.2 * normal(g));
                 return Draw{s, kDiffusionX0Weight("karras", s, sd)};
               }});
  return c;
}

const TrainerFamily& familyOf(const TrainerTool& tool, const std::string& name) {
  for (const auto& f : tool.families)
    if (f.name == name) return f;
  throw std::runtime_error("no family '" + name + "' in " + tool.name + " " + tool.model);
}

int coarseBin(double logSigma) {
  return std::clamp(static_cast<int>((logSigma - kLow) / (kHigh - kLow) * kCoarseBins), 0,
                    kCoarseBins - 1);
}

// φ per coarse bin from the tool's own draws (inside 0.002 … 80), normalised.
std::vector<double> realisedPhi(const Case& c) {
  std::mt19937_64 generator(31);
  std::vector<double> phi(kCoarseBins, 0.0);
  double total = 0.0;
  for (int i = 0; i < kDraws; ++i) {
    const Draw d = c.draw(generator);
    if (!(d.sigma > 0.0)) continue;
    const double l = std::log(d.sigma);
    if (l < kLow || l >= kHigh) continue;
    phi[coarseBin(l)] += d.weight;
    total += d.weight;
  }
  for (auto& p : phi) p /= total;
  return phi;
}

// φ the fit reports for the same knobs, on fit's 256-bin grid, gathered into the coarse bins.
std::vector<double> reportedPhi(const Case& c) {
  TrainerSettings settings;
  settings.model = c.model;
  settings.lossWeighting = c.weighting;
  settings.modelError = c.modelError;
  settings.noisingStrengthMin = c.noisingStrength.first;
  settings.noisingStrengthMax = c.noisingStrength.second;
  settings.timestepMin = c.timestepWindow.first;
  settings.timestepMax = c.timestepWindow.second;
  settings.preserveDistributionShape = c.preserveDistributionShape;
  const TrainerTool tool = trainerTool(c.tool, settings);
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
  const auto masses = familyAllocationMasses(tool, familyOf(tool, c.family), c.params, grid);
  std::vector<double> phi(kCoarseBins, 0.0);
  for (int b = 0; b < grid.bins(); ++b) phi[coarseBin(grid.center(b))] += masses[b];
  return phi;
}

}  // namespace

class TestTrainerModels : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void realisedPhiMatchesTheReportedPhi() {
    for (const auto& c : cases()) {
      const auto realised = realisedPhi(c), reported = reportedPhi(c);
      double tv = 0.0;
      for (int b = 0; b < kCoarseBins; ++b) tv += 0.5 * std::abs(realised[b] - reported[b]);
      const QByteArray name = QByteArray::fromStdString(c.tool + " " + c.model + " " + c.family);
      qInfo("%s: TV %.4f", name.constData(), tv);
      QVERIFY2(tv < 0.03, name + " TV " + QByteArray::number(tv));
    }
  }

  void everyModelIsCoveredAndNamed() {
    std::set<std::string> pairs;
    for (const auto& c : cases()) pairs.insert(c.tool + " " + c.model);
    for (const std::string tool : {"diffusers", "sd-scripts", "musubi-tuner", "onetrainer",
                                   "simpletuner", "ai-toolkit", "edm", "edm2", "k-diffusion"})
      for (const auto& model : trainerModelNames(tool)) {
        TrainerSettings s;
        s.model = model;
        const TrainerTool t = trainerTool(tool, s);
        QCOMPARE(QString::fromStdString(t.model), QString::fromStdString(model));
        QVERIFY(!t.modelNote.empty());
        QVERIFY2(pairs.count(tool + " " + model),
                 QByteArray::fromStdString(tool + " " + model + " has no realised-φ case"));
      }
  }

  void defaultModelIsTheFirstAndSaid() {
    QCOMPARE(QString::fromStdString(trainerTool("diffusers").model), QString("flux"));
    QCOMPARE(QString::fromStdString(trainerTool("onetrainer").model), QString("flux"));
    QCOMPARE(QString::fromStdString(trainerTool("edm").model), QString("edm"));
    QCOMPARE(QString::fromStdString(trainerTool("k-diffusion").model), QString("image"));
  }

  void kDiffusionSnippetsSetSigmaDataAndTheirWeighting() {
    // The loader's default sigma_data is 1.0, so every snippet sets the σ_d it was fitted for.
    TrainerSettings s;
    s.sigmaData = 0.6162;
    const TrainerTool t = trainerTool("k-diffusion", s);
    QCOMPARE(QString::fromStdString(trainerLossWeightings("k-diffusion").front()),
             QString("karras"));
    for (const auto& f : t.families) {
      std::vector<double> p;
      for (const auto& d : f.parameters) p.push_back(d.initial);
      const QString snippet = QString::fromStdString(f.snippet(p));
      QVERIFY2(snippet.contains("\"sigma_data\": 0.6162"), qPrintable(snippet));
      QVERIFY2(snippet.contains("\"loss_weighting\": \"" + QString::fromStdString(f.weighting)),
               qPrintable(snippet));
    }
    // σ_d moves the soft-min-snr weight: 1/(σ² + σ_d²) in x0 space.
    const TrainerFamily& f = familyOf(t, "lognormal + soft-min-snr");
    QVERIFY(std::abs(trainerX0Weight(t, f, {-1.2, 1.2}, 0.3) - 1.0 / (0.09 + 0.6162 * 0.6162)) <
            1e-9);
  }

  void sd3InDiffusersHasNoNoneAndTrainsX0() {
    TrainerSettings s;
    s.model = "sd3";
    const TrainerTool t = trainerTool("diffusers", s);
    for (const auto& f : t.families) QVERIFY(f.name != "none");
    QCOMPARE(t.lossToX0(0.1), 1.0);
    QVERIFY(QString::fromStdString(familyOf(t, "logit_normal").snippet({0.0, 1.0}))
                .contains("--precondition_outputs 1"));
  }

  void lossWeightingSelectsTheToolsOption() {
    TrainerSettings s;
    s.model = "sdxl";
    s.lossWeighting = "min_snr_gamma";
    const TrainerTool t = trainerTool("sd-scripts", s);
    QVERIFY(!t.families.empty());
    for (const auto& f : t.families)
      QCOMPARE(QString::fromStdString(f.weighting), QString("min_snr_gamma"));
    // Fitting γ recovers a member: min(SNR, 2) on the uniform draw.
    const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
    const TrainerFamily& f = familyOf(t, "uniform + min_snr_gamma");
    const auto target = familyAllocationMasses(t, f, {2.0}, grid);
    const auto fit = fitTrainerFamily(t, f, grid, target);
    QVERIFY2(std::abs(fit.parameters.front().second - 2.0) < 0.02,
             QByteArray::number(fit.parameters.front().second));
    QVERIFY(QString::fromStdString(fit.snippet).contains("--min_snr_gamma 2"));
  }

  void musubiWeightingSchemeIsTheDrawOnlyInTheSigmaMode() {
    // --weighting_scheme sigma_sqrt weights every other mode's loss, and in the sigma mode is that
    // mode's own scheme: no "sigma + logit_normal + sigma_sqrt", and ideogram4's loss ignores it.
    TrainerSettings s;
    s.lossWeighting = "sigma_sqrt";
    const TrainerTool t = trainerTool("musubi-tuner", s);
    std::set<std::string> names;
    for (const auto& f : t.families) names.insert(f.name);
    for (const std::string name : {"sigma + sigma_sqrt", "shift + sigma_sqrt",
                                   "qinglong_qwen + sigma_sqrt", "shift + window + sigma_sqrt"})
      QVERIFY2(names.count(name), name.c_str());
    for (const std::string name :
         {"sigma + logit_normal + sigma_sqrt", "sigma + sigma_sqrt + sigma_sqrt",
          "ideogram4_shift + sigma_sqrt"})
      QVERIFY2(!names.count(name), name.c_str());
    QVERIFY(QString::fromStdString(familyOf(t, "shift + sigma_sqrt").snippet({1.0, 3.0}))
                .contains("--weighting_scheme sigma_sqrt"));
    // Without a weighting asked for, the default draw (sigma) gets no combined family.
    for (const auto& f : trainerTool("musubi-tuner").families)
      QVERIFY2(f.name.find("+ sigma_sqrt") == std::string::npos || f.name == "sigma + sigma_sqrt",
               f.name.c_str());
  }

  void cubicKnotsReproduceATarget() {
    // The free-form family is the target itself, up to its knots: fitted to a sigmoid draw's φ
    // (a smooth target in t), it leaves little mismatch, and its JSON knob is a list.
    const TrainerTool t = trainerTool("simpletuner");
    const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
    const auto target = familyAllocationMasses(t, familyOf(t, "sigmoid"), {1.2, 2.0}, grid);
    const auto fit = fitTrainerFamily(t, familyOf(t, "cubic"), grid, target);
    qInfo("cubic knots on a sigmoid target: TV %.4f, KL %.4f", fit.tv, fit.kl);
    QVERIFY2(fit.tv < 0.03, QByteArray::number(fit.tv));
    QCOMPARE(static_cast<int>(fit.parameters.size()), 129);
    QVERIFY(QString::fromStdString(fit.snippet).contains("\"flow_cubic_schedule_weights\": ["));
    QVERIFY(QString::fromStdString(fit.snippet).contains("\"flow_schedule_shift\": 0"));
  }

  void timestepBiasKnobsAreRecovered() {
    // A target made by one member of each --timestep_bias_strategy family is fitted back to its
    // knobs, and the snippet carries them as train_text_to_image_sdxl.py spells them.
    TrainerSettings s;
    s.model = "sdxl";
    const TrainerTool t = trainerTool("diffusers", s);
    const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
    const TrainerFamily& later = familyOf(t, "later");
    const auto fit =
        fitTrainerFamily(t, later, grid, familyAllocationMasses(t, later, {4.0, 0.3}, grid));
    qInfo("later {4, 0.3}: fitted %.4f, %.4f, TV %.5f", fit.parameters[0].second,
          fit.parameters[1].second, fit.tv);
    QVERIFY2(std::abs(fit.parameters[0].second - 4.0) < 0.04,
             QByteArray::number(fit.parameters[0].second));
    QCOMPARE(fit.parameters[1].second, 0.3);  // the portion as int(portion·1000) reads it
    QVERIFY(fit.tv < 0.002);
    const QString snippet = QString::fromStdString(fit.snippet);
    QVERIFY2(snippet.contains("--timestep_bias_strategy later --timestep_bias_multiplier 4"),
             qPrintable(snippet));
    QVERIFY2(snippet.contains("--timestep_bias_portion 0.300"), qPrintable(snippet));
    // range: begin and end are integers, end excluded as in the script's slice.
    const TrainerFamily& range = familyOf(t, "range");
    const auto r =
        fitTrainerFamily(t, range, grid, familyAllocationMasses(t, range, {6.0, 150, 480}, grid));
    qInfo("range {6, 150, 480}: fitted %.4f, %.1f, %.1f, TV %.5f", r.parameters[0].second,
          r.parameters[1].second, r.parameters[2].second, r.tv);
    QVERIFY2(r.tv < 0.01, QByteArray::number(r.tv));
    // Reported as the tool reads them: begin and end integers, as the snippet prints them.
    QCOMPARE(r.parameters[1].second, 150.0);
    QCOMPARE(r.parameters[2].second, 480.0);
    QVERIFY2(QString::fromStdString(r.snippet).contains(
                 "--timestep_bias_begin 150 --timestep_bias_end 480  #"),
             r.snippet.c_str());
    // The bias flags exist only in the full fine-tune script; the other models have no bias.
    s.model = "sd15";
    for (const auto& f : trainerTool("diffusers", s).families) QVERIFY(f.name != "later");
  }

  void aiToolkitWindowKnobsAreRecovered() {
    // min_denoising_steps / max_denoising_steps are integers in the job YAML: a target made by one
    // window is fitted back to it, and the snippet carries them as the YAML reads them.
    TrainerSettings s;
    s.model = "zimage";
    const TrainerTool t = trainerTool("ai-toolkit", s);
    const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
    const TrainerFamily& f = familyOf(t, "linear + window");
    const auto fit = fitTrainerFamily(t, f, grid, familyAllocationMasses(t, f, {120, 530}, grid));
    qInfo("linear + window {120, 530}: fitted %.0f, %.0f, TV %.5f", fit.parameters[0].second,
          fit.parameters[1].second, fit.tv);
    QVERIFY2(fit.tv < 0.01, QByteArray::number(fit.tv));
    QVERIFY(std::abs(fit.parameters[0].second - 120.0) <= 3.0);
    QVERIFY(std::abs(fit.parameters[1].second - 530.0) <= 3.0);
    QVERIFY2(QString::fromStdString(fit.snippet).contains("\n  min_denoising_steps: "),
             fit.snippet.c_str());
  }

  void unknownModelAndWeightingNameTheirFlags() {
    TrainerSettings s;
    s.model = "sd3";
    try {
      trainerTool("musubi-tuner", s);
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString(settings::kTrainerModel));
      QVERIFY(QString(e.what()).contains("flux"));
    }
    s.model = "sdxl";
    s.lossWeighting = "soft-min-snr";
    try {
      trainerTool("sd-scripts", s);
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString(settings::kTrainerLossWeighting));
      QVERIFY(QString(e.what()).contains("min_snr_gamma"));
    }
  }
};

QTEST_APPLESS_MAIN(TestTrainerModels)
#include "test_trainer_models.moc"
