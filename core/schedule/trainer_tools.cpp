// The nine tools' sampling families, each written from that tool's own draw (docs/trainers.md
// names the file of every one). Densities are per unit of the tool's coordinate.
#include <cmath>
#include <cstdio>
#include <string>

#include "schedule/trainer_families.h"
#include "util/error.h"

namespace noisescope::schedule {
namespace {

using Params = std::vector<double>;
constexpr double kPi = 3.14159265358979323846;

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

double normalPdf(double z) {
  return std::exp(-0.5 * z * z) / std::sqrt(2.0 * kPi);
}

// logit t ~ N(m, s²): the sigmoid of a normal draw.
double logitNormal(double t, double m, double s) {
  if (!(t > 0.0 && t < 1.0) || !(s > 0.0)) return 0.0;
  return normalPdf((std::log(t / (1.0 - t)) - m) / s) / (s * t * (1.0 - t));
}

// t = a·t0/(1 + (a − 1)·t0) with t0 uniform: σ multiplied by a.
double shiftedUniform(double t, double a) {
  if (!(t >= 0.0 && t <= 1.0) || !(a > 0.0)) return 0.0;
  const double d = a - (a - 1.0) * t;
  return a / (d * d);
}

double betaPdf(double t, double alpha, double beta) {
  if (!(t > 0.0 && t < 1.0) || !(alpha > 0.0 && beta > 0.0)) return 0.0;
  const double logB = std::lgamma(alpha) + std::lgamma(beta) - std::lgamma(alpha + beta);
  return std::exp((alpha - 1.0) * std::log(t) + (beta - 1.0) * std::log1p(-t) - logB);
}

// SD3's "mode" map g(u) = u + s·(cos²(πu/2) − 1 + u) of a uniform u; monotone for −1 < s < 1.75.
double modeMap(double u, double s) {
  const double c = std::cos(kPi * u / 2.0);
  return u + s * (c * c - 1.0 + u);
}
// Density of g(U) at t: 1/g'(g⁻¹(t)), g⁻¹ by bisection.
double modeDensity(double t, double s) {
  if (!(t >= 0.0 && t <= 1.0)) return 0.0;
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (modeMap(mid, s) < t ? lo : hi) = mid;
  }
  const double u = 0.5 * (lo + hi);
  const double slope = 1.0 + s * (1.0 - kPi / 2.0 * std::sin(kPi * u));
  return slope > 0.0 ? 1.0 / slope : 0.0;
}

double softplus(double x) {
  return x > 30.0 ? x : std::log1p(std::exp(x));
}
// OneTrainer's SIGMOID weights: ∝ 1/(1 + e^{−w(x − c)}) on [0, 1], normalised in closed form.
double sigmoidWeights(double x, double w, double c) {
  if (!(x >= 0.0 && x <= 1.0)) return 0.0;
  if (std::abs(w) < 1e-8) return 1.0;
  const double z = (softplus(w * (1.0 - c)) - softplus(-w * c)) / w;
  return 1.0 / (1.0 + std::exp(-w * (x - c))) / z;
}

double logNormalSigma(double sigma, double mean, double std) {
  if (!(sigma > 0.0) || !(std > 0.0)) return 0.0;
  return normalPdf((std::log(sigma) - mean) / std) / (std * sigma);
}

// EDM's λ(σ) = (σ² + σ_d²)/(σ·σ_d)² on x0 error (NVlabs/edm training/loss.py, σ_d = 0.5).
double edmWeight(double sigma) {
  constexpr double d = 0.5;
  return (sigma * sigma + d * d) / (sigma * d * sigma * d);
}

double one(double) {
  return 1.0;
}
double flowVelocityToX0(double sigma) {  // velocity MSE = x0 MSE·(1 + 1/σ)² (THEORY §12)
  const double f = 1.0 + 1.0 / sigma;
  return f * f;
}
double epsilonToX0(double sigma) {
  return 1.0 / (sigma * sigma);
}
double flowT(double sigma) {
  return sigma / (1.0 + sigma);
}

TrainerParameter param(std::string name, double initial, double lower, double upper,
                       bool logScale = false) {
  return {std::move(name), initial, lower, upper, logScale};
}

TrainerTool flowTool(std::string name, std::string knob) {
  TrainerTool t;
  t.name = std::move(name);
  t.coordinate = TrainerCoordinate::FlowTime;
  t.lossSpace = "flow velocity (noise − x0)";
  t.lossToX0 = flowVelocityToX0;
  t.sigmaMin = 0.0;
  t.sigmaMax = INFINITY;
  t.knob = std::move(knob);
  return t;
}

TrainerTool diffusers() {
  TrainerTool t = flowTool("diffusers",
                           "command-line flags of the flow-matching example scripts "
                           "(examples/dreambooth/train_dreambooth_flux.py, …_sd3.py)");
  const std::string fixedShift =
      "index u·1000 into the scheduler's descending sigmas, so t = 1 − u; the training "
      "scheduler's static shift taken as 1 (Flux: dynamic shifting leaves it off)";
  t.families.push_back({"logit_normal",
                        {param("logit_mean", 0.0, -4.0, 4.0), param("logit_std", 1.0, 0.05, 5.0)},
                        [](double u, const Params& p) { return logitNormal(u, -p[0], p[1]); },
                        one,
                        [](const Params& p) {
                          return "--weighting_scheme logit_normal --logit_mean " + num(p[0]) +
                                 " --logit_std " + num(p[1]) +
                                 "\n# a scheduler with static shift a (SD3: 3.0): use logit_mean " +
                                 num(p[0]) + " + ln a";
                        },
                        fixedShift});
  t.families.push_back(
      {"mode",
       {param("mode_scale", 1.29, -0.95, 1.7)},
       [](double u, const Params& p) { return modeDensity(u, p[0]); },
       one,
       [](const Params& p) { return "--weighting_scheme mode --mode_scale " + num(p[0]); },
       fixedShift});
  t.families.push_back({"cosmap",
                        {},
                        [](double u, const Params&) { return shiftedUniform(u, 1.0); },
                        [](double sigma) {
                          const double x = flowT(sigma);
                          return 2.0 / (kPi * (1.0 - 2.0 * x + 2.0 * x * x));
                        },
                        [](const Params&) { return std::string("--weighting_scheme cosmap"); },
                        "uniform t, loss weighted 2/(π(1 − 2t + 2t²))"});
  t.families.push_back({"sigma_sqrt",
                        {},
                        [](double u, const Params&) { return shiftedUniform(u, 1.0); },
                        [](double sigma) {
                          const double x = flowT(sigma);
                          return 1.0 / (x * x);
                        },
                        [](const Params&) { return std::string("--weighting_scheme sigma_sqrt"); },
                        "uniform t, loss weighted t⁻²"});
  t.families.push_back({"none",
                        {},
                        [](double u, const Params&) { return shiftedUniform(u, 1.0); },
                        one,
                        [](const Params&) { return std::string("--weighting_scheme none"); },
                        "uniform t"});
  return t;
}

// sd-scripts (library/flux_train_utils.py) and musubi-tuner (hv_train_network.py) share these.
void kohyaFamilies(TrainerTool& t, const TrainerSettings& settings, const std::string& extra) {
  t.families.push_back(
      {"shift",
       {param("sigmoid_scale", 1.0, 0.05, 5.0),
        param("discrete_flow_shift", 3.0, 0.02, 50.0, true)},
       [](double u, const Params& p) { return logitNormal(u, std::log(p[1]), p[0]); },
       one,
       [extra](const Params& p) {
         return "--timestep_sampling shift --sigmoid_scale " + num(p[0]) +
                " --discrete_flow_shift " + num(p[1]) + extra;
       },
       "t = shift(sigmoid(sigmoid_scale·z))"});
  t.families.push_back({"sigmoid",
                        {param("sigmoid_scale", 1.0, 0.05, 5.0)},
                        [](double u, const Params& p) { return logitNormal(u, 0.0, p[0]); },
                        one,
                        [extra](const Params& p) {
                          return "--timestep_sampling sigmoid --sigmoid_scale " + num(p[0]) + extra;
                        },
                        "t = sigmoid(sigmoid_scale·z), no shift"});
  const double mu = fluxShiftMu(settings);
  const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
  t.families.push_back({"flux_shift",
                        {param("sigmoid_scale", 1.0, 0.05, 5.0)},
                        [mu](double u, const Params& p) { return logitNormal(u, mu, p[0]); },
                        one,
                        [extra, mu, size](const Params& p) {
                          return "--timestep_sampling flux_shift --sigmoid_scale " + num(p[0]) +
                                 extra + "\n# at " + size + " px Flux's rule sets mu = " + num(mu) +
                                 " (σ × " + num(std::exp(mu)) + ")";
                        },
                        "μ from the image's token count at " + size + " px: " + num(mu)});
  t.families.push_back({"uniform",
                        {},
                        [](double u, const Params&) { return shiftedUniform(u, 1.0); },
                        one,
                        [extra](const Params&) { return "--timestep_sampling uniform" + extra; },
                        "uniform t"});
}

TrainerTool sdScripts(const TrainerSettings& settings) {
  TrainerTool t =
      flowTool("sd-scripts", "command-line flags of flux_train_network.py / sd3_train_network.py");
  // raw: the loss stays on the velocity; sigma_scaled would move it to x0 with its own weighting.
  kohyaFamilies(t, settings, " --model_prediction_type raw --weighting_scheme none");
  return t;
}

TrainerTool musubi(const TrainerSettings& settings) {
  TrainerTool t = flowTool("musubi-tuner",
                           "command-line flags of hv_train_network.py, wan_train_network.py, …");
  kohyaFamilies(t, settings, "");
  return t;
}

// SimpleTuner (helpers/models/common.py, prepare_batch; helpers/training/custom_schedule.py,
// apply_flow_schedule_shift): every draw — sigmoid, uniform, beta — goes through the same shift,
// a static flow_schedule_shift when it is > 0, else Flux's μ rule when flow_schedule_auto_shift.
TrainerTool simpleTuner(const TrainerSettings& settings) {
  TrainerTool t =
      flowTool("simpletuner", "config.json keys (or the same flags on the command line)");
  t.families.push_back(
      {"sigmoid",
       {param("flow_sigmoid_scale", 1.0, 0.05, 5.0),
        param("flow_schedule_shift", 3.0, 0.02, 50.0, true)},
       [](double u, const Params& p) { return logitNormal(u, std::log(p[1]), p[0]); },
       one,
       [](const Params& p) {
         return "\"flow_sigmoid_scale\": " + num(p[0]) +
                ",\n\"flow_schedule_shift\": " + num(p[1]) +
                ",\n\"flow_schedule_auto_shift\": false";
       },
       "the default: sigmoid of a scaled normal, then the shift"});
  // flow_schedule_shift 0 and auto shift: σ × e^μ, μ from the latent's (H/8)(W/8)/4 tokens
  // between Flux's scheduler ends (256, 0.5) and (4096, 1.15).
  const double mu = fluxShiftMu(settings);
  const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
  t.families.push_back(
      {"auto_shift",
       {param("flow_sigmoid_scale", 1.0, 0.05, 5.0)},
       [mu](double u, const Params& p) { return logitNormal(u, mu, p[0]); },
       one,
       [mu, size](const Params& p) {
         return "\"flow_sigmoid_scale\": " + num(p[0]) +
                ",\n\"flow_schedule_shift\": 0,\n\"flow_schedule_auto_shift\": true\n# at " + size +
                " px the auto shift is e^" + num(mu) + " = " + num(std::exp(mu));
       },
       "sigmoid, then Flux's resolution rule: μ = " + num(mu) + " at " + size + " px"});
  t.families.push_back(
      {"beta",
       {param("flow_beta_schedule_alpha", 2.0, 0.1, 20.0, true),
        param("flow_beta_schedule_beta", 2.0, 0.1, 20.0, true)},
       [](double u, const Params& p) { return betaPdf(u, p[0], p[1]); },
       one,
       [](const Params& p) {
         return "\"flow_use_beta_schedule\": true,\n\"flow_beta_schedule_alpha\": " + num(p[0]) +
                ",\n\"flow_beta_schedule_beta\": " + num(p[1]) +
                ",\n\"flow_schedule_shift\": 0,\n\"flow_schedule_auto_shift\": false";
       },
       "shift 0 and auto shift off, so t is the beta draw itself"});
  t.families.push_back({"uniform",
                        {param("flow_schedule_shift", 3.0, 0.02, 50.0, true)},
                        [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
                        one,
                        [](const Params& p) {
                          return "\"flow_use_uniform_schedule\": true,\n\"flow_schedule_shift\": " +
                                 num(p[0]);
                        },
                        "uniform t, then the shift"});
  return t;
}

TrainerTool aiToolkit(const TrainerSettings& settings) {
  TrainerTool t = flowTool("ai-toolkit", "the job YAML, train: section");
  t.families.push_back({"shift",
                        {param("shift", 3.0, 0.02, 50.0, true)},
                        [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
                        one,
                        [](const Params& p) {
                          return "train:\n  timestep_type: shift\n# the noise scheduler's config "
                                 "shift: " +
                                 num(p[0]) + " (use_dynamic_shifting: false)";
                        },
                        "an evenly spaced t grid, shifted, drawn uniformly"});
  t.families.push_back(
      {"sigmoid",
       {},
       [](double u, const Params&) { return logitNormal(u, 0.0, 1.0); },
       one,
       [](const Params&) { return std::string("train:\n  timestep_type: sigmoid"); },
       "sigmoid of a standard normal; no knob"});
  const double mu = fluxShiftMu(settings, 1.16);
  const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
  t.families.push_back(
      {"flux_shift",
       {},
       [mu](double u, const Params&) { return shiftedUniform(u, std::exp(mu)); },
       one,
       [](const Params&) { return std::string("train:\n  timestep_type: flux_shift"); },
       "σ × e^μ with μ from the token count at " + size + " px: " + num(mu)});
  t.families.push_back(
      {"linear",
       {},
       [](double u, const Params&) { return shiftedUniform(u, 1.0); },
       one,
       [](const Params&) { return std::string("train:\n  timestep_type: linear"); },
       "uniform t"});
  return t;
}

TrainerTool oneTrainer() {
  TrainerTool t;
  t.name = "onetrainer";
  t.coordinate = TrainerCoordinate::DdpmTime;
  t.lossSpace = "epsilon (SD 1.5/SDXL)";
  t.lossToX0 = epsilonToX0;
  t.sigmaMin = ddpmSigma(0);
  t.sigmaMax = ddpmSigma(999);
  t.knob = "the training config JSON (the UI's Training tab, noise section)";
  const std::string tail = ",\n\"min_noising_strength\": 0.0,\n\"max_noising_strength\": 1.0";
  t.families.push_back(
      {"LOGIT_NORMAL",
       {param("noising_bias", 0.0, -4.0, 4.0), param("noising_weight", 0.0, -0.95, 5.0)},
       [](double u, const Params& p) { return logitNormal(u, p[0], p[1] + 1.0); },
       one,
       [tail](const Params& p) {
         return "\"timestep_distribution\": \"LOGIT_NORMAL\",\n\"noising_bias\": " + num(p[0]) +
                ",\n\"noising_weight\": " + num(p[1]) + ",\n\"timestep_shift\": 1.0" + tail;
       },
       "timestep = ⌊1000·sigmoid(N(bias, weight + 1))⌋"});
  t.families.push_back(
      {"SIGMOID",
       {param("noising_bias", 0.0, -0.5, 0.5), param("noising_weight", 1.0, -40.0, 40.0)},
       [](double u, const Params& p) { return sigmoidWeights(u, p[1], p[0] + 0.5); },
       one,
       [tail](const Params& p) {
         return "\"timestep_distribution\": \"SIGMOID\",\n\"noising_bias\": " + num(p[0]) +
                ",\n\"noising_weight\": " + num(p[1]) + ",\n\"timestep_shift\": 1.0" + tail;
       },
       "weights ∝ sigmoid(weight·(k/1000 − bias − 0.5))"});
  t.families.push_back(
      {"HEAVY_TAIL",
       {param("noising_weight", 0.0, -0.95, 1.7)},
       [](double u, const Params& p) { return modeDensity(1.0 - u, p[0]); },
       one,
       [tail](const Params& p) {
         return "\"timestep_distribution\": \"HEAVY_TAIL\",\n\"noising_weight\": " + num(p[0]) +
                ",\n\"timestep_shift\": 1.0" + tail;
       },
       "SD3's mode map with scale = noising_weight"});
  t.families.push_back(
      {"UNIFORM",
       {param("timestep_shift", 1.0, 0.02, 50.0, true)},
       [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
       one,
       [tail](const Params& p) {
         return "\"timestep_distribution\": \"UNIFORM\",\n\"timestep_shift\": " + num(p[0]) + tail;
       },
       "uniform timestep, then the shift"});
  return t;
}

TrainerTool sigmaTool(std::string name, std::string knob) {
  TrainerTool t;
  t.name = std::move(name);
  t.coordinate = TrainerCoordinate::Sigma;
  t.lossSpace = "x0 with EDM's weight λ(σ), σ_d = 0.5";
  t.lossToX0 = one;
  t.sigmaMin = 0.0;
  t.sigmaMax = INFINITY;
  t.knob = std::move(knob);
  return t;
}

TrainerTool edm(bool second) {
  TrainerTool t = second ? sigmaTool("edm2", "the preset's loss_kwargs in train_edm2.py")
                         : sigmaTool("edm", "EDMLoss's arguments, set in train.py");
  const double mean = second ? -0.4 : -1.2, std = second ? 1.0 : 1.2;
  t.families.push_back(
      {"lognormal",
       {param("P_mean", mean, -5.0, 5.0), param("P_std", std, 0.05, 5.0)},
       [](double u, const Params& p) { return logNormalSigma(u, p[0], p[1]); },
       edmWeight,
       [second](const Params& p) {
         if (second)
           return "loss_kwargs=dict(class_name='training.training_loop.EDM2Loss', P_mean=" +
                  num(p[0]) + ", P_std=" + num(p[1]) + ", sigma_data=0.5)";
         return "c.loss_kwargs.update(P_mean=" + num(p[0]) + ", P_std=" + num(p[1]) +
                ")  # in train.py, after the --precond edm branch";
       },
       second ? "the learned log-variance weighting is left out (it flattens the loss per σ)"
              : "σ = exp(P_mean + P_std·z)"});
  return t;
}

TrainerTool kDiffusion() {
  TrainerTool t = sigmaTool("k-diffusion", "the model config JSON, model.sigma_sample_density");
  t.families.push_back({"lognormal",
                        {param("mean", -1.2, -5.0, 5.0), param("std", 1.2, 0.05, 5.0)},
                        [](double u, const Params& p) { return logNormalSigma(u, p[0], p[1]); },
                        edmWeight,
                        [](const Params& p) {
                          return "\"sigma_sample_density\": {\"type\": \"lognormal\", \"mean\": " +
                                 num(p[0]) + ", \"std\": " + num(p[1]) + "}";
                        },
                        "loss_config karras (EDM's weight), sigma_data 0.5"});
  t.families.push_back({"loglogistic",
                        {param("loc", -1.2, -5.0, 5.0), param("scale", 0.6, 0.03, 3.0)},
                        [](double u, const Params& p) {
                          if (!(u > 0.0)) return 0.0;
                          const double z = (std::log(u) - p[0]) / p[1];
                          const double e = std::exp(-std::abs(z));
                          return e / (p[1] * (1.0 + e) * (1.0 + e) * u);
                        },
                        edmWeight,
                        [](const Params& p) {
                          return "\"sigma_sample_density\": {\"type\": \"loglogistic\", \"loc\": " +
                                 num(p[0]) + ", \"scale\": " + num(p[1]) +
                                 ", \"min_value\": 0.002, \"max_value\": 80}";
                        },
                        "log σ logistic(loc, scale), cut to [min_value, max_value]"});
  t.families.push_back(
      {"loguniform",
       {param("min_value", 0.01, 0.002, 10.0, true), param("max_value", 10.0, 0.01, 80.0, true)},
       [](double u, const Params& p) {
         if (!(p[1] > p[0]) || u < p[0] || u > p[1]) return 0.0;
         return 1.0 / (u * std::log(p[1] / p[0]));
       },
       edmWeight,
       [](const Params& p) {
         return "\"sigma_sample_density\": {\"type\": \"loguniform\", "
                "\"min_value\": " +
                num(p[0]) + ", \"max_value\": " + num(p[1]) + "}";
       },
       "log σ uniform on [min_value, max_value]"});
  t.families.push_back({"v-diffusion",
                        {param("sigma_data", 0.5, 0.01, 20.0, true)},
                        [](double u, const Params& p) {
                          if (!(u > 0.0)) return 0.0;
                          const double r = u / p[0];  // σ = σ_d·tan(πv/2), v uniform
                          return 2.0 / (kPi * p[0] * (1.0 + r * r));
                        },
                        edmWeight,
                        [](const Params& p) {
                          return "\"sigma_sample_density\": {\"type\": \"v-diffusion\", "
                                 "\"min_value\": 0.002, \"max_value\": 80}\n# with the "
                                 "model's \"sigma_data\": " +
                                 num(p[0]) + " (it also sets the loss weight's σ_d)";
                        },
                        "half-Cauchy in σ of scale sigma_data"});
  return t;
}

}  // namespace

std::vector<std::string> trainerToolNames() {
  return {"diffusers",  "sd-scripts", "musubi-tuner", "onetrainer", "simpletuner",
          "ai-toolkit", "edm",        "edm2",         "k-diffusion"};
}

TrainerTool trainerTool(const std::string& name, const TrainerSettings& settings,
                        const std::string& source) {
  if (settings.width < 16 || settings.height < 16)
    throw InputError("--resolution", "the image must be at least 16×16 pixels");
  if (name == "diffusers") return diffusers();
  if (name == "sd-scripts") return sdScripts(settings);
  if (name == "musubi-tuner") return musubi(settings);
  if (name == "onetrainer") return oneTrainer();
  if (name == "simpletuner") return simpleTuner(settings);
  if (name == "ai-toolkit") return aiToolkit(settings);
  if (name == "edm") return edm(false);
  if (name == "edm2") return edm(true);
  if (name == "k-diffusion") return kDiffusion();
  std::string names;
  for (const auto& n : trainerToolNames()) names += (names.empty() ? "" : ", ") + n;
  throw InputError(source, "unknown tool '" + name + "' (one of: " + names + ")");
}

}  // namespace noisescope::schedule
