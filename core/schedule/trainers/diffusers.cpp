// diffusers' example training scripts, per model family (docs/trainers.md, "diffusers"). The
// flow scripts draw u with src/diffusers/training_utils.py compute_density_for_timestep_sampling,
// index ⌊1000·u⌋ into the scheduler's descending sigmas (t = shift_a(1 − u)) and weight with
// compute_loss_weighting_for_sd3; the SD 1.x/2.x/SDXL scripts draw an integer timestep uniformly,
// or (train_text_to_image_sdxl.py) by the weights of --timestep_bias_strategy.
#include <algorithm>
#include <cstdio>
#include <functional>

#include "schedule/trainers/tools.h"
#include "util/error.h"

namespace noisescope::schedule::trainers {
namespace {

// The draws with no knob of compute_density_for_timestep_sampling (uniform), each with its
// compute_loss_weighting_for_sd3 weight: cosmap 2/(π(1 − 2x + 2x²)), sigma_sqrt x⁻², none 1,
// where x is the σ the script hands the weighting (`weighted`: the noise fraction t for most
// scripts, the data fraction for Lumina 2). `uniform` is the draw's density in t; the texts say
// how the script spells the draw and its σ.
struct UniformDraws {
  std::function<double(double, const Params&)> uniform;
  std::function<double(double sigma)> weighted;
  std::string draw;            // "uniform u", "uniform t"
  std::string cosmapVariable;  // "t", "σ"
  std::string sigmaSqrtText;   // "t⁻²", …
  std::string suffix;          // "; the training table is unshifted", or ""
  bool offerNone = true;       // the script's --weighting_scheme accepts none
  std::string extra = "";      // flags every snippet of the script ends with
};

void uniformDrawFamilies(std::vector<TrainerFamily>& f, const UniformDraws& d) {
  const std::string v = d.cosmapVariable;
  TrainerFamily cosmap{
      "cosmap",
      {},
      d.uniform,
      fixedWeight([weighted = d.weighted](double sigma) { return cosmapWeight(weighted(sigma)); }),
      [extra = d.extra](const Params&) { return "--weighting_scheme cosmap" + extra; },
      d.draw + ", loss weighted 2/(π(1 − 2" + v + " + 2" + v + "²))" + d.suffix};
  cosmap.weighting = "cosmap";
  f.push_back(cosmap);
  TrainerFamily sigmaSqrt{
      "sigma_sqrt",
      {},
      d.uniform,
      fixedWeight([weighted = d.weighted](double sigma) {
        const double x = weighted(sigma);
        return 1.0 / (x * x);
      }),
      [extra = d.extra](const Params&) { return "--weighting_scheme sigma_sqrt" + extra; },
      d.draw + ", loss weighted " + d.sigmaSqrtText + d.suffix};
  sigmaSqrt.weighting = "sigma_sqrt";
  f.push_back(sigmaSqrt);
  if (d.offerNone)
    f.push_back({"none",
                 {},
                 d.uniform,
                 noWeight,
                 [extra = d.extra](const Params&) { return "--weighting_scheme none" + extra; },
                 d.draw + d.suffix});
}

// The flow scripts' families on a scheduler table with static shift `shift` (1: unshifted).
// `none` is offered only where the script's --weighting_scheme accepts it.
void flowFamilies(TrainerTool& t, double shift, bool offerNone, const std::string& extra) {
  const double lnShift = std::log(shift);
  const std::string table =
      shift == 1.0 ? "the training table is unshifted"
                   : "the checkpoint's scheduler table carries a static shift " + num(shift);
  const std::string indexing =
      "index u·1000 into the scheduler's descending sigmas, so t = 1 − u; " + table;
  t.families.push_back(
      {"logit_normal",
       {param("logit_mean", 0.0, -4.0, 4.0), param("logit_std", 1.0, 0.05, 5.0)},
       [lnShift](double u, const Params& p) { return logitNormal(u, -p[0] + lnShift, p[1]); },
       noWeight,
       [extra](const Params& p) {
         return "--weighting_scheme logit_normal --logit_mean " + num(p[0]) + " --logit_std " +
                num(p[1]) + extra;
       },
       indexing});
  t.families.push_back({"mode",
                        {param("mode_scale", 1.29, -0.95, 1.7)},
                        [shift](double u, const Params& p) {
                          return shiftedDensity(u, shift,
                                                [&](double x) { return modeDensity(x, p[0]); });
                        },
                        noWeight,
                        [extra](const Params& p) {
                          return "--weighting_scheme mode --mode_scale " + num(p[0]) + extra;
                        },
                        indexing});
  uniformDrawFamilies(t.families,
                      {[shift](double u, const Params&) { return shiftedUniform(u, shift); }, flowT,
                       "uniform u", "t", "t⁻²", "; " + table, offerNone, extra});
}

// A flow script training on the scheduler's 1000-entry table with static shift `shift` (1:
// unshifted), its families from flowFamilies.
ModelDefinition flowTableModel(const std::string& model, const std::string& knob,
                               const std::string& note, double shift, bool offerNone,
                               const std::string& extra) {
  ModelDefinition m = flowModel("diffusers", knob, model, note);
  m.tool.discretisation = shift == 1.0 ? "1000 table values t = 1, 0.999, …, 0.001"
                                       : "1000 table values t = shift(1), …, shift(0.001), "
                                         "static shift " +
                                             num(shift);
  // u in [j, j + 1)/1000 trains at t = shift(1 − j/1000), the cell's upper end
  m.tool.tableEdges = tableEdges(1000, shift);
  m.tool.tableAtUpper = true;
  flowFamilies(m.tool, shift, offerNone, extra);
  m.defaultDraw = offerNone ? "none" : "logit_normal";
  return m;
}

ModelDefinition flux() {
  return flowTableModel("flux",
                        "command-line flags of examples/dreambooth/train_dreambooth_lora_flux.py "
                        "(and the Flux.2, Qwen-Image, Krea 2 scripts)",
                        "Flux.1/Flux.2/Qwen-Image/Krea 2 scripts: velocity loss; their checkpoints "
                        "shift dynamically, so the training table is unshifted",
                        1.0, true, "");
}

ModelDefinition sd3() {
  ModelDefinition m = flowTableModel(
      "sd3",
      "command-line flags of examples/dreambooth/train_dreambooth_lora_sd3.py (or "
      "train_dreambooth_sd3.py)",
      "SD3/SD3.5 scripts: --precondition_outputs 1 (the default) trains the x0 estimate "
      "model_pred·(−σ) + x_t against x0; the scheduler table carries SD3's static shift 3",
      3.0, false, " --precondition_outputs 1");
  m.tool.lossSpace = "x0 (--precondition_outputs 1)";
  m.tool.lossToX0 = one;
  return m;
}

// HiDream (train_dreambooth_lora_hidream.py: the scheduler loaded with shift=3.0) and Z-Image
// (train_dreambooth_lora_z_image.py: the checkpoint's static shift 3, Z-Image-Turbo's config as
// ai-toolkit's extensions_built_in/diffusion_models/z_image/z_image.py copies it): the Flux
// families on a table shifted by 3, t = shift₃(1 − u); both negate the model's output against
// noise − x0, the same velocity error.
ModelDefinition staticShift(const std::string& model, const std::string& script,
                            const std::string& note) {
  return flowTableModel(model, "command-line flags of examples/dreambooth/" + script, note, 3.0,
                        true, "");
}

// Lumina 2 (train_dreambooth_lora_lumina2.py, main's loop): the same draw of u and index j =
// ⌊1000·u⌋ into the checkpoint's table shifted by 6 (Lumina-Image-2.0's static config, as
// ai-toolkit's toolkit/sampler.py lumina2_config copies it), but that table's σ is the *data*
// fraction: the input is (1 − σ)·noise + σ·x0 against x0 − noise. So the noise fraction is t =
// 1 − shift₆(1 − u): a positive --logit_mean trains at *high* noise here, the opposite of the
// Flux scripts, and sigma_sqrt weights by (1 − t)⁻² (cosmap is symmetric).
ModelDefinition lumina2() {
  constexpr double a = 6.0;
  ModelDefinition m = flowModel(
      "diffusers", "command-line flags of examples/dreambooth/train_dreambooth_lora_lumina2.py",
      "lumina2",
      "Lumina 2 script: velocity loss; the scheduler's σ (static shift 6) is the data fraction, "
      "so t = 1 − shift₆(1 − u) and --logit_mean's sign is reversed against the Flux scripts");
  m.tool.discretisation = "1000 table values t = 1 − shift₆(1), …, 1 − shift₆(0.001)";
  m.tool.tableEdges.resize(1001);
  for (int j = 0; j <= 1000; ++j) m.tool.tableEdges[j] = 1.0 - shiftFlowTime(1.0 - j / 1000.0, a);
  m.tool.tableAtUpper = false;  // u ∈ [j, j + 1)/1000 trains at t_j, the cell's lower end in t
  const std::string table = "t = 1 − shift₆(1 − u) (the table's σ is the data fraction)";
  auto tableSide = [](double u) { return 1.0 - u; };  // σ of the table at noise fraction u
  auto& f = m.tool.families;
  f.push_back({"logit_normal",
               {param("logit_mean", 0.0, -4.0, 4.0), param("logit_std", 1.0, 0.05, 5.0)},
               [](double u, const Params& p) { return logitNormal(u, p[0] - std::log(a), p[1]); },
               noWeight,
               [](const Params& p) {
                 return "--weighting_scheme logit_normal --logit_mean " + num(p[0]) +
                        " --logit_std " + num(p[1]);
               },
               table});
  f.push_back({"mode",
               {param("mode_scale", 1.29, -0.95, 1.7)},
               [tableSide](double u, const Params& p) {
                 return shiftedDensity(tableSide(u), a,
                                       [&](double x) { return modeDensity(x, p[0]); });
               },
               noWeight,
               [](const Params& p) { return "--weighting_scheme mode --mode_scale " + num(p[0]); },
               table});
  uniformDrawFamilies(
      f, {[tableSide](double u, const Params&) { return shiftedUniform(tableSide(u), a); },
          [](double sigma) { return 1.0 - flowT(sigma); }, "uniform u", "σ",
          "by the table's σ⁻² = (1 − t)⁻²", "; " + table, true});
  m.defaultDraw = "none";
  return m;
}

// Ideogram 4 (train_dreambooth_lora_ideogram4.py, main's loop): compute_density_for_timestep_
// sampling's value is used directly as the flow σ, the noise fraction t (no scheduler table, no
// 1 − u), with the logit mean moved by the pipeline's _resolution_aware_mu, 0.5·ln(pixels/512²);
// its parser's defaults are logit_normal with --logit_std 1.5. The target model_input − noise is
// the velocity with the opposite sign: the same error. sigma_sqrt and cosmap weight by t.
ModelDefinition ideogram4(const TrainerSettings& settings) {
  const double mu = 0.5 * std::log(double(settings.width) * settings.height / (512.0 * 512.0));
  ModelDefinition m = flowModel(
      "diffusers", "command-line flags of examples/dreambooth/train_dreambooth_lora_ideogram4.py",
      "ideogram4",
      "Ideogram 4 script: the drawn value is t itself (continuous, no table); the logit mean is "
      "moved by 0.5·ln(pixels/512²) = " +
          num(mu) + " at " + std::to_string(settings.width) + "×" +
          std::to_string(settings.height) + " px (--resolution sets it in the script)");
  m.tool.discretisation = "continuous t";
  const std::string drawn = "t is the drawn value (no table)";
  auto& f = m.tool.families;
  f.push_back({"logit_normal",
               {param("logit_mean", 0.0, -4.0, 4.0), param("logit_std", 1.5, 0.05, 5.0)},
               [mu](double t, const Params& p) { return logitNormal(t, p[0] + mu, p[1]); },
               noWeight,
               [](const Params& p) {
                 return "--weighting_scheme logit_normal --logit_mean " + num(p[0]) +
                        " --logit_std " + num(p[1]);
               },
               "t = sigmoid(N(logit_mean + " + num(mu) + ", logit_std²)); " + drawn});
  f.push_back({"mode",
               {param("mode_scale", 1.29, -0.95, 1.7)},
               [](double t, const Params& p) { return modeDensity(1.0 - t, p[0]); },
               noWeight,
               [](const Params& p) { return "--weighting_scheme mode --mode_scale " + num(p[0]); },
               "t = 1 − g(U), SD3's mode map; " + drawn});
  uniformDrawFamilies(f, {[](double t, const Params&) { return t >= 0.0 && t <= 1.0 ? 1.0 : 0.0; },
                          flowT, "uniform t", "t", "t⁻²", "", true});
  m.defaultDraw = "logit_normal";
  return m;
}

// train_text_to_image_sdxl.py generate_timestep_weights: weight 1 on every timestep, times
// --timestep_bias_multiplier on [begin, end) (indices count from the lowest noise), then
// normalised; main's loop draws torch.multinomial over these weights.
double timestepBiasDensity(double u, int begin, int end, double multiplier) {
  if (!(u >= 0.0 && u < 1.0)) return 0.0;
  begin = std::clamp(begin, 0, 1000);
  end = std::clamp(end, begin, 1000);
  const int k = static_cast<int>(u * 1000.0);
  const double total = 1000.0 + (end - begin) * (multiplier - 1.0);
  return 1000.0 * (k >= begin && k < end ? multiplier : 1.0) / total;
}

// earlier/later bias int(portion·1000) timesteps, truncated as the script does.
int biasedCount(double portion) {
  return std::clamp(static_cast<int>(portion * 1000.0), 0, 1000);
}

// The portion as the snippet prints it: the biased count over 1000 with three decimals, which
// the script's int(portion·1000) reads back as the same count for every count 0 … 1000.
std::string portionText(double portion) {
  char text[16];
  std::snprintf(text, sizeof text, "%.3f", biasedCount(portion) / 1000.0);
  return text;
}

// --timestep_bias_strategy earlier/later/range: only train_text_to_image_sdxl.py (the full
// fine-tune) has these flags; the LoRA SDXL script draws uniformly.
void timestepBiasFamilies(TrainerTool& t) {
  const std::string script =
      "  # train_text_to_image_sdxl.py (its LoRA script has no timestep bias)";
  const std::string why =
      "train_text_to_image_sdxl.py generate_timestep_weights: timesteps drawn by "
      "torch.multinomial over weights 1, times the multiplier on the biased ones";
  auto steps = [](TrainerParameter p, double quantum) {
    p.quantum = quantum;
    return p;
  };
  auto multiplier = [] { return param("timestep_bias_multiplier", 1.0, 0.001, 1000.0, true); };
  auto portion = [=] { return steps(param("timestep_bias_portion", 0.25, 0.0, 1.0), 0.001); };
  auto head = [](const std::string& strategy, double m) {
    return "--timestep_bias_strategy " + strategy + " --timestep_bias_multiplier " + num(m);
  };
  t.families.push_back(
      {"earlier",
       {multiplier(), portion()},
       [](double u, const Params& p) { return timestepBiasDensity(u, 0, biasedCount(p[1]), p[0]); },
       noWeight,
       [=](const Params& p) {
         return head("earlier", p[0]) + " --timestep_bias_portion " + portionText(p[1]) + script;
       },
       why + " (the first int(portion·1000) timesteps: the lowest noise)"});
  t.families.push_back({"later",
                        {multiplier(), portion()},
                        [](double u, const Params& p) {
                          // slice(-n, None); n = 0 biases every timestep: uniform again
                          const int n = biasedCount(p[1]);
                          return timestepBiasDensity(u, n == 0 ? 0 : 1000 - n, 1000, p[0]);
                        },
                        noWeight,
                        [=](const Params& p) {
                          return head("later", p[0]) + " --timestep_bias_portion " +
                                 portionText(p[1]) + script;
                        },
                        why + " (the last int(portion·1000) timesteps: the highest noise)"});
  t.families.push_back(
      {"range",
       {multiplier(), steps(param("timestep_bias_begin", 0.0, 0.0, 999.0), 1.0),
        steps(param("timestep_bias_end", 1000.0, 1.0, 1000.0), 1.0)},
       [](double u, const Params& p) {
         return timestepBiasDensity(u, static_cast<int>(p[1]), static_cast<int>(p[2]), p[0]);
       },
       noWeight,
       [=](const Params& p) {
         return head("range", p[0]) + " --timestep_bias_begin " +
                std::to_string(static_cast<int>(p[1])) + " --timestep_bias_end " +
                std::to_string(static_cast<int>(p[2])) + script;
       },
       why + " (timesteps begin … end − 1: the script's slice excludes end, though its help "
             "says inclusive)"});
}

// SD 1.x/2.x and SDXL: text_to_image/train_text_to_image*.py draws torch.randint(0, 1000) and
// weights with --snr_gamma; v checkpoints (SD 2.x 768) train the DDPM v target.
ModelDefinition diffusersDdpm(const std::string& model) {
  const bool v = model == "sd2-v" || model == "sdxl-v";
  ModelDefinition m;
  m.tool = ddpmTool("diffusers",
                    "command-line flags of examples/text_to_image/train_text_to_image" +
                        std::string(model.rfind("sdxl", 0) == 0 ? "_lora_sdxl.py" : "_lora.py"),
                    v);
  m.tool.model = model;
  m.tool.modelNote = v ? "a v-prediction checkpoint (the scheduler's prediction_type "
                         "v_prediction, or --prediction_type v_prediction)"
                       : "an ε-prediction checkpoint (SD 1.5, SDXL base)";
  if (model == "sdxl")
    m.tool.modelNote +=
        "; the timestep-bias families (earlier, later, range) are train_text_to_image_sdxl.py's";
  const std::string prediction = v ? "--prediction_type v_prediction  " : "";
  m.tool.families.push_back(
      {"uniform",
       {},
       [](double u, const Params&) { return u >= 0.0 && u <= 1.0 ? 1.0 : 0.0; },
       noWeight,
       [prediction](const Params&) {
         return prediction +
                "# timesteps uniform on 0 … 999: the LoRA scripts' only draw "
                "(--timestep_bias_strategy none in train_text_to_image_sdxl.py)";
       },
       "timesteps = torch.randint(0, 1000); the draw has no knob"});
  if (model == "sdxl") timestepBiasFamilies(m.tool);
  m.weightings.push_back(
      minSnrGamma("snr_gamma", v, 5.0, [](double gamma) { return "--snr_gamma " + num(gamma); }));
  m.defaultDraw = "uniform";
  return m;
}

}  // namespace

ModelDefinition diffusers(const TrainerSettings& settings, const std::string& model) {
  if (model == "flux") return flux();
  if (model == "ideogram4") return ideogram4(settings);
  if (model == "sd3") return sd3();
  if (model == "hidream")
    return staticShift("hidream", "train_dreambooth_lora_hidream.py",
                       "HiDream script: velocity loss on the scheduler loaded with shift=3.0");
  if (model == "zimage")
    return staticShift("zimage", "train_dreambooth_lora_z_image.py",
                       "Z-Image script: velocity loss on the checkpoint's table, static shift 3");
  if (model == "lumina2") return lumina2();
  if (model == "sana")
    // scripts/convert_sana_to_diffusers.py saves DPMSolverMultistepScheduler(flow_shift = 3, 6 at
    // 4K); FlowMatchEulerDiscreteScheduler.from_pretrained keeps only the keys its __init__
    // takes (configuration_utils.py extract_init_dict), and flow_shift is not one: shift 1.
    return flowTableModel(
        "sana", "command-line flags of examples/dreambooth/train_dreambooth_lora_sana.py",
        "Sana script: velocity loss; the checkpoints' scheduler config is "
        "DPMSolverMultistepScheduler with flow_shift 3 (6 at 4K), which "
        "FlowMatchEulerDiscreteScheduler.from_pretrained drops, so the training table is "
        "unshifted though sampling shifts by 3",
        1.0, true, "");
  return diffusersDdpm(model);
}

}  // namespace noisescope::schedule::trainers
