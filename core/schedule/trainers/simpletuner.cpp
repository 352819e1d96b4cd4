// SimpleTuner, per model family (docs/trainers.md).
#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {
namespace {

constexpr int kCubicKnots = 129;  // t = 0, 1/128, …, 1

int signOf(double v) {
  return (v > 0.0) - (v < 0.0);
}

// helpers/training/timestep_distribution.py CubicSplineDistribution: a monotone cubic (PCHIP)
// through knots at t = j/(K − 1), clamped at 0 and normalised; the density at t.
double cubicSplineDensity(double t, const Params& knots) {
  const int k = static_cast<int>(knots.size());
  if (!(t >= 0.0 && t <= 1.0)) return 0.0;
  if (k <= 1) return 1.0;
  const double h = 1.0 / (k - 1);
  std::vector<double> delta(k - 1), slope(k, 0.0);
  for (int i = 0; i + 1 < k; ++i) delta[i] = (knots[i + 1] - knots[i]) / h;
  if (k == 2) {
    slope[0] = slope[1] = delta[0];
  } else {
    for (int i = 1; i + 1 < k; ++i)
      if (delta[i - 1] * delta[i] > 0.0)
        slope[i] = 2.0 * delta[i - 1] * delta[i] / (delta[i - 1] + delta[i]);
    auto end = [](double d0, double d1) {
      double m = (3.0 * d0 - d1) / 2.0;
      if (signOf(m) != signOf(d0)) return 0.0;
      if (signOf(d0) != signOf(d1) && std::abs(m) > 3.0 * std::abs(d0)) return 3.0 * d0;
      return m;
    };
    slope[0] = end(delta[0], delta[1]);
    slope[k - 1] = end(delta[k - 2], delta[k - 3]);
  }
  auto value = [&](double x) {
    const double position = x * (k - 1);
    const int j = std::min(static_cast<int>(std::floor(position)), k - 2);
    const double u = position - j, u2 = u * u, u3 = u2 * u;
    const double v = (2.0 * u3 - 3.0 * u2 + 1.0) * knots[j] + (u3 - 2.0 * u2 + u) * h * slope[j] +
                     (-2.0 * u3 + 3.0 * u2) * knots[j + 1] + (u3 - u2) * h * slope[j + 1];
    return std::max(v, 0.0);
  };
  // The tool normalises by the trapezoid rule on 4097 points; so does this.
  constexpr int kResolution = 4097;
  double area = 0.0, previous = value(0.0);
  for (int i = 1; i < kResolution; ++i) {
    const double next = value(double(i) / (kResolution - 1));
    area += 0.5 * (previous + next) / (kResolution - 1);
    previous = next;
  }
  return area > 0.0 ? value(t) / area : 0.0;
}

// The knots of a free-form target: the draw density averaged over each knot's neighbourhood,
// scaled to a largest knot of 1.
Params cubicKnotsOf(const std::function<double(double)>& drawDensity) {
  Params knots(kCubicKnots);
  const double h = 1.0 / (kCubicKnots - 1);
  constexpr int kSubsamples = 64;
  for (int j = 0; j < kCubicKnots; ++j) {
    const double lo = std::max(0.0, (j - 0.5) * h), hi = std::min(1.0, (j + 0.5) * h);
    double sum = 0.0;
    for (int i = 0; i < kSubsamples; ++i)
      sum += drawDensity(lo + (i + 0.5) * (hi - lo) / kSubsamples);
    knots[j] = sum / kSubsamples;
  }
  const double largest = *std::max_element(knots.begin(), knots.end());
  for (auto& v : knots) v = largest > 0.0 ? v / largest : 1.0;
  return knots;
}

// flow_cubic_schedule_weights with the shift off: the target's own density in t, up to knots.
TrainerFamily cubicFamily() {
  std::vector<TrainerParameter> knots;
  for (int j = 0; j < kCubicKnots; ++j)
    knots.push_back(param("flow_cubic_schedule_weights[" + std::to_string(j) + "]", 1.0, 0.0, 1e9));
  TrainerFamily f{"cubic",
                  knots,
                  cubicSplineDensity,
                  noWeight,
                  [](const Params& p) {
                    std::string list;
                    for (double v : p) list += (list.empty() ? "" : ", ") + num(v);
                    return "\"flow_cubic_schedule_weights\": [" + list +
                           "],\n\"flow_schedule_shift\": 0,\n\"flow_schedule_auto_shift\": false";
                  },
                  "free-form: the target's own density in t through " +
                      std::to_string(kCubicKnots) + " PCHIP knots, the shift off"};
  f.fromDrawDensity = cubicKnotsOf;
  return f;
}

// SimpleTuner (helpers/models/common.py, prepare_batch; helpers/training/custom_schedule.py,
// apply_flow_schedule_shift): every draw — sigmoid, uniform, beta — goes through the same shift,
// a static flow_schedule_shift when it is > 0, else Flux's μ rule when flow_schedule_auto_shift.
// What flow_schedule_auto_shift reads per model (helpers/training/custom_schedule.py
// apply_flow_schedule_shift): μ = calculate_shift_flux(seq_len, base_image_seq_len,
// max_image_seq_len, base_shift, max_shift) from the training scheduler's config and seq_len =
// (h // 2)·(w // 2) of the noise tensor's last two axes (no scheduler config sets patch_size, so
// 2). The config: Qwen-Image's is written in SimpleTuner (qwen_image/model.py
// setup_training_noise_schedule); the others are loaded from the checkpoint's scheduler folder
// (common.py setup_training_noise_schedule): Flux.2's numbers as flux2/model.py SCHEDULER_CONFIG
// copies them, Krea 2's as krea2/pipeline.py documents them, Flux's and SD3's diffusers' defaults.
struct AutoShiftModel {
  std::string name, note;
  double latentScale;  // pixels per latent cell of the noise tensor SimpleTuner shifts
  double maxTokens, maxShift;
  // Whether the auto shift is modelled: a video's μ counts its latent frames too, and some
  // checkpoints' scheduler constants are not read here.
  bool autoShift = true;
};

const std::vector<AutoShiftModel>& autoShiftModels() {
  static const std::vector<AutoShiftModel> list = {
      {"flux",
       "Flux.1 and the flow models whose scheduler keeps diffusers' defaults (SD3.x, Chroma): "
       "latents 1/8 of the pixels, μ from 0.5 at 256 to 1.15 at 4096 tokens",
       8.0, 4096.0, 1.15},
      {"flux2",
       "Flux.2: the cached latents are pixel-shuffled to 128 channels at 1/16 of the pixels "
       "(flux2/model.py post_vae_encode_transform_sample), so the auto shift counts a quarter of "
       "Flux's tokens; μ from 0.5 at 256 to 1.15 at 4096",
       16.0, 4096.0, 1.15},
      {"qwen",
       "Qwen-Image: latents 1/8 of the pixels, μ from 0.5 at 256 to 0.9 at 8192 tokens (its "
       "scheduler config)",
       8.0, 8192.0, 0.9},
      {"krea2",
       "Krea 2: latents 1/8 of the pixels (Qwen-Image's autoencoder), μ from 0.5 at 256 to 1.15 "
       "at 6400 tokens (its scheduler config)",
       8.0, 6400.0, 1.15},
      {"anima",
       "Anima (anima/model.py): the common draw (its sample_flow_sigmas only rescales t); a "
       "single-file checkpoint's scheduler keeps FlowMatchEuler's defaults, so the auto shift is "
       "Flux's",
       8.0, 4096.0, 1.15},
      // The models below draw with the common code too; their auto shift is not modelled.
      {"longcat-image",
       "LongCat-Image (longcat_image/model.py, no override): the common draw; its auto shift "
       "reads the checkpoint's scheduler constants, not modelled",
       8.0, 4096.0, 1.15, false},
      {"wan",
       "Wan 2.1/2.2 T2V (wan/model.py, no override of the draw; a Wan 2.2 expert trains the full "
       "σ range, wan_boundary_ratio being unused in training); the I2V/FLF2V 2.2 stage flavours "
       "and AnimeGen overwrite flow_schedule_shift (5, 3), not modelled; the auto shift counts "
       "latent frames, not modelled",
       8.0, 4096.0, 1.15, false},
      {"hunyuanvideo",
       "HunyuanVideo 1.5 (hunyuanvideo/model.py): the common draw; its per-resolution shift "
       "defaults apply only when flow_schedule_shift is null; the auto shift counts latent frames, "
       "not modelled",
       8.0, 4096.0, 1.15, false},
      {"ltxvideo",
       "LTX-Video and LTX-2 (ltxvideo/, ltxvideo2/model.py): the common draw; the auto shift "
       "(0.95 … 2.05 over 1024 … 4096 tokens) counts latent frames, not modelled",
       8.0, 4096.0, 1.15, false},
      {"longcat-video",
       "LongCat-Video (longcat_video/model.py): the common draw; its shift default 12 applies "
       "only when flow_schedule_shift is null; the auto shift counts latent frames, not modelled",
       8.0, 4096.0, 1.15, false},
      {"kandinsky5-video",
       "Kandinsky 5 video (kandinsky5_video/model.py, no override): the common draw; the auto "
       "shift counts latent frames, not modelled",
       8.0, 4096.0, 1.15, false},
  };
  return list;
}

// flow_schedule_shift 0 and auto shift: σ × e^μ, μ from the latent's (H/8)(W/8)/4 tokens
// between the scheduler's ends (256, 0.5) and (maxTokens, maxShift).
void addAutoShiftFamily(TrainerTool& t, const TrainerSettings& settings,
                        const AutoShiftModel& model) {
  const double tokens = std::floor(std::floor(settings.height / model.latentScale) / 2.0) *
                        std::floor(std::floor(settings.width / model.latentScale) / 2.0);
  const double mu = 0.5 + (model.maxShift - 0.5) / (model.maxTokens - 256.0) * (tokens - 256.0);
  const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
  t.families.push_back(
      {"auto_shift",
       {param("flow_sigmoid_scale", 1.0, 0.05, 5.0)},
       [mu](double u, const Params& p) { return logitNormal(u, mu, p[0]); },
       noWeight,
       [mu, size](const Params& p) {
         return "\"flow_sigmoid_scale\": " + num(p[0]) +
                ",\n\"flow_schedule_shift\": 0,\n\"flow_schedule_auto_shift\": true\n# at " + size +
                " px the auto shift is e^" + num(mu) + " = " + num(std::exp(mu));
       },
       "sigmoid, then the model's resolution rule: μ = " + num(mu) + " at " + size + " px (" +
           num(tokens) + " tokens)"});
}

ModelDefinition flowModels(const TrainerSettings& settings, const std::string& model) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = flowTool("simpletuner", "config.json keys (or the same flags on the command line)");
  const AutoShiftModel* shape = &autoShiftModels().front();
  for (const auto& a : autoShiftModels())
    if (a.name == model) shape = &a;
  t.model = shape->name;
  t.modelNote = shape->note + "; one draw for every flow model (helpers/models/common.py " +
                "sample_flow_sigmas), velocity loss";
  t.families.push_back(
      {"sigmoid",
       {param("flow_sigmoid_scale", 1.0, 0.05, 5.0),
        param("flow_schedule_shift", 3.0, 0.02, 50.0, true)},
       [](double u, const Params& p) { return logitNormal(u, std::log(p[1]), p[0]); },
       noWeight,
       [](const Params& p) {
         return "\"flow_sigmoid_scale\": " + num(p[0]) +
                ",\n\"flow_schedule_shift\": " + num(p[1]) +
                ",\n\"flow_schedule_auto_shift\": false";
       },
       "the default: sigmoid of a scaled normal, then the shift"});
  if (shape->autoShift) addAutoShiftFamily(t, settings, *shape);
  t.families.push_back(
      {"beta",
       {param("flow_beta_schedule_alpha", 2.0, 0.1, 20.0, true),
        param("flow_beta_schedule_beta", 2.0, 0.1, 20.0, true)},
       [](double u, const Params& p) { return betaPdf(u, p[0], p[1]); },
       noWeight,
       [](const Params& p) {
         return "\"flow_use_beta_schedule\": true,\n\"flow_beta_schedule_alpha\": " + num(p[0]) +
                ",\n\"flow_beta_schedule_beta\": " + num(p[1]) +
                ",\n\"flow_schedule_shift\": 0,\n\"flow_schedule_auto_shift\": false";
       },
       "shift 0 and auto shift off, so t is the beta draw itself"});
  t.families.push_back({"uniform",
                        {param("flow_schedule_shift", 3.0, 0.02, 50.0, true)},
                        [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
                        noWeight,
                        [](const Params& p) {
                          return "\"flow_use_uniform_schedule\": true,\n\"flow_schedule_shift\": " +
                                 num(p[0]);
                        },
                        "uniform t, then the shift"});
  t.families.push_back(cubicFamily());
  // flux_fast_schedule (sample_flow_sigmas' last branch, reached when no other draw is set): t
  // picked by random.choices from [1.0]·7 + [0.75, 0.5, 0.25], not shifted. The 70 % at t = 1
  // is pure noise (σ = ∞), outside every grid: φ on a grid is the other three values'.
  TrainerFamily fast{"flux_fast_schedule",
                     {},
                     [](double, const Params&) { return 0.0; },  // atoms only
                     noWeight,
                     [](const Params&) { return std::string("\"flux_fast_schedule\": true"); },
                     "t = 1 (70 %, pure noise, off every grid), 0.75, 0.5 or 0.25 (10 % each); "
                     "no knob"};
  fast.atoms = [](const Params&) {
    return std::vector<std::pair<double, double>>{{1.0, 0.7}, {0.75, 0.1}, {0.5, 0.1}, {0.25, 0.1}};
  };
  t.families.push_back(fast);
  m.defaultDraw = "sigmoid";
  return m;
}

// The models whose model.py overrides sample_flow_sigmas, so none of the common draws or shifts
// apply (mixflow aside). Ideogram 4 (ideogram/model.py Ideogram4.sample_flow_sigmas,
// ideogram/scheduler.py get_schedule_for_resolution): u uniform, σ = expit(mean + std·Φ⁻¹(u)),
// mean = ideogram_schedule_mu + ½ ln(H·W/512²), clamped to logsnr ∈ [−15, 18]; its cubic option
// maps the cubic draw through the same quantile function (not offered). OmniGen
// (omnigen/model.py OmniGen.sample_flow_sigmas): σ = sigmoid(N(0, 1)), no knob, or the cubic
// draw unshifted. Both train the flow-matching target (a velocity error).
ModelDefinition ownDrawModel(const TrainerSettings& settings, const std::string& model) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = flowTool("simpletuner", "config.json keys (or the same flags on the command line)");
  t.model = model;
  if (model == "ideogram") {
    const double resolutionMean =
        0.5 * std::log(double(settings.width) * settings.height / (512.0 * 512.0));
    const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
    t.modelNote =
        "Ideogram 4 (ideogram/model.py): its own resolution-aware logit-normal draw, no "
        "shift; velocity loss";
    t.families.push_back(
        {"ideogram_schedule",
         {param("ideogram_schedule_mu", 0.0, -6.0, 6.0),
          param("ideogram_schedule_std", 1.5, 0.1, 5.0)},
         [resolutionMean](double u, const Params& p) {
           return logitNormal(u, p[0] + resolutionMean, p[1]);
         },
         noWeight,
         [resolutionMean, size](const Params& p) {
           return "\"ideogram_schedule_mu\": " + num(p[0]) +
                  ",\n\"ideogram_schedule_std\": " + num(p[1]) + "\n# at " + size +
                  " px the draw's logit mean is mu + " + num(resolutionMean);
         },
         "logit σ ~ N(ideogram_schedule_mu + ½ ln(pixels/512²), ideogram_schedule_std²) at " +
             size + " px"});
    m.defaultDraw = "ideogram_schedule";
    return m;
  }
  t.modelNote =
      "OmniGen (omnigen/model.py): its own draw, sigmoid(N(0, 1)) with no shift; "
      "velocity loss";
  t.families.push_back(
      {"sigmoid",
       {},
       [](double u, const Params&) { return logitNormal(u, 0.0, 1.0); },
       noWeight,
       [](const Params&) { return std::string("# OmniGen draws sigmoid(N(0, 1)) itself: no key"); },
       "σ = sigmoid(N(0, 1)), no knob"});
  t.families.push_back(cubicFamily());
  m.defaultDraw = "sigmoid";
  return m;
}

// Sana and SanaVideo (sana/model.py Sana.setup_training_noise_schedule, sample_flow_sigmas,
// prepare_batch): u uniform (or the cubic draw) indexes the checkpoint's FlowMatchEuler table,
// t = 1 − min(⌊1000·u⌋, 999)/1000; the Hub's DPMSolverMultistepScheduler config names its shift
// flow_shift, which FlowMatchEuler does not read, so the table is unshifted, and the model turns
// flow_schedule_shift and the auto shift off. The latents are halved before noising
// (LATENT_RESCALE 0.5): against the cached latent the noise is 2t/(1 − t), the σ of shift_2(t).
// So the tool's coordinate here is t′ = shift_2(t), and the velocity loss's x0 weight, 1/t² of
// the true t = σ/(2 + σ), is (2 + σ)²/σ², a factor ((2 + σ)/(1 + σ))² on the tool's (1 + σ)²/σ².
constexpr double kSanaRescaleShift = 2.0;

double sanaTime(double tPrime) {  // t from t′ = shift_2(t)
  return tPrime / (kSanaRescaleShift - (kSanaRescaleShift - 1.0) * tPrime);
}

ModelDefinition sanaModel() {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = flowTool("simpletuner", "config.json keys (or the same flags on the command line)");
  t.model = "sana";
  t.modelNote =
      "Sana and SanaVideo (sana/model.py): u uniform indexed into the checkpoint's table, "
      "unshifted (the Hub config's flow_shift is not read; flow_schedule_shift and the auto "
      "shift are switched off), the latents halved before noising (LATENT_RESCALE 0.5), so σ is "
      "twice the table's against the cached latent; velocity loss";
  t.discretisation =
      "1000 table values t = 1, 0.999, …, 0.001, at σ = 2t/(1 − t) of the cached latent";
  t.tableEdges = tableEdges(1000, kSanaRescaleShift);
  t.tableAtUpper = true;
  const auto rescaledVelocity = [](double sigma, const Params&) {
    const double r = (kSanaRescaleShift + sigma) / (1.0 + sigma);
    return r * r;
  };
  t.families.push_back(
      {"uniform",
       {},
       [](double u, const Params&) { return shiftedUniform(u, kSanaRescaleShift); },
       rescaledVelocity,
       [](const Params&) {
         return std::string(
             "# Sana draws its table uniformly itself: no key (flow_schedule_shift and "
             "flow_schedule_auto_shift are ignored for it)");
       },
       "u uniform over the 1000-entry table, t = 1 − ⌊1000·u⌋/1000; no knob"});
  // flow_cubic_schedule_weights: the knots shape u, and t = 1 − u on the table, so the knots
  // are the target's draw read backwards.
  TrainerFamily cubic = cubicFamily();
  cubic.density = [](double tPrime, const Params& knots) {
    if (!(tPrime > 0.0 && tPrime < 1.0)) return 0.0;
    const double time = sanaTime(tPrime);
    const double dtdtPrime = kSanaRescaleShift / std::pow(kSanaRescaleShift - tPrime, 2.0);
    return cubicSplineDensity(1.0 - time, knots) * dtdtPrime;
  };
  cubic.toolWeight = rescaledVelocity;
  cubic.fromDrawDensity = [](const std::function<double(double)>& drawDensity) {
    return cubicKnotsOf([&](double u) {
      const double time = 1.0 - u;
      const double dtPrimedt =
          kSanaRescaleShift / std::pow(1.0 + (kSanaRescaleShift - 1.0) * time, 2.0);
      return drawDensity(shiftFlowTime(time, kSanaRescaleShift)) * dtPrimedt;
    });
  };
  cubic.snippet = [](const Params& p) {
    std::string list;
    for (double v : p) list += (list.empty() ? "" : ", ") + num(v);
    return "\"flow_cubic_schedule_weights\": [" + list +
           "]\n# Sana reads the knots as u and trains t = 1 − u on its table";
  };
  cubic.note = "free-form: the knots shape u = 1 − t, indexed into the table; " +
               std::to_string(kCubicKnots) + " PCHIP knots";
  t.families.push_back(cubic);
  m.defaultDraw = "uniform";
  return m;
}

}  // namespace

std::vector<std::string> simpleTunerModels() {
  std::vector<std::string> names;
  for (const auto& a : autoShiftModels()) names.push_back(a.name);
  names.push_back("ideogram");
  names.push_back("omnigen");
  names.push_back("sana");
  return names;
}

ModelDefinition simpleTuner(const TrainerSettings& settings, const std::string& model) {
  if (model == "ideogram" || model == "omnigen") return ownDrawModel(settings, model);
  if (model == "sana") return sanaModel();
  return flowModels(settings, model);
}

}  // namespace noisescope::schedule::trainers
