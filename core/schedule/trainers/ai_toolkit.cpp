// ai-toolkit, per model family (docs/trainers.md).
#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {
namespace {

ModelDefinition flowModels(const TrainerSettings& settings) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = flowTool("ai-toolkit", "the job YAML, train: section");
  t.model = "flux";
  t.modelNote =
      "the flowmatch scheduler's models (toolkit/samplers/custom_flowmatch_sampler.py): velocity "
      "loss";
  t.discretisation = "a 1000-point t grid";
  t.families.push_back({"shift",
                        {param("shift", 3.0, 0.02, 50.0, true)},
                        [](double u, const Params& p) { return shiftedUniform(u, p[0]); },
                        noWeight,
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
       noWeight,
       [](const Params&) { return std::string("train:\n  timestep_type: sigmoid"); },
       "sigmoid of a standard normal; no knob"});
  const double mu = fluxShiftMu(settings, 1.16);
  const std::string size = std::to_string(settings.width) + "×" + std::to_string(settings.height);
  t.families.push_back(
      {"flux_shift",
       {},
       [mu](double u, const Params&) { return shiftedUniform(u, std::exp(mu)); },
       noWeight,
       [](const Params&) { return std::string("train:\n  timestep_type: flux_shift"); },
       "σ × e^μ with μ from the token count at " + size + " px: " + num(mu)});
  t.families.push_back(
      {"linear",
       {},
       [](double u, const Params&) { return shiftedUniform(u, 1.0); },
       noWeight,
       [](const Params&) { return std::string("train:\n  timestep_type: linear"); },
       "uniform t"});
  m.defaultDraw = "linear";
  return m;
}

}  // namespace

ModelDefinition aiToolkit(const TrainerSettings& settings, const std::string&) {
  return flowModels(settings);
}

}  // namespace noisescope::schedule::trainers
