// kohya-ss's sd-scripts per model family (docs/trainers.md), and the Flux-style families it shares
// with musubi-tuner (musubi.cpp). Flux:
// library/flux_train_utils.py get_noisy_model_input_and_timesteps; SD3: library/sd3_train_utils.py
// get_noisy_model_input_and_timesteps; SD 1.x/SDXL: library/train_util.py
// get_noise_noisy_latents_and_timesteps with library/custom_train_functions.py's weightings.
#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {

void kohyaFlowFamilies(TrainerTool& t, const TrainerSettings& settings, const std::string& extra,
                       int latentDownscale) {
  t.families.push_back(
      {"shift",
       {param("sigmoid_scale", 1.0, 0.05, 5.0),
        param("discrete_flow_shift", 3.0, 0.02, 50.0, true)},
       [](double u, const Params& p) { return logitNormal(u, std::log(p[1]), p[0]); },
       noWeight,
       [extra](const Params& p) {
         return "--timestep_sampling shift --sigmoid_scale " + num(p[0]) +
                " --discrete_flow_shift " + num(p[1]) + extra;
       },
       "t = shift(sigmoid(sigmoid_scale·z))"});
  t.families.push_back({"sigmoid",
                        {param("sigmoid_scale", 1.0, 0.05, 5.0)},
                        [](double u, const Params& p) { return logitNormal(u, 0.0, p[0]); },
                        noWeight,
                        [extra](const Params& p) {
                          return "--timestep_sampling sigmoid --sigmoid_scale " + num(p[0]) + extra;
                        },
                        "t = sigmoid(sigmoid_scale·z), no shift"});
  // Flux's line through (256 tokens, 0.5) and (4096, 1.15), as fluxShiftMu for an 8× latent.
  const double tokens = std::floor(settings.height / (2.0 * latentDownscale)) *
                        std::floor(settings.width / (2.0 * latentDownscale));
  const double mu = 0.5 + (1.15 - 0.5) / (4096.0 - 256.0) * (tokens - 256.0);
  const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
  t.families.push_back({"flux_shift",
                        {param("sigmoid_scale", 1.0, 0.05, 5.0)},
                        [mu](double u, const Params& p) { return logitNormal(u, mu, p[0]); },
                        noWeight,
                        [extra, mu, size](const Params& p) {
                          return "--timestep_sampling flux_shift --sigmoid_scale " + num(p[0]) +
                                 extra + "\n# at " + size + " px Flux's rule sets mu = " + num(mu) +
                                 " (σ × " + num(std::exp(mu)) + ")";
                        },
                        "μ from the image's token count at " + size + " px: " + num(mu)});
  t.families.push_back({"uniform",
                        {},
                        [](double u, const Params&) { return shiftedUniform(u, 1.0); },
                        noWeight,
                        [extra](const Params&) { return "--timestep_sampling uniform" + extra; },
                        "uniform t"});
}

namespace {

// --model_prediction_type sigma_scaled (library/flux_train_utils.py apply_model_prediction_type)
// compares D = x_t − t·F, the x0 estimate a Flux sampler reads from the output F, with
// noise − x0 (flux_train_network.py get_noise_pred_and_target): an unweighted loss on D, which is
// t² on F. In the velocity loss space of these models (x0 weight t⁻²) that is a factor t², so each
// level weighs as in an x0 loss. Its minimiser is D = E[noise − x0 | x_t], not the denoiser: φ says
// where the loss puts its weight, not that the model learns x0.
double sigmaScaledWeight(double sigma) {
  const double t = flowT(sigma);
  return t * t;
}

// Flux's continuous modes under sigma_scaled, the parser's default, once per scheme: the loss is
// weighed by compute_loss_weighting_for_sd3. The logit_normal and mode schemes give ones there and
// move no draw outside the sigma mode, so they train as uniform does (not listed again).
void kohyaScaledFlowFamilies(TrainerTool& t, const TrainerSettings& settings,
                             int latentDownscale = 8) {
  for (const auto& [scheme, weight] : sd3LossWeightings()) {
    TrainerTool scaled;
    kohyaFlowFamilies(scaled, settings,
                      " --model_prediction_type sigma_scaled --weighting_scheme " + scheme,
                      latentDownscale);
    for (TrainerFamily f : scaled.families) {
      f.name += scheme == "uniform" ? " + sigma_scaled" : " + sigma_scaled + " + scheme;
      f.toolWeight = fixedWeight(
          [w = weight](double sigma) { return sigmaScaledWeight(sigma) * w(flowT(sigma)); });
      f.note += "; sigma_scaled: an x0-space loss" +
                (scheme == "uniform" ? std::string() : " weighted by " + scheme);
      if (scheme != "uniform") f.weighting = scheme;
      t.families.push_back(f);
    }
  }
}

// How a script's loss reads the sigma mode's --weighting_scheme: Flux's sigma_scaled (an x0-space
// loss times compute_loss_weighting_for_sd3), raw (the velocity, no weight, so sigma_sqrt and
// cosmap are the plain uniform draw and are left out), or, in a script without
// --model_prediction_type (Anima), the velocity times the scheme's weight.
enum class SigmaLoss { SigmaScaled, Raw, WeightedVelocity };

// The sigma mode (library/flux_train_utils.py and library/lumina_train_util.py
// get_noisy_model_input_and_timesteps, their last branch) under `loss`. `defaultShift` is the
// script's --discrete_flow_shift default; `suffix` ends each family's name where the script's
// default loss is another (Flux's " + raw").
void kohyaSigmaFamilies(TrainerTool& t, SigmaLoss loss, double defaultShift,
                        const std::string& suffix = "") {
  // --timestep_sampling sigma indexes ⌊1000·u⌋ into the sigmas of
  // FlowMatchEulerDiscreteScheduler(shift = --discrete_flow_shift), so t = shift_a(1 − u) on a
  // 1000-entry table that moves with the shift (the family's atoms); u is uniform for these
  // schemes. Under --model_prediction_type sigma_scaled (Flux's default) the loss weighs each
  // level as an x0 loss does (sigmaScaledWeight).
  const std::string flag = loss == SigmaLoss::SigmaScaled ? " --model_prediction_type sigma_scaled"
                           : loss == SigmaLoss::Raw       ? " --model_prediction_type raw"
                                                          : "";
  auto base = [loss](double sigma) {
    return loss == SigmaLoss::SigmaScaled ? sigmaScaledWeight(sigma) : 1.0;
  };
  for (const auto& [scheme, weight] : sd3LossWeightings()) {
    if (loss == SigmaLoss::Raw && scheme != "uniform") continue;
    TrainerFamily f{
        (scheme == "uniform" ? "sigma" : "sigma + " + scheme) + suffix,
        {param("discrete_flow_shift", defaultShift, 0.02, 50.0, true)},
        [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
        fixedWeight([w = weight, base](double sigma) { return base(sigma) * w(flowT(sigma)); }),
        [s = scheme, flag](const Params& p) {
          return "--timestep_sampling sigma --weighting_scheme " + s + " --discrete_flow_shift " +
                 num(p[0]) + flag;
        },
        "the scheduler's table shifted by discrete_flow_shift, uniform u (default a "
        "= " +
            num(defaultShift) + ")"};
    // What it trains: the 1000 table values shift_a((1000 − j)/1000), each with probability 1/1000.
    f.atoms = [](const Params& p) {
      std::vector<std::pair<double, double>> atoms;
      for (int j = 0; j < 1000; ++j)
        atoms.emplace_back(shiftFlowTime((1000.0 - j) / 1000.0, p[0]), 1e-3);
      return atoms;
    };
    if (scheme != "uniform") f.weighting = scheme;
    t.families.push_back(f);
  }
  const auto predictionWeight = fixedWeight(base);
  // The same mode with the other two schemes, which change the draw of u and leave the loss
  // alone (compute_loss_weighting_for_sd3 returns ones for them): u = sigmoid(N(logit_mean,
  // logit_std²)) or SD3's mode draw 1 − g(U), indexed as ⌊1000·u⌋ into the same shifted table, so
  // t = shift_a(1 − u). For logit_normal the shift only adds ln a to −logit_mean (up to the table),
  // but it is the user's flag either way, so it stays a knob and is reported.
  TrainerFamily logitNormalSigma{
      "sigma + logit_normal" + suffix,
      {param("logit_mean", 0.0, -4.0, 4.0), param("logit_std", 1.0, 0.05, 5.0),
       param("discrete_flow_shift", defaultShift, 0.02, 50.0, true)},
      [](double u, const Params& p) {
        return shiftedDensity(u, p[2], [&](double x) { return logitNormal(x, -p[0], p[1]); });
      },
      predictionWeight,
      [flag](const Params& p) {
        return "--timestep_sampling sigma --weighting_scheme logit_normal --logit_mean " +
               num(p[0]) + " --logit_std " + num(p[1]) + " --discrete_flow_shift " + num(p[2]) +
               flag;
      },
      "u = sigmoid(N(logit_mean, logit_std²)) indexed into the scheduler's table shifted by "
      "discrete_flow_shift, so t = shift(1 − u)"};
  logitNormalSigma.atoms = [](const Params& p) {
    return descendingTableAtoms([&](double x) { return logitNormalCdf(x, p[0], p[1]); }, p[2]);
  };
  t.families.push_back(logitNormalSigma);
  TrainerFamily modeSigma{
      "sigma + mode" + suffix,
      {param("mode_scale", 1.29, -0.95, 1.7),
       param("discrete_flow_shift", defaultShift, 0.02, 50.0, true)},
      [](double u, const Params& p) {
        return shiftedDensity(u, p[1], [&](double x) { return modeDensity(x, p[0]); });
      },
      predictionWeight,
      [flag](const Params& p) {
        return "--timestep_sampling sigma --weighting_scheme mode --mode_scale " + num(p[0]) +
               " --discrete_flow_shift " + num(p[1]) + flag;
      },
      "u = 1 − g(U) (SD3's mode map) indexed into the scheduler's table shifted by "
      "discrete_flow_shift, so t = shift(g(U))"};
  modeSigma.atoms = [](const Params& p) {
    return descendingTableAtoms([&](double x) { return modeDrawCdf(x, p[0]); }, p[1]);
  };
  t.families.push_back(modeSigma);
}

ModelDefinition sdScriptsFlux(const TrainerSettings& settings) {
  ModelDefinition m = flowModel(
      "sd-scripts",
      "command-line flags of flux_train_network.py (or the same keys in --config_file TOML)",
      "flux",
      "Flux.1/Chroma (flux_train_network.py): a velocity loss with --model_prediction_type raw, "
      "an x0-space one with the default sigma_scaled");
  // raw: the loss stays on the velocity; sigma_scaled moves it to x0 with its own weighting.
  kohyaFlowFamilies(m.tool, settings, " --model_prediction_type raw --weighting_scheme none");
  kohyaScaledFlowFamilies(m.tool, settings);
  kohyaSigmaFamilies(m.tool, SigmaLoss::SigmaScaled, 3.0);
  // The same mode under raw (and additive, read alike by fit --current): the velocity loss, no
  // weighting, so only the three draws of u.
  kohyaSigmaFamilies(m.tool, SigmaLoss::Raw, 3.0, " + raw");
  m.defaultDraw = "sigma";  // --timestep_sampling sigma is the parser default
  // What a file that leaves these out trains (flux_train_utils.py add_flux_train_arguments).
  m.tool.optionDefaults = {{"timestep_sampling", "sigma"},
                           {"weighting_scheme", "uniform"},
                           {"model_prediction_type", "sigma_scaled"}};
  return m;
}

// The fit starts every family's discrete_flow_shift at the script's own default.
void startShiftAt(TrainerTool& t, double shift) {
  for (auto& f : t.families)
    for (auto& q : f.parameters)
      if (q.name == "discrete_flow_shift") q.initial = shift;
}

// A flow model trained by one of sd-scripts' DiT scripts: Flux's continuous modes, each snippet
// ending with `extra`, started at the script's --discrete_flow_shift default.
ModelDefinition kohyaScriptModel(const TrainerSettings& settings, const std::string& script,
                                 std::string model, std::string note, const std::string& extra,
                                 double defaultShift, int latentDownscale = 8) {
  ModelDefinition m = flowModel(
      "sd-scripts", "command-line flags of " + script + " (or the same keys in --config_file TOML)",
      std::move(model), std::move(note));
  kohyaFlowFamilies(m.tool, settings, extra, latentDownscale);
  startShiftAt(m.tool, defaultShift);
  return m;
}

// Lumina 2 (lumina_train_network.py): library/lumina_train_util.py
// get_noisy_model_input_and_timesteps has Flux's modes plus nextdit_shift; its parser
// (add_lumina_train_arguments) defaults to shift, --discrete_flow_shift 6.0 and
// --model_prediction_type raw; get_noise_pred_and_target trains the output at 1 − t against
// latents − noise, the velocity error with its sign flipped, so the same x0 weight. The latent is
// Flux's autoencoder's (1/8 a side), so the μ of flux_shift and nextdit_shift is Flux's.
ModelDefinition sdScriptsLumina(const TrainerSettings& settings) {
  ModelDefinition m =
      kohyaScriptModel(settings, "lumina_train_network.py", "lumina2",
                       "Lumina 2 (lumina_train_network.py): velocity loss (latents − noise), raw",
                       " --model_prediction_type raw", 6.0);
  // nextdit_shift: t = time_shift(μ, 1, U) with U uniform (clamped at 10⁻⁷), i.e. uniform t shifted
  // by e^μ; no knob.
  const double mu = fluxShiftMu(settings);
  const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
  m.tool.families.push_back(
      {"nextdit_shift",
       {},
       [mu](double u, const Params&) { return shiftedUniform(u, std::exp(mu)); },
       noWeight,
       [mu, size](const Params&) {
         return "--timestep_sampling nextdit_shift --model_prediction_type raw\n# at " + size +
                " px Flux's rule sets mu = " + num(mu) + " (σ × " + num(std::exp(mu)) +
                "); no knob";
       },
       "uniform t shifted by e^μ, μ from the token count at " + size + " px: " + num(mu)});
  kohyaSigmaFamilies(m.tool, SigmaLoss::Raw, 6.0);
  m.defaultDraw = "shift";  // add_lumina_train_arguments: --timestep_sampling shift
  return m;
}

// HunyuanImage 2.1 (hunyuan_image_train_network.py get_noise_pred_and_target): Flux's draw and
// apply_model_prediction_type with its own parser defaults (sigma, --discrete_flow_shift 5.0,
// --model_prediction_type raw; setup_parser); its autoencoder is 32× a side
// (library/hunyuan_image_vae.py VAE_SCALE_FACTOR), so flux_shift counts (H/64)·(W/64) tokens.
ModelDefinition sdScriptsHunyuanImage(const TrainerSettings& settings) {
  ModelDefinition m = kohyaScriptModel(
      settings, "hunyuan_image_train_network.py", "hunyuan-image",
      "HunyuanImage 2.1 (hunyuan_image_train_network.py): a velocity loss with the default "
      "--model_prediction_type raw, an x0-space one with sigma_scaled",
      " --model_prediction_type raw --weighting_scheme none", 5.0, 32);
  kohyaScaledFlowFamilies(m.tool, settings, 32);
  startShiftAt(m.tool, 5.0);  // the scaled families too
  kohyaSigmaFamilies(m.tool, SigmaLoss::Raw, 5.0);
  kohyaSigmaFamilies(m.tool, SigmaLoss::SigmaScaled, 5.0, " + sigma_scaled");
  m.defaultDraw = "sigma";
  m.tool.optionDefaults = {{"timestep_sampling", "sigma"},
                           {"weighting_scheme", "uniform"},
                           {"model_prediction_type", "raw"}};
  return m;
}

// Anima (anima_train_network.py get_noise_pred_and_target): Flux's draw, target noise − latents
// (the velocity), no --model_prediction_type, and the loss always multiplied by
// library/anima_train_utils.py compute_loss_weighting_for_anima (sigma_sqrt t⁻², cosmap, else
// ones) at the drawn t, in every mode. Parser defaults (anima_train_utils.py
// add_anima_training_arguments): sigmoid, --discrete_flow_shift 1.0. Its latent is 8× a side, so
// flux_shift's μ is Flux's.
ModelDefinition sdScriptsAnima(const TrainerSettings& settings) {
  ModelDefinition m = kohyaScriptModel(
      settings, "anima_train_network.py", "anima",
      "Anima (anima_train_network.py): velocity loss, --weighting_scheme in every mode", "", 1.0);
  kohyaSigmaFamilies(m.tool, SigmaLoss::WeightedVelocity, 1.0);
  for (const auto& [name, weight] : sd3LossWeightings()) {
    if (name == "uniform") continue;
    LossWeighting w;
    w.name = name;
    w.weight = [f = weight](double sigma, double) { return f(flowT(sigma)); };
    w.snippet = [n = name](double) { return "--weighting_scheme " + n; };
    // In the sigma mode the same flag is the "sigma + …" family's (it picks u there too).
    w.combines = [](const std::string& draw) { return draw.rfind("sigma", 0) != 0; };
    m.weightings.push_back(w);
  }
  m.defaultDraw = "sigmoid";
  m.tool.optionDefaults = {{"timestep_sampling", "sigmoid"}, {"weighting_scheme", "uniform"}};
  return m;
}

// SD3 (sd3_train_network.py): u from --weighting_scheme, u′ = shift_a(u) with a =
// --training_shift, t = ⌊1000·u′⌋/1000 (t = u: the opposite sign to diffusers), x0 loss always.
ModelDefinition sdScriptsSd3() {
  ModelDefinition m = flowModel(
      "sd-scripts",
      "command-line flags of sd3_train_network.py (or the same keys in --config_file TOML)", "sd3",
      "SD3/SD3.5 (sd3_train_network.py): always the x0 loss, t = u");
  m.tool.lossSpace = "x0 (always, in sd3_train_network.py)";
  m.tool.lossToX0 = one;
  m.tool.discretisation = "t = k/1000, k = 0 … 999";
  m.tool.tableEdges = tableEdges(1000);  // k = ⌊1000·u′⌋ after the shift
  auto& f = m.tool.families;
  f.push_back({"logit_normal",
               {param("logit_mean", 0.0, -4.0, 4.0), param("logit_std", 1.0, 0.05, 5.0)},
               [](double u, const Params& p) { return logitNormal(u, p[0], p[1]); },
               noWeight,
               [](const Params& p) {
                 return "--weighting_scheme logit_normal --logit_mean " + num(p[0]) +
                        " --logit_std " + num(p[1]) + " --training_shift 1.0";
               },
               "logit t ~ N(logit_mean, logit_std²); the shift would only add ln a to the mean"});
  f.push_back(
      {"mode",
       {param("mode_scale", 1.29, -0.95, 1.7), param("training_shift", 1.0, 0.02, 50.0, true)},
       [](double u, const Params& p) {
         return shiftedDensity(u, p[1], [&](double x) { return modeDensity(1.0 - x, p[0]); });
       },
       noWeight,
       [](const Params& p) {
         return "--weighting_scheme mode --mode_scale " + num(p[0]) + " --training_shift " +
                num(p[1]);
       },
       "u = 1 − g(U) with SD3's mode map g, then the shift"});
  f.push_back(
      {"uniform",
       {param("training_shift", 1.0, 0.02, 50.0, true)},
       [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
       noWeight,
       [](const Params& p) { return "--weighting_scheme uniform --training_shift " + num(p[0]); },
       "uniform u, then the shift (the default, with a = 1)"});
  TrainerFamily cosmap{
      "cosmap",
      {param("training_shift", 1.0, 0.02, 50.0, true)},
      [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
      fixedWeight([](double sigma) { return cosmapWeight(flowT(sigma)); }),
      [](const Params& p) { return "--weighting_scheme cosmap --training_shift " + num(p[0]); },
      "uniform u, shifted, loss weighted 2/(π(1 − 2t + 2t²))"};
  cosmap.weighting = "cosmap";
  f.push_back(cosmap);
  TrainerFamily sigmaSqrt{
      "sigma_sqrt",
      {param("training_shift", 1.0, 0.02, 50.0, true)},
      [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
      fixedWeight([](double sigma) {
        const double x = flowT(sigma);
        return 1.0 / (x * x);
      }),
      [](const Params& p) { return "--weighting_scheme sigma_sqrt --training_shift " + num(p[0]); },
      "uniform u, shifted, loss weighted t⁻²"};
  sigmaSqrt.weighting = "sigma_sqrt";
  f.push_back(sigmaSqrt);
  m.defaultDraw = "uniform";
  return m;
}

// The SNR the weightings of library/custom_train_functions.py read, capped at 1000 where they cap
// it (apply_debiased_estimation, scale_v_prediction_loss_like_noise_prediction).
double cappedSnr(double sigma) {
  return std::min(1.0 / (sigma * sigma), 1000.0);
}

// SD 1.x/2.x (train_network.py) and SDXL (sdxl_train_network.py): k uniform in
// [--min_timestep, --max_timestep); ε, or v with --v_parameterization.
ModelDefinition sdScriptsDdpm(const std::string& model) {
  const bool v = model == "sd2-v" || model == "sdxl-v";
  const bool xl = model.rfind("sdxl", 0) == 0;
  ModelDefinition m;
  m.tool = ddpmTool("sd-scripts",
                    std::string("command-line flags of ") +
                        (xl ? "sdxl_train_network.py" : "train_network.py") +
                        " (or the same keys in --config_file TOML)",
                    v);
  m.tool.model = model;
  m.tool.modelNote = v ? "v-prediction (--v_parameterization, SD 2.x 768 or v SDXL checkpoints)"
                       : "ε-prediction (SD 1.5, SDXL base)";
  const std::string prediction = v ? " --v_parameterization" : "";
  m.tool.families.push_back(
      {"uniform",
       {},
       [](double u, const Params&) { return u >= 0.0 && u <= 1.0 ? 1.0 : 0.0; },
       noWeight,
       [prediction](const Params&) { return "--min_timestep 0 --max_timestep 1000" + prediction; },
       "k uniform on 0 … 999 (the default)"});
  m.tool.families.push_back(
      {"timestep_window",
       {param("min_timestep", 0.0, 0.0, 999.0), param("max_timestep", 1000.0, 1.0, 1000.0)},
       [](double u, const Params& p) {
         const double lo = std::round(p[0]) / 1000.0, hi = std::round(p[1]) / 1000.0;
         return hi > lo && u >= lo && u < hi ? 1.0 / (hi - lo) : 0.0;
       },
       noWeight,
       [prediction](const Params& p) {
         return "--min_timestep " + num(std::round(p[0])) + " --max_timestep " +
                num(std::round(p[1])) + prediction;
       },
       "k uniform on [min_timestep, max_timestep)"});
  m.weightings.push_back(minSnrGamma("min_snr_gamma", v, 5.0,
                                     [](double gamma) { return "--min_snr_gamma " + num(gamma); }));
  m.weightings.push_back({"debiased_estimation_loss",
                          {},
                          0.0,
                          [v](double sigma, double) {
                            const double snr = cappedSnr(sigma);
                            return v ? 1.0 / (snr + 1.0) : 1.0 / std::sqrt(snr);
                          },
                          [](double) { return std::string("--debiased_estimation_loss"); }});
  // --v_pred_like_loss λ, ε models only (library/train_util.py verify_training_args rejects it
  // with --v_parameterization): library/custom_train_functions.py add_v_prediction_like_loss adds
  // loss·λ/scale, scale = get_snr_scale = SNR/(SNR + 1), SNR capped at 1000, so the ε loss is
  // weighted 1 + λ·(SNR + 1)/SNR: at λ = 1 a v loss at full weight on top. The flag has no default
  // (off); λ = 1 is what it is held at beside a draw with two knobs.
  if (!v)
    m.weightings.push_back({"v_pred_like_loss",
                            {param("v_pred_like_loss", 1.0, 0.0, 20.0)},
                            1.0,
                            [](double sigma, double lambda) {
                              const double snr = cappedSnr(sigma);
                              return 1.0 + lambda * (snr + 1.0) / snr;
                            },
                            [](double lambda) { return "--v_pred_like_loss " + num(lambda); }});
  if (v)
    m.weightings.push_back(
        {"scale_v_pred_loss_like_noise_pred",
         {},
         0.0,
         [](double sigma, double) {
           const double snr = cappedSnr(sigma);
           return snr / (snr + 1.0);
         },
         [](double) { return std::string("--scale_v_pred_loss_like_noise_pred"); }});
  m.defaultDraw = "uniform";
  return m;
}

}  // namespace

ModelDefinition sdScripts(const TrainerSettings& settings, const std::string& model) {
  if (model == "flux") return sdScriptsFlux(settings);
  if (model == "sd3") return sdScriptsSd3();
  if (model == "lumina2") return sdScriptsLumina(settings);
  if (model == "hunyuan-image") return sdScriptsHunyuanImage(settings);
  if (model == "anima") return sdScriptsAnima(settings);
  return sdScriptsDdpm(model);
}

}  // namespace noisescope::schedule::trainers
