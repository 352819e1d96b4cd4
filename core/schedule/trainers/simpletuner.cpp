// SimpleTuner, per model family (docs/trainers.md).
#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {
namespace {

// SimpleTuner (helpers/models/common.py, prepare_batch; helpers/training/custom_schedule.py,
// apply_flow_schedule_shift): every draw — sigmoid, uniform, beta — goes through the same shift,
// a static flow_schedule_shift when it is > 0, else Flux's μ rule when flow_schedule_auto_shift.
ModelDefinition flowModels(const TrainerSettings& settings) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = flowTool("simpletuner", "config.json keys (or the same flags on the command line)");
  t.model = "flux";
  t.modelNote = "the flow models (helpers/models/common.py prepare_batch): velocity loss";
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
  // flow_schedule_shift 0 and auto shift: σ × e^μ, μ from the latent's (H/8)(W/8)/4 tokens
  // between Flux's scheduler ends (256, 0.5) and (4096, 1.15).
  const double mu = fluxShiftMu(settings);
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
       "sigmoid, then Flux's resolution rule: μ = " + num(mu) + " at " + size + " px"});
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
  m.defaultDraw = "sigmoid";
  return m;
}

}  // namespace

ModelDefinition simpleTuner(const TrainerSettings& settings, const std::string&) {
  return flowModels(settings);
}

}  // namespace noisescope::schedule::trainers
