// musubi-tuner (kohya-ss/musubi-tuner, docs/trainers.md): every architecture draws in
// src/musubi_tuner/training/trainer_base.py NetworkTrainer.get_noisy_model_input_and_timesteps and
// trains a velocity loss weighted by NetworkTrainer.compute_loss; the modes are the choices of
// --timestep_sampling in training/parser_common.py _add_timestep_args.
#include "schedule/trainers/musubi_window.h"
#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {

namespace {

// The weightings and the default draw, the same with or without a held window.
void addMusubiWeightings(ModelDefinition& m) {
  // --weighting_scheme sigma_sqrt or cosmap in the other modes: NetworkTrainer.compute_loss
  // multiplies every mode's loss by training/timesteps.py compute_loss_weighting_for_sd3, whose
  // get_sigmas looks the mode's timesteps t·1000 + 1 up in the scheduler's table (1000, 999, …,
  // 1), finds them absent and takes the nearest entry k (argmin) with its sigma k/1000 (cast to
  // the DiT's dtype, at most 0.4 % off in bf16). In the sigma mode the same flag picks the draw's
  // scheme (the "sigma + …" families), so it does not combine there; nor with
  // ideogram4_shift, the default of ideogram4_train_network.py only, whose compute_loss ignores
  // the flag.
  auto tableT = [](double sigma) {
    return std::clamp(std::round(1000.0 * flowT(sigma) + 1.0), 1.0, 1000.0) / 1000.0;
  };
  for (const auto& [name, weight] : sd3LossWeightings()) {
    if (name == "uniform") continue;
    LossWeighting w;
    w.name = name;
    w.weight = [tableT, f = weight](double sigma, double) { return f(tableT(sigma)); };
    w.snippet = [n = name](double) { return "--weighting_scheme " + n; };
    w.combines = [](const std::string& draw) {
      return draw != "sigma" && draw.rfind("sigma + ", 0) != 0 && draw != "ideogram4_shift";
    };
    m.weightings.push_back(w);
  }
  m.defaultDraw = "sigma";  // --timestep_sampling sigma with --weighting_scheme none: the default
}

}  // namespace

ModelDefinition musubiTuner(const TrainerSettings& settings, const std::string&) {
  ModelDefinition m = flowModel(
      "musubi-tuner",
      "command-line flags of the *_train_network.py scripts (parsed in training/parser_common.py)",
      "flux",
      "every architecture: one draw (training/trainer_base.py "
      "get_noisy_model_input_and_timesteps) and a velocity loss");
  m.tool.discretisation = "continuous t (sigma mode: the 1000 table values t = 1, 0.999, …, 0.001)";
  const bool windowed = settings.hasTimestepWindow();
  const TimestepWindow window = windowed ? heldTimestepWindow(settings) : TimestepWindow{};
  kohyaFlowFamilies(m.tool, settings, "");
  // musubi's own modes. logsnr: logsnr ~ N(logit_mean, logit_std²), t = sigmoid(−logsnr/2), so
  // logit t ~ N(−logit_mean/2, (logit_std/2)²).
  m.tool.families.push_back(
      {"logsnr",
       {param("logit_mean", 0.0, -12.0, 12.0), param("logit_std", 2.0, 0.1, 10.0)},
       [](double u, const Params& p) { return logitNormal(u, -p[0] / 2.0, p[1] / 2.0); },
       noWeight,
       [](const Params& p) {
         return "--timestep_sampling logsnr --logit_mean " + num(p[0]) + " --logit_std " +
                num(p[1]);
       },
       "logsnr ~ N(logit_mean, logit_std²), t = sigmoid(−logsnr/2)"});
  // qwen_shift, flux2_shift and krea2_shift: shift e^μ with μ linear in the token count, then as
  // `shift`. Qwen-Image: (256, 0.5) → (8192, 0.9) of (h//2)(w//2) latent tokens. Flux.2: Flux's
  // line of h·w, the latent the Flux.2 autoencoder writes with 2×2 patches packed (1/16 of the
  // pixels a side), so the same count as flux_shift's. Krea 2: (256, 0.5) → (6400, 1.15) of
  // (h//2)(w//2), its latent 1/8 of the pixels (Qwen-Image's autoencoder) a side.
  const double tokens = std::floor(settings.height / 16.0) * std::floor(settings.width / 16.0);
  auto line = [tokens](double x2, double y2) {
    return 0.5 + (y2 - 0.5) / (x2 - 256.0) * (tokens - 256.0);
  };
  const double qwenMu = line(8192.0, 0.9), flux2Mu = fluxShiftMu(settings),
               krea2Mu = line(6400.0, 1.15), fluxMu = fluxShiftMu(settings);
  const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
  for (const auto& [mode, mu] : {std::pair<std::string, double>{"qwen_shift", qwenMu},
                                 std::pair<std::string, double>{"flux2_shift", flux2Mu},
                                 std::pair<std::string, double>{"krea2_shift", krea2Mu}})
    m.tool.families.push_back(
        {mode,
         {param("sigmoid_scale", 1.0, 0.05, 5.0)},
         [mu = mu](double u, const Params& p) { return logitNormal(u, mu, p[0]); },
         noWeight,
         [mode = mode, mu = mu, size](const Params& p) {
           return "--timestep_sampling " + mode + " --sigmoid_scale " + num(p[0]) + "\n# at " +
                  size + " px the rule sets mu = " + num(mu) + " (σ × " + num(std::exp(mu)) + ")";
         },
         "μ from the token count at " + size + " px: " + num(mu)});
  // ideogram4_shift (training/timesteps.py compute_ideogram4_shift_timestep; the default of
  // ideogram4_train_network.py): logit t ~ N(½ ln(pixels/512²), 1.5²), the pixels those of the
  // 16-pixel token grid; sigmoid_scale is not read, so there is no knob. The clamp of t to
  // [1/(1 + e^7.5), 1 − 1/(1 + e^9)] puts the tails' little mass on σ ≈ 5.5·10⁻⁴ and 8100,
  // outside any grid NoiseScope fits on.
  const double pixels =
      std::floor(settings.height / 16.0) * std::floor(settings.width / 16.0) * 256.0;
  const double ideogramMean = 0.5 * std::log(pixels / (512.0 * 512.0));
  m.tool.families.push_back(
      {"ideogram4_shift",
       {},
       [ideogramMean](double u, const Params&) { return logitNormal(u, ideogramMean, 1.5); },
       noWeight,
       [ideogramMean, size](const Params&) {
         return "--timestep_sampling ideogram4_shift\n# at " + size + " px: logit t ~ N(" +
                num(ideogramMean) + ", 1.5²); no knob";
       },
       "logit t ~ N(½ ln(pixels/512²), 1.5²) at " + size + " px; no knob"});
  // qinglong_flux and qinglong_qwen: per sample a mixture. Flux: 79 % the flux_shift draw
  // (sigmoid_scale), 11 % logsnr (logit_mean, logit_std), 10 % logsnr with mean 5.36 and std 1.
  // Qwen: 95 % the qwen_shift draw, 5 % that second logsnr (its 11 % bucket is skipped and falls
  // into the first).
  auto logsnrDensity = [](double u, double mean, double std) {
    return logitNormal(u, -mean / 2.0, std / 2.0);
  };
  m.tool.families.push_back(
      {"qinglong_flux",
       {param("sigmoid_scale", 1.0, 0.05, 5.0), param("logit_mean", 0.0, -12.0, 12.0),
        param("logit_std", 1.0, 0.1, 10.0)},
       [fluxMu, logsnrDensity](double u, const Params& p) {
         return 0.79 * logitNormal(u, fluxMu, p[0]) + 0.11 * logsnrDensity(u, p[1], p[2]) +
                0.10 * logsnrDensity(u, 5.36, 1.0);
       },
       noWeight,
       [fluxMu, size](const Params& p) {
         return "--timestep_sampling qinglong_flux --sigmoid_scale " + num(p[0]) +
                " --logit_mean " + num(p[1]) + " --logit_std " + num(p[2]) + "\n# at " + size +
                " px Flux's rule sets mu = " + num(fluxMu) + " for the 79 % shifted part";
       },
       "79 % flux_shift, 11 % logsnr, 10 % logsnr N(5.36, 1) (μ at " + size +
           " px: " + num(fluxMu) + ")"});
  m.tool.families.push_back(
      {"qinglong_qwen",
       {param("sigmoid_scale", 1.0, 0.05, 5.0)},
       [qwenMu, logsnrDensity](double u, const Params& p) {
         return 0.95 * logitNormal(u, qwenMu, p[0]) + 0.05 * logsnrDensity(u, 5.36, 1.0);
       },
       noWeight,
       [qwenMu, size](const Params& p) {
         return "--timestep_sampling qinglong_qwen --sigmoid_scale " + num(p[0]) + "\n# at " +
                size + " px the rule sets mu = " + num(qwenMu) + " for the 95 % shifted part";
       },
       "95 % qwen_shift, 5 % logsnr N(5.36, 1) (μ at " + size + " px: " + num(qwenMu) + ")"});
  // sigma, the parser default: u from --weighting_scheme (training/timesteps.py
  // compute_density_for_timestep_sampling: logit_normal, mode, else uniform) indexed as ⌊1000·u⌋
  // into FlowMatchDiscreteScheduler's training table, which its constructor leaves unshifted
  // (discrete_flow_shift is read only when sampling images): t = (1000 − j)/1000. The loss is
  // multiplied by compute_loss_weighting_for_sd3 (sigma_sqrt: t⁻², cosmap), 1 for the others.
  struct Scheme {
    std::string name;
    std::vector<TrainerParameter> parameters;
    std::function<double(double, const Params&)> density;  // of 1 − u at x
    std::function<double(double, const Params&)> cdf;      // of u at x
    std::function<double(double)> weight;                  // at t
    std::string knobs(const Params& p) const {
      std::string text;
      for (std::size_t i = 0; i < parameters.size(); ++i)
        text += " --" + parameters[i].name + " " + num(p[i]);
      return text;
    }
  };
  const std::vector<Scheme> schemes = {
      {"none",
       {},
       [](double, const Params&) { return 1.0; },
       [](double x, const Params&) { return std::clamp(x, 0.0, 1.0); },
       [](double) { return 1.0; }},
      {"logit_normal",
       {param("logit_mean", 0.0, -4.0, 4.0), param("logit_std", 1.0, 0.05, 5.0)},
       [](double x, const Params& p) { return logitNormal(x, -p[0], p[1]); },
       [](double x, const Params& p) { return logitNormalCdf(x, p[0], p[1]); },
       [](double) { return 1.0; }},
      {"mode",
       {param("mode_scale", 1.29, -0.95, 1.7)},
       [](double x, const Params& p) { return modeDensity(x, p[0]); },
       [](double x, const Params& p) { return modeDrawCdf(x, p[0]); },
       [](double) { return 1.0; }},
      {"sigma_sqrt",
       {},
       [](double, const Params&) { return 1.0; },
       [](double x, const Params&) { return std::clamp(x, 0.0, 1.0); },
       sigmaSqrtWeight},
      {"cosmap",
       {},
       [](double, const Params&) { return 1.0; },
       [](double x, const Params&) { return std::clamp(x, 0.0, 1.0); },
       cosmapWeight},
  };
  for (const Scheme& scheme : schemes) {
    const bool weighting = scheme.name == "sigma_sqrt" || scheme.name == "cosmap";
    TrainerFamily f{scheme.name == "none" ? "sigma" : "sigma + " + scheme.name,
                    scheme.parameters,
                    [d = scheme.density](double u, const Params& p) {
                      return u >= 0.0 && u <= 1.0 ? d(u, p) : 0.0;
                    },
                    fixedWeight([w = scheme.weight](double sigma) { return w(flowT(sigma)); }),
                    [scheme](const Params& p) {
                      return "--timestep_sampling sigma --weighting_scheme " + scheme.name +
                             scheme.knobs(p);
                    },
                    weighting ? "uniform u indexed into the unshifted 1000-step table, the loss "
                                "weighted by " +
                                    scheme.name
                              : "u from weighting_scheme " + scheme.name +
                                    " indexed into the unshifted 1000-step table, t = 1 − "
                                    "⌊1000·u⌋/1000 (the default mode)"};
    f.atoms = [cdf = scheme.cdf](const Params& p) {
      return descendingTableAtoms([&](double x) { return cdf(x, p); });
    };
    if (windowed) {
      f.atoms = [cdf = scheme.cdf, window](const Params& p) {
        return windowedTableAtoms([&](double x) { return cdf(x, p); }, window);
      };
      f.density = [d = scheme.density, window](double t, const Params& p) {
        return windowedTableOutline(
            t, [&](double x) { return d(x, p); }, window);
      };
      const auto snippet = f.snippet;
      f.snippet = [snippet, window](const Params& p) { return snippet(p) + window.flags(false); };
      f.note += "; indexed as ⌊u·(max − min) + min⌋";
    }
    if (weighting) f.weighting = scheme.name;
    m.tool.families.push_back(f);
  }
  // A held window (fit --timestep-window, or a file's flags read by fit --current) confines
  // every mode; the other modes are squeezed or truncated to it. It is then not fitted.
  if (windowed) {
    for (auto& f : m.tool.families)
      if (f.name != "sigma" && f.name.rfind("sigma + ", 0) != 0) f = windowedMode(f, window);
    addMusubiWeightings(m);
    return m;
  }
  // --min_timestep / --max_timestep (integers, 0 … 1000; Wan 2.2's two experts train 0 … 875 and
  // 875 … 1000): the non-sigma modes squeeze the draw into [min, max]/1000, t·(b − a) + a, or
  // with --preserve_distribution_shape keep the draws that fall inside (rejection); the sigma
  // mode indexes ⌊u·(max − min) + min⌋ into the table. Shown for the shift mode and the default.
  auto windowOf = [](const Params& p, std::size_t i) {
    return std::pair<double, double>{std::floor(p[i]) / 1000.0, std::floor(p[i + 1]) / 1000.0};
  };
  auto windowParameters = [](std::vector<TrainerParameter> q) {
    q.push_back(param("min_timestep", 0.0, 0.0, 999.0));
    q.push_back(param("max_timestep", 1000.0, 1.0, 1000.0));
    q[q.size() - 2].quantum = q.back().quantum = 1.0;
    return q;
  };
  auto windowFlags = [](const Params& p, std::size_t i) {
    return " --min_timestep " + std::to_string(static_cast<int>(std::floor(p[i]))) +
           " --max_timestep " + std::to_string(static_cast<int>(std::floor(p[i + 1])));
  };
  const std::vector<TrainerParameter> shiftKnobs{
      param("sigmoid_scale", 1.0, 0.05, 5.0), param("discrete_flow_shift", 3.0, 0.02, 50.0, true)};
  for (const bool preserve : {false, true})
    m.tool.families.push_back(
        {preserve ? "shift + window, preserve_distribution_shape" : "shift + window",
         windowParameters(shiftKnobs),
         [windowOf, preserve](double u, const Params& p) {
           // Plain copies: C++17 lets no lambda capture a structured binding (keptMass's below).
           const auto [low, high] = windowOf(p, 2);
           const double a = low, b = high;
           if (!(b > a) || u < a || u > b) return 0.0;
           const double m = std::log(p[1]), scale = p[0];
           if (!preserve) return logitNormal((u - a) / (b - a), m, scale) / (b - a);
           static const std::uint64_t owner = newKeptMassOwner();
           const double inside = keptMass(
               owner, p, [&] { return logitNormalCdf(b, m, scale) - logitNormalCdf(a, m, scale); });
           return inside > 0.0 ? logitNormal(u, m, scale) / inside : 0.0;
         },
         noWeight,
         [windowFlags, preserve](const Params& p) {
           return "--timestep_sampling shift --sigmoid_scale " + num(p[0]) +
                  " --discrete_flow_shift " + num(p[1]) + windowFlags(p, 2) +
                  (preserve ? " --preserve_distribution_shape" : "");
         },
         preserve ? "the shift draw kept where it falls in [min_timestep, max_timestep]/1000"
                  : "the shift draw squeezed into [min_timestep, max_timestep]/1000"});
  TrainerFamily sigmaWindow{
      "sigma + window",
      windowParameters({}),
      [windowOf](double u, const Params& p) {
        const auto [a, b] = windowOf(p, 0);
        return b > a && u >= 1.0 - b && u <= 1.0 - a ? 1.0 / (b - a) : 0.0;
      },
      noWeight,
      [windowFlags](const Params& p) {
        return "--timestep_sampling sigma --weighting_scheme none" + windowFlags(p, 0);
      },
      "uniform u indexed as ⌊u·(max − min) + min⌋ into the unshifted table: t = 1 − j/1000"};
  sigmaWindow.atoms = [](const Params& p) {
    const int lo = static_cast<int>(std::floor(p[0])), hi = static_cast<int>(std::floor(p[1]));
    std::vector<std::pair<double, double>> atoms;
    for (int j = std::max(lo, 0); j < std::min(hi, 1000); ++j)
      atoms.emplace_back(1.0 - j / 1000.0, 1.0 / (hi - lo));
    return atoms;
  };
  m.tool.families.push_back(sigmaWindow);
  addMusubiWeightings(m);
  return m;
}

}  // namespace noisescope::schedule::trainers
