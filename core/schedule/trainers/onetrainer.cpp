// OneTrainer, per model family (docs/trainers.md). One draw for every model,
// modules/modelSetup/mixin/ModelSetupNoiseMixin.py _get_timestep_discrete: a float x in [0, 1)
// from timestep_distribution, shifted to a·x/((a − 1)·x + 1) (a = timestep_shift, or e^μ under
// dynamic_timestep_shifting), truncated to an integer k of 1000. DDPM models (SD 1.x/2.x, SDXL)
// noise at k of their β table and weight with ModelSetupDiffusionLossMixin's loss_weight_fn; flow
// models (ModelSetupFlowMatchingMixin._add_noise_discrete) noise at t = (k + 1)/1000 against the
// velocity. min_noising_strength / max_noising_strength confine every draw to a window of the
// 1000 timesteps (NoisingWindow below).
#include "schedule/trainers/tools.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::schedule::trainers {
namespace {

// _get_timestep_discrete's window: the integer timesteps [m, M) with m = int(1000·min) and M =
// int(1000·max). The continuous distributions are laid over [m, M) and then shifted (the shift
// acts on the absolute fraction timestep/1000); the weight tables keep their own [0, 1] shape,
// shift included, on linspace(0, 1, M − m), and the drawn index is offset by m.
struct NoisingWindow {
  double min = 0.0, max = 1.0;  // the keys' values, as the user set them
  int first = 0, end = 1000;    // m and M

  double low() const { return first / 1000.0; }
  double span() const { return (end - first) / 1000.0; }
  int count() const { return end - first; }
  // Density at y of low + span·x for x drawn with density `base` on [0, 1].
  template <class Base>
  double laid(double y, Base base) const {
    const double x = (y - low()) / span();
    if (!(x >= 0.0 && x <= 1.0)) return 0.0;
    return base(x) / span();
  }
};

NoisingWindow noisingWindow(const TrainerSettings& settings) {
  NoisingWindow w;
  w.min = settings.noisingStrengthMin;
  w.max = settings.noisingStrengthMax;
  if (!(w.min >= 0.0 && w.max <= 1.0 && w.min < w.max))
    throw InputError(settings::kNoisingStrength, "min_noising_strength " + num(w.min) +
                                                     " and max_noising_strength " + num(w.max) +
                                                     " must satisfy 0 ≤ min < max ≤ 1");
  // Python's int() of the same double product: the timesteps OneTrainer computes.
  w.first = static_cast<int>(1000.0 * w.min);
  w.end = static_cast<int>(1000.0 * w.max);
  if (w.count() < 2)
    throw InputError(settings::kNoisingStrength,
                     "min_noising_strength " + num(w.min) + " and max_noising_strength " +
                         num(w.max) + " leave " + std::to_string(std::max(w.count(), 0)) +
                         " of OneTrainer's 1000 timesteps; its draw needs at least 2");
  return w;
}

// The window's keys, as every snippet prints them (a JSON number with a decimal point, as
// OneTrainer's own configs write these floats).
std::string rangeKeys(const NoisingWindow& w) {
  auto decimal = [](double v) {
    std::string text = num(v);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
  };
  return ",\n\"min_noising_strength\": " + decimal(w.min) +
         ",\n\"max_noising_strength\": " + decimal(w.max);
}

std::string shiftKeys(double a, bool dynamic) {
  return dynamic ? ",\n\"timestep_shift\": 1.0,\n\"dynamic_timestep_shifting\": true"
                 : ",\n\"timestep_shift\": " + num(a) + ",\n\"dynamic_timestep_shifting\": false";
}

// The continuous distributions, laid over the window and then shifted by `fixedShift` (dynamic:
// e^μ) or by a fitted timestep_shift where the distribution leaves room for a second knob. The
// shift acts on x = k/1000, which for flow models is t and for DDPM models the timestep fraction.
void continuousFamilies(TrainerTool& t, double fixedShift, bool dynamic, const NoisingWindow& w) {
  const std::string shiftNote =
      dynamic ? "; shifted by e^μ = " + num(fixedShift) + " (dynamic_timestep_shifting)" : "";
  const std::string range = rangeKeys(w);
  // The density at u of the draw `base` on [0, 1], laid over the window, then shifted by a.
  auto drawn = [w](double u, double a, auto base) {
    return shiftedDensity(u, a, [&](double y) { return w.laid(y, base); });
  };
  t.families.push_back(
      {"LOGIT_NORMAL",
       {param("noising_bias", 0.0, -4.0, 4.0), param("noising_weight", 0.0, -0.95, 5.0)},
       [fixedShift, drawn](double u, const Params& p) {
         return drawn(u, fixedShift, [&](double x) { return logitNormal(x, p[0], p[1] + 1.0); });
       },
       noWeight,
       [dynamic, range](const Params& p) {
         return "\"timestep_distribution\": \"LOGIT_NORMAL\",\n\"noising_bias\": " + num(p[0]) +
                ",\n\"noising_weight\": " + num(p[1]) + shiftKeys(1.0, dynamic) + range;
       },
       "x = sigmoid(N(bias, weight + 1)); a shift would only add ln a to the bias" + shiftNote});
  if (dynamic) {
    t.families.push_back(
        {"HEAVY_TAIL",
         {param("noising_weight", 0.0, -0.95, 1.7)},
         [fixedShift, drawn](double u, const Params& p) {
           return drawn(u, fixedShift, [&](double x) { return modeDensity(1.0 - x, p[0]); });
         },
         noWeight,
         [range](const Params& p) {
           return "\"timestep_distribution\": \"HEAVY_TAIL\",\n\"noising_weight\": " + num(p[0]) +
                  shiftKeys(1.0, true) + range;
         },
         "x = 1 − g(U), SD3's mode map with scale = noising_weight" + shiftNote});
    t.families.push_back({"UNIFORM",
                          {},
                          [fixedShift, drawn](double u, const Params&) {
                            return drawn(u, fixedShift, [](double) { return 1.0; });
                          },
                          noWeight,
                          [range](const Params&) {
                            return "\"timestep_distribution\": \"UNIFORM\"" + shiftKeys(1.0, true) +
                                   range;
                          },
                          "uniform x" + shiftNote});
  } else {
    t.families.push_back(
        {"HEAVY_TAIL",
         {param("noising_weight", 0.0, -0.95, 1.7), param("timestep_shift", 1.0, 0.02, 50.0, true)},
         [drawn](double u, const Params& p) {
           return drawn(u, p[1], [&](double x) { return modeDensity(1.0 - x, p[0]); });
         },
         noWeight,
         [range](const Params& p) {
           return "\"timestep_distribution\": \"HEAVY_TAIL\",\n\"noising_weight\": " + num(p[0]) +
                  shiftKeys(p[1], false) + range;
         },
         "x = 1 − g(U), SD3's mode map with scale = noising_weight, then the shift"});
    t.families.push_back(
        {"UNIFORM",
         {param("timestep_shift", 1.0, 0.02, 50.0, true)},
         [drawn](double u, const Params& p) { return drawn(u, p[0], [](double) { return 1.0; }); },
         noWeight,
         [range](const Params& p) {
           return "\"timestep_distribution\": \"UNIFORM\"" + shiftKeys(p[0], false) + range;
         },
         "uniform x, then the shift"});
  }
  // BETA: a static model fits timestep_shift as its third knob (the shift is applied to the beta
  // draw like to every continuous distribution); under dynamic shifting it is e^μ.
  std::vector<TrainerParameter> beta{param("noising_weight", 2.0, 0.1, 20.0, true),
                                     param("noising_bias", 2.0, 0.1, 20.0, true)};
  if (!dynamic) beta.push_back(param("timestep_shift", 1.0, 0.02, 50.0, true));
  auto betaShift = [fixedShift, dynamic](const Params& p) { return dynamic ? fixedShift : p[2]; };
  t.families.push_back(
      {"BETA", beta,
       [betaShift, drawn](double u, const Params& p) {
         return drawn(u, betaShift(p), [&](double x) { return betaPdf(x, p[0], p[1]); });
       },
       noWeight,
       [dynamic, betaShift, range](const Params& p) {
         return "\"timestep_distribution\": \"BETA\",\n\"noising_weight\": " + num(p[0]) +
                ",\n\"noising_bias\": " + num(p[1]) + shiftKeys(betaShift(p), dynamic) + range;
       },
       "x ~ Beta(α = noising_weight, β = noising_bias)" +
           (dynamic ? shiftNote : std::string(", then the shift"))});
}

// SIGMOID (_get_timestep_discrete, its discrete branch): weights over the 1000 indices i at x =
// i/999, sigmoid(weight·(y − bias − 0.5))·(s⁻¹)′(x) with y = s⁻¹(s⁻¹(x)): the linspace is
// inverse-shifted once for every table and the sigmoid branch inverse-shifts it again, while the
// derivative is that of one inverse shift (s the shift a, e^μ under dynamic shifting). So for
// a ≠ 1 the table is not the shifted sigmoid density; it is what the code draws (torch.multinomial
// over these weights), so the family is those 1000 atoms, index i trained at `value(i)`.
double sigmoidTableWeight(double x, double bias, double weight, double a) {
  const double once = x / (a - a * x + x);
  const double twice = once / (a - a * once + once);
  const double d = a + x - x * a;
  return 1.0 / (1.0 + std::exp(-weight * (twice - bias - 0.5))) * a / (d * d);
}

TrainerFamily sigmoidTable(bool flow, double fixedShift, bool dynamic, const NoisingWindow& w) {
  std::vector<TrainerParameter> parameters{param("noising_bias", 0.0, -0.5, 0.5),
                                           param("noising_weight", 1.0, -40.0, 40.0)};
  if (!dynamic) parameters.push_back(param("timestep_shift", 1.0, 0.02, 50.0, true));
  auto shiftOf = [fixedShift, dynamic](const Params& p) { return dynamic ? fixedShift : p[2]; };
  // The index m + j is trained at t = (m + j + 1)/1000 (flow models) or at DDPM timestep m + j.
  auto value = [flow, w](int j) {
    const int k = w.first + j;
    return flow ? (k + 1) / 1000.0 : k / 1000.0;
  };
  const int n = w.count();
  const std::string range = rangeKeys(w);
  TrainerFamily f{
      "SIGMOID", parameters,
      // The outline: the weights at the table coordinate of u, normalised by the trapezoid rule
      // over the table's n points, laid over the window.
      [shiftOf, w, n](double u, const Params& p) {
        const double a = shiftOf(p);
        double area = 0.0;
        for (int j = 0; j < n; ++j)
          area +=
              sigmoidTableWeight(j / (n - 1.0), p[0], p[1], a) * (j == 0 || j == n - 1 ? 0.5 : 1.0);
        area /= n - 1.0;
        if (!(area > 0.0)) return 0.0;
        return w.laid(u, [&](double x) { return sigmoidTableWeight(x, p[0], p[1], a) / area; });
      },
      noWeight,
      [shiftOf, dynamic, range](const Params& p) {
        return "\"timestep_distribution\": \"SIGMOID\",\n\"noising_bias\": " + num(p[0]) +
               ",\n\"noising_weight\": " + num(p[1]) + shiftKeys(shiftOf(p), dynamic) + range;
      },
      "weights ∝ sigmoid(weight·(y − bias − 0.5)) on the " + std::to_string(n) +
          " indices, y the index inverse-shifted twice (as the code does)" +
          (dynamic ? "; shifted by e^μ = " + num(fixedShift) + " (dynamic_timestep_shifting)"
                   : "")};
  f.atoms = [shiftOf, value, n](const Params& p) {
    const double a = shiftOf(p);
    std::vector<std::pair<double, double>> atoms(n);
    double total = 0.0;
    for (int j = 0; j < n; ++j) {
      atoms[j] = {value(j), sigmoidTableWeight(j / (n - 1.0), p[0], p[1], a)};
      total += atoms[j].second;
    }
    for (auto& atom : atoms) atom.second /= total;
    return atoms;
  };
  return f;
}

// ∫ max(0, 2 − w·(y − b)²) dy over [0, 1] (w ≤ 0: the parabola opens upwards, never clamped).
double invertedParabolaMass(double w, double b) {
  double lo = 0.0, hi = 1.0;
  if (w > 0.0) {
    const double r = std::sqrt(2.0 / w);
    lo = std::max(lo, b - r), hi = std::min(hi, b + r);
  }
  if (!(hi > lo)) return 0.0;
  auto primitive = [w](double z) { return 2.0 * z - w * z * z * z / 3.0; };
  return primitive(hi - b) - primitive(lo - b);
}

// The weight tables COS_MAP and INVERTED_PARABOLA: _get_timestep_discrete puts weight
// g(s⁻¹(x))·(s⁻¹)′(x) on each of its 1000 indices x = i/999 (s the shift, e^μ under dynamic
// shifting), which is the density of s(y) for y drawn from g: shiftedDensity. A static model's
// timestep_shift is fitted; the dynamic one is e^μ.
void tableFamilies(TrainerTool& t, double fixedShift, bool dynamic, const NoisingWindow& w) {
  const std::string shiftNote =
      dynamic ? "; shifted by e^μ = " + num(fixedShift) + " (dynamic_timestep_shifting)"
              : ", then the shift";
  auto shiftOf = [fixedShift, dynamic](const Params& p, std::size_t i) {
    return dynamic ? fixedShift : p[i];
  };
  const std::string range = rangeKeys(w);
  const std::string indices = " on the " + std::to_string(w.count()) + " indices";
  std::vector<TrainerParameter> shiftParameter;
  if (!dynamic) shiftParameter.push_back(param("timestep_shift", 1.0, 0.02, 50.0, true));
  t.families.push_back({"COS_MAP", shiftParameter,
                        [shiftOf, w](double u, const Params& p) {
                          return w.laid(u, [&](double x) {
                            // COS_MAP draws with the density of cosmap's loss weight
                            return shiftedDensity(x, shiftOf(p, 0), cosmapWeight);
                          });
                        },
                        noWeight,
                        [shiftOf, dynamic, range](const Params& p) {
                          return "\"timestep_distribution\": \"COS_MAP\"" +
                                 shiftKeys(shiftOf(p, 0), dynamic) + range;
                        },
                        "weights 2/(π(1 − 2y + 2y²))" + indices + shiftNote});
  std::vector<TrainerParameter> parabola{param("noising_bias", 0.0, -0.5, 0.5),
                                         param("noising_weight", 7.7, -40.0, 60.0)};
  for (const auto& q : shiftParameter) parabola.push_back(q);
  t.families.push_back(
      {"INVERTED_PARABOLA", parabola,
       [shiftOf, w](double u, const Params& p) {
         const double weight = p[1], b = p[0] + 0.5, mass = invertedParabolaMass(weight, b);
         if (!(mass > 0.0)) return 0.0;
         return w.laid(u, [&](double x) {
           return shiftedDensity(x, shiftOf(p, 2), [=](double y) {
             return std::max(0.0, 2.0 - weight * (y - b) * (y - b)) / mass;
           });
         });
       },
       noWeight,
       [shiftOf, dynamic, range](const Params& p) {
         return "\"timestep_distribution\": \"INVERTED_PARABOLA\",\n\"noising_bias\": " +
                num(p[0]) + ",\n\"noising_weight\": " + num(p[1]) +
                shiftKeys(shiftOf(p, 2), dynamic) + range;
       },
       "weights max(0, 2 − weight·(y − bias − 0.5)²)" + indices + shiftNote});
}

LossWeighting strengthWeighting(std::string name, std::function<double(double, double)> weight,
                                bool hasStrength) {
  LossWeighting w;
  w.name = name;
  if (hasStrength) w.parameters.push_back(param("loss_weight_strength", 5.0, 0.05, 100.0, true));
  w.fixedValue = 5.0;
  w.joiner = ",\n";  // the draw's keys end without a comma
  w.weight = std::move(weight);
  w.snippet = [name, hasStrength](double gamma) {
    return "\"loss_weight_fn\": \"" + name + "\"" +
           (hasStrength ? ",\n\"loss_weight_strength\": " + num(gamma) : std::string());
  };
  return w;
}

// SD 1.x/2.x and SDXL: the DDPM table, ε (v for v checkpoints or force_v_prediction).
ModelDefinition oneTrainerDdpm(const TrainerSettings& settings, const std::string& model) {
  const bool v = model == "sd2-v" || model == "sdxl-v";
  ModelDefinition m;
  m.tool =
      ddpmTool("onetrainer", "the training config JSON (the UI's Training tab, noise section)", v);
  m.tool.model = model;
  m.tool.modelNote = v ? "a v-prediction SD 2.x/SDXL checkpoint (or force_v_prediction)"
                       : "an ε-prediction SD 1.5/SDXL checkpoint";
  const NoisingWindow w = noisingWindow(settings);
  continuousFamilies(m.tool, 1.0, false, w);
  m.tool.families.push_back(sigmoidTable(false, 1.0, false, w));
  tableFamilies(m.tool, 1.0, false, w);
  // ModelSetupDiffusionLossMixin: __min_snr_weight, __debiased_estimation_weight, __p2_loss_weight.
  m.weightings.push_back(strengthWeighting(
      "MIN_SNR_GAMMA", [v](double sigma, double g) { return minSnrWeight(sigma, g, v); }, true));
  m.weightings.push_back(strengthWeighting(
      "DEBIASED_ESTIMATION",
      [v](double sigma, double) {
        const double snr = 1.0 / (sigma * sigma);
        return 1.0 / std::sqrt(v ? snr + 1.0 : snr);
      },
      false));
  m.weightings.push_back(strengthWeighting(
      "P2",
      [v](double sigma, double g) {
        const double snr = 1.0 / (sigma * sigma);
        return std::pow((v ? 2.0 : 1.0) + snr, -g);
      },
      true));
  m.defaultDraw = "UNIFORM";
  return m;
}

// Flow models: t = (k + 1)/1000, velocity target; loss_weight_fn SIGMA multiplies by t.
ModelDefinition flow(const TrainerSettings& settings, const std::string& model) {
  const bool dynamic = model == "flux";
  ModelDefinition m;
  m.tool =
      flowTool("onetrainer", "the training config JSON (the UI's Training tab, noise section)");
  m.tool.model = model;
  m.tool.discretisation = "t = (k + 1)/1000, k = 0 … 999";
  m.tool.tableEdges = tableEdges(1000);  // k = ⌊1000·x′⌋ trains at t = (k + 1)/1000
  m.tool.tableAtUpper = true;
  const double mu = fluxShiftMu(settings);
  const NoisingWindow w = noisingWindow(settings);
  if (dynamic) {
    m.tool.modelNote =
        "Flux.1/Flux.2 presets: LOGIT_NORMAL with dynamic_timestep_shifting on, "
        "so the draw is shifted by e^μ for " +
        std::to_string(settings.width) + "×" + std::to_string(settings.height) +
        " px (μ = " + num(mu) + ")";
    continuousFamilies(m.tool, std::exp(mu), true, w);
    m.tool.families.push_back(sigmoidTable(true, std::exp(mu), true, w));
    tableFamilies(m.tool, std::exp(mu), true, w);
  } else {
    m.tool.modelNote =
        "SD3/SD3.5, Chroma, Qwen-Image, Z-Image, HiDream, Hunyuan Video, …: the "
        "static timestep_shift only (SD3's own shift 3 is not applied)";
    continuousFamilies(m.tool, 1.0, false, w);
    m.tool.families.push_back(sigmoidTable(true, 1.0, false, w));
    tableFamilies(m.tool, 1.0, false, w);
  }
  m.weightings.push_back(strengthWeighting(
      "SIGMA", [](double sigma, double) { return flowT(sigma); }, false));
  m.defaultDraw = "LOGIT_NORMAL";
  return m;
}

}  // namespace

ModelDefinition oneTrainer(const TrainerSettings& settings, const std::string& model) {
  if (model == "flux" || model == "sd3" || model == "chroma" || model == "qwen")
    return flow(settings, model);
  return oneTrainerDdpm(settings, model);
}

}  // namespace noisescope::schedule::trainers
