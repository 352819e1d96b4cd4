// crowsonkb's k-diffusion (docs/trainers.md): σ drawn by k_diffusion/config.py
// make_sample_density (the rand_* draws of k_diffusion/utils.py), the preconditioned x0 loss of
// k_diffusion/layers.py Denoiser.loss with its c_weight, and sigma_data read by both. The loader
// (config.py load_config) defaults sigma_data to 1.0; every shipped config sets it (0.5, or 0.6162
// for MNIST) and trains soft-min-snr on a cosine-interpolated draw.
#include <algorithm>
#include <cmath>
#include <vector>

#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {
namespace {

// rand_cosine_interpolated's log-SNR at u: the cosine schedule shifted for noise_d_low and for
// noise_d_high, interpolated linearly in u; and its derivative in u.
struct CosineInterpolated {
  double imageD, sigmaData, minValue, maxValue;

  // The cosine schedule shifted to noise_d: its shift and the angles a, b at u = 0 and 1, which
  // depend on the knob only (worked out once per map, not per u).
  struct Shifted {
    double shift, a, b;
  };
  Shifted shifted(double noiseD) const {
    const double shift = 2.0 * std::log(noiseD / imageD);
    const double logsnrMin = -2.0 * std::log(maxValue / sigmaData) - shift;
    const double logsnrMax = -2.0 * std::log(minValue / sigmaData) - shift;
    return {shift, std::atan(std::exp(-0.5 * logsnrMax)), std::atan(std::exp(-0.5 * logsnrMin))};
  }
  // −2·log tan(a + u(b − a)) + shift, and d/du.
  static std::pair<double, double> shiftedCosine(double u, const Shifted& c) {
    const double theta = c.a + u * (c.b - c.a);
    return {-2.0 * std::log(std::tan(theta)) + c.shift, -4.0 * (c.b - c.a) / std::sin(2.0 * theta)};
  }
  // The map u ↦ log σ for one pair of knobs.
  struct Map {
    Shifted low, high;
    double logSigmaData;
    // log σ at u and d log σ/du (σ = σ_d·e^{−logsnr/2}).
    std::pair<double, double> operator()(double u) const {
      const auto [l, dl] = shiftedCosine(u, low);
      const auto [h, dh] = shiftedCosine(u, high);
      const double logsnr = (1.0 - u) * l + u * h;
      const double slope = h - l + (1.0 - u) * dl + u * dh;
      return {logSigmaData - 0.5 * logsnr, -0.5 * slope};
    }
  };
  Map map(double low, double high) const {
    return {shifted(low), shifted(high), std::log(sigmaData)};
  }
  // Density per unit σ at σ: Σ 1/|dσ/du| over every u that gives σ (u uniform on (0, 1)). The
  // interpolation between two shifted schedules need not be monotone in u (noise_d_low 32 for a
  // 1024-pixel image_d turns back near the middle), so the map is tabulated on a fine u grid, once
  // per knob values and thread, and every crossing is counted.
  double density(double sigma, double low, double high) const {
    if (!(sigma > 0.0) || !(low > 0.0) || !(high > 0.0)) return 0.0;
    constexpr int kSteps = 2048;
    struct Table {
      double imageD = 0, sigmaData = 0, low = 0, high = 0;
      std::vector<double> logSigma, slope;
    };
    thread_local Table table;
    if (table.logSigma.empty() || table.low != low || table.high != high ||
        table.imageD != imageD || table.sigmaData != sigmaData) {
      table = {imageD,
               sigmaData,
               low,
               high,
               std::vector<double>(kSteps + 1),
               std::vector<double>(kSteps + 1)};
      const Map logSigmaAt = map(low, high);
      for (int i = 0; i <= kSteps; ++i) {
        const auto [v, d] = logSigmaAt(double(i) / kSteps);
        table.logSigma[i] = v, table.slope[i] = d;
      }
    }
    const double target = std::log(sigma);
    double total = 0.0;
    for (int i = 0; i < kSteps; ++i) {
      const double a = table.logSigma[i], b = table.logSigma[i + 1];
      if ((a - target) * (b - target) > 0.0 || a == b || (b == target && i + 1 < kSteps)) continue;
      const double f = (target - a) / (b - a);
      const double slope = std::abs(table.slope[i] + f * (table.slope[i + 1] - table.slope[i]));
      if (slope > 0.0) total += 1.0 / (sigma * slope);
    }
    return total;
  }
};

// Denoiser's c_weight per weighting name, on the error of the scaled target (x0 error / c_out).
double lossWeight(const std::string& weighting, double sigma, double sigmaData) {
  const double s2 = sigma * sigma, d2 = sigmaData * sigmaData;
  if (weighting == "soft-min-snr") return s2 * d2 / ((s2 + d2) * (s2 + d2));
  if (weighting == "snr") return d2 / (s2 + d2);
  return 1.0;  // karras
}

// The draws a config can name, each without its loss weighting.
std::vector<TrainerFamily> draws(const TrainerSettings& settings) {
  const double sd = settings.sigmaData;
  const double imageD = std::max(settings.width, settings.height);
  std::vector<TrainerFamily> d;
  const CosineInterpolated cosine{imageD, sd, 1e-3, 1e3};
  d.push_back({"cosine-interpolated",
               {param("noise_d_low", 32.0, 1.0, 8192.0, true),
                param("noise_d_high", imageD, 1.0, 8192.0, true)},
               [cosine](double u, const Params& p) { return cosine.density(u, p[0], p[1]); },
               noWeight,
               [imageD](const Params& p) {
                 return "\"sigma_sample_density\": {\"type\": \"cosine-interpolated\", "
                        "\"image_d\": " +
                        num(imageD) + ", \"noise_d_low\": " + num(p[0]) +
                        ", \"noise_d_high\": " + num(p[1]) +
                        ", \"min_value\": 0.001, \"max_value\": 1000}";
               },
               "simple diffusion's shifted cosine log-SNR, interpolated from noise_d_low to "
               "noise_d_high; image_d the --resolution's larger side"});
  // φ from the map itself, u stepped so that log σ moves at most 0.01 per atom (the map is steep
  // at both ends, where the loss weights the most): where the interpolated map folds back, its
  // density has integrable infinities, which a quadrature in σ would miss.
  d.back().atoms = [cosine](const Params& p) {
    std::vector<std::pair<double, double>> atoms;
    const auto logSigma = cosine.map(p[0], p[1]);
    for (double u = 0.0; u < 1.0;) {
      const double slope = std::abs(logSigma(u).second);
      const double du = std::min({1e-3, 0.01 / std::max(slope, 1e-9), 1.0 - u});
      atoms.emplace_back(std::exp(logSigma(u + 0.5 * du).first), du);
      u += du;
    }
    return atoms;
  };

  d.push_back({"lognormal",
               {param("mean", -1.2, -5.0, 5.0), param("std", 1.2, 0.05, 5.0)},
               [](double u, const Params& p) { return logNormalSigma(u, p[0], p[1]); },
               noWeight,
               [](const Params& p) {
                 return "\"sigma_sample_density\": {\"type\": \"lognormal\", \"mean\": " +
                        num(p[0]) + ", \"std\": " + num(p[1]) + "}";
               },
               "σ = exp(mean + std·z)"});
  d.push_back({"split-lognormal",
               {param("mean", -1.2, -5.0, 5.0), param("std_1", 1.2, 0.05, 5.0),
                param("std_2", 1.2, 0.05, 5.0)},
               [](double u, const Params& p) {
                 if (!(u > 0.0) || !(p[1] > 0.0 && p[2] > 0.0)) return 0.0;
                 const double l = std::log(u), s = l < p[0] ? p[1] : p[2];
                 return 2.0 / (p[1] + p[2]) * normalPdf((l - p[0]) / s) / u;
               },
               noWeight,
               [](const Params& p) {
                 return "\"sigma_sample_density\": {\"type\": \"split-lognormal\", \"mean\": " +
                        num(p[0]) + ", \"std_1\": " + num(p[1]) + ", \"std_2\": " + num(p[2]) + "}";
               },
               "log σ: a half-normal of std_1 below mean, of std_2 above"});
  d.push_back({"loglogistic",
               {param("loc", -1.2, -5.0, 5.0), param("scale", 0.6, 0.03, 3.0)},
               [](double u, const Params& p) {
                 if (!(u > 0.0)) return 0.0;
                 const double z = (std::log(u) - p[0]) / p[1];
                 const double e = std::exp(-std::abs(z));
                 return e / (p[1] * (1.0 + e) * (1.0 + e) * u);
               },
               noWeight,
               [](const Params& p) {
                 return "\"sigma_sample_density\": {\"type\": \"loglogistic\", \"loc\": " +
                        num(p[0]) + ", \"scale\": " + num(p[1]) +
                        ", \"min_value\": 0.002, \"max_value\": 80}";
               },
               "log σ logistic(loc, scale), cut to [min_value, max_value]"});
  d.push_back(
      {"loguniform",
       {param("min_value", 0.01, 0.002, 10.0, true), param("max_value", 10.0, 0.01, 80.0, true)},
       [](double u, const Params& p) {
         if (!(p[1] > p[0]) || u < p[0] || u > p[1]) return 0.0;
         return 1.0 / (u * std::log(p[1] / p[0]));
       },
       noWeight,
       [](const Params& p) {
         return "\"sigma_sample_density\": {\"type\": \"loguniform\", \"min_value\": " + num(p[0]) +
                ", \"max_value\": " + num(p[1]) + "}";
       },
       "log σ uniform on [min_value, max_value]"});
  // rand_v_diffusion: σ = σ_d·tan(πv/2), v uniform between the bounds' CDF values. σ_d is the
  // data's (it also preconditions), so the knobs are the bounds.
  d.push_back({"v-diffusion",
               {param("min_value", 0.001, 0.0005, 10.0, true),
                param("max_value", 1000.0, 0.1, 2000.0, true)},
               [sd](double u, const Params& p) {
                 if (!(p[1] > p[0]) || u < p[0] || u > p[1]) return 0.0;
                 const double mass = std::atan(p[1] / sd) - std::atan(p[0] / sd);
                 return sd / ((u * u + sd * sd) * mass);
               },
               noWeight,
               [](const Params& p) {
                 return "\"sigma_sample_density\": {\"type\": \"v-diffusion\", \"min_value\": " +
                        num(p[0]) + ", \"max_value\": " + num(p[1]) + "}";
               },
               "half-Cauchy in σ of scale sigma_data, cut to [min_value, max_value]"});
  return d;
}

}  // namespace

ModelDefinition kDiffusion(const TrainerSettings& settings, const std::string&) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  const double sd = settings.sigmaData;
  t = sigmaTool("k-diffusion", "the \"model\" object of the training config JSON");
  t.lossSpace = "x0 / c_out (EDM's preconditioned target), σ_d = " + num(sd);
  t.lossToX0 = [sd](double sigma) { return edmWeight(sigma, sd); };  // 1/c_out²
  t.model = "image";
  t.modelNote =
      "the image configs (configs/config_*.json: image_v1 and image_transformer_v2), "
      "loss_config karras, sigma_data " +
      num(sd);
  // Every draw under each of Denoiser's weightings (they are options of one key, so each family
  // carries its own loss_weighting line).
  for (const char* weighting : {"karras", "soft-min-snr", "snr"})
    for (TrainerFamily f : draws(settings)) {
      const std::string w = weighting;
      f.toolWeight = [w, sd](double sigma, const Params&) { return lossWeight(w, sigma, sd); };
      const auto drawSnippet = f.snippet;
      f.snippet = [=](const Params& p) {
        return "\"sigma_data\": " + num(sd) + ",\n\"loss_weighting\": \"" + w + "\",\n" +
               drawSnippet(p);
      };
      if (w != "karras") f.name += " + " + w;
      f.weighting = w;
      t.families.push_back(f);
    }
  m.defaultDraw = "cosine-interpolated";
  m.baseWeighting = "karras";
  return m;
}

}  // namespace noisescope::schedule::trainers
