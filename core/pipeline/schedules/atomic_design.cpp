#include "pipeline/schedules/atomic_design.h"

#include <memory>

#include "data/dataset.h"
#include "diagnostic/checkpoint_information.h"
#include "diagnostic/random_feature_information.h"
#include "schedule/atomic.h"
#include "util/error.h"
#include "util/log_grid.h"
#include "util/setting_names.h"

namespace noisescope::pipeline {

using namespace noisescope::schedule;
using nlohmann::json;

AtomicSettings AtomicSettings::full() {
  return {};
}

AtomicSettings AtomicSettings::quick() {
  AtomicSettings s;
  s.name = "quick";
  s.features = 64;
  s.samples = 1024;
  s.gapTolerance = 1e-6;
  s.maxIterations = 3000;
  return s;
}

namespace {
bool sameValues(const AtomicSettings& a, const AtomicSettings& b) {
  return a.levels == b.levels && a.features == b.features && a.samples == b.samples &&
         a.gapTolerance == b.gapTolerance && a.maxIterations == b.maxIterations &&
         a.multiplicativeWarmStart == b.multiplicativeWarmStart && a.mergeSpacing == b.mergeSpacing;
}

// The provenance names a set by what it holds, so equal settings record the same name.
std::string settingsName(const AtomicSettings& settings) {
  if (sameValues(settings, AtomicSettings::full())) return "full";
  if (sameValues(settings, AtomicSettings::quick())) return "quick";
  return "custom";
}
}  // namespace

namespace {

// The request's names resolved to the engine's values.
struct ResolvedRequest {
  Prediction prediction = Prediction::X0;
  AtomicSettings settings;
  LossWeight trainingWeight;
  DesignCriterion criterion = DesignCriterion::A;
};

ResolvedRequest resolve(const AtomicRequest& request) {
  ResolvedRequest r;
  r.prediction = predictionFromString(request.prediction);
  r.settings = request.settings;
  r.settings.name = settingsName(request.settings);
  if (r.settings.levels < 2 || r.settings.levels > 2000)
    throw InputError("atomic design",
                     "levels must be in [2, 2000], not " + std::to_string(r.settings.levels));
  if (!(request.sigmaMin > 0.0) || !(request.sigmaMax > request.sigmaMin))
    throw InputError("atomic design", "needs 0 < σ_min < σ_max");
  // σ_data is the design's (given or measured); the fallback only passes the weight's check.
  r.trainingWeight =
      makeLossWeight(request.trainingWeight, defaults::kSigmaDataFallback, request.gamma);
  makeLossWeight(request.targetWeight, defaults::kSigmaDataFallback, request.gamma,
                 "target weight");
  if (request.criterion == "A")
    r.criterion = DesignCriterion::A;
  else if (request.criterion == "D")
    r.criterion = DesignCriterion::D;
  else
    throw InputError(settings::kCriterion, "must be A or D, not '" + request.criterion + "'");
  return r;
}

}  // namespace

void checkAtomicRequest(const AtomicRequest& request) {
  resolve(request);
}

AtomicDesign designAtomic(const AtomicRequest& request, const Dataset& dataset,
                          const Progress& progress) {
  const ResolvedRequest resolved = resolve(request);
  const AtomicSettings& settings = resolved.settings;
  const std::string datasetName = dataset.sourceOrName();
  const SigmaDataChoice sigmaData = request.sigmaData ? givenSigmaData(*request.sigmaData)
                                                      : measuredSigmaData(dataset, datasetName);
  const std::vector<double> sigma =
      logSpacedGrid(request.sigmaMin, request.sigmaMax, settings.levels);

  InformationMatrices info;
  if (request.checkpoint.empty()) {
    RandomFeatureOptions o;
    o.features = settings.features;
    o.samples = settings.samples;
    o.seed = request.seed;
    o.progress = progress.sub(0.0, 0.5);
    info = randomFeatureInformation(dataset, sigma, o);
  } else {
    CheckpointInformationOptions o;
    o.parameter = request.parameter;
    o.prediction = resolved.prediction;
    o.samples = settings.samples;
    o.device = request.device;
    o.seed = request.seed;
    o.progress = progress.sub(0.0, 0.5);
    info = checkpointInformation(request.checkpoint, dataset, sigma, o);
  }
  progress.throwIfCancelled();
  progress.report(0.5, "solving the design");

  AtomicOptions o;
  o.trainingWeight = resolved.trainingWeight;
  o.trainingWeight.sigmaData = sigmaData.value;
  o.targetWeight =
      makeLossWeight(request.targetWeight, sigmaData.value, request.gamma, "target weight");
  o.criterion = resolved.criterion;
  o.mergeSpacing = settings.mergeSpacing;
  o.solver.gapTolerance = settings.gapTolerance;
  o.solver.maxIterations = settings.maxIterations;
  o.solver.multiplicativeWarmStart = settings.multiplicativeWarmStart;
  o.solver.progress = progress.sub(0.5, 1.0);
  o.sigmaMin = request.sigmaMin;
  o.sigmaMax = request.sigmaMax;

  auto solved = std::make_shared<AtomicResult>(designAtomicSchedule(info, o));
  AtomicDesign out;
  out.solution = solved->design;
  out.candidateSigma = solved->gridSigma;
  out.solved = solved;
  BuiltSchedule& built = out.built;
  built.schedule = solved->schedule;
  built.sigmaData = sigmaData;
  built.schedule.info.setParameter("sigma_data", sigmaData.value);
  built.schedule.info.setNote("sigma_data_source", sigmaData.source);
  json& p = built.parameters;
  p["recipe"] = "atomic";
  p["dataset"] = datasetName;
  p["information_model"] = request.checkpoint.empty() ? "random features" : "checkpoint";
  if (!request.checkpoint.empty()) {
    p["checkpoint"] = request.checkpoint;
    if (!request.parameter.empty()) p["checkpoint_parameter"] = request.parameter;
    p["prediction"] = toString(resolved.prediction);
  }
  p["settings"] = {{"name", settings.name},
                   {"levels", settings.levels},
                   {"features", settings.features},
                   {"samples", settings.samples},
                   {"gap_tolerance", settings.gapTolerance},
                   {"max_iterations", settings.maxIterations},
                   {"multiplicative_warm_start", settings.multiplicativeWarmStart},
                   {"merge_spacing", settings.mergeSpacing}};
  p["sigma_min"] = request.sigmaMin;
  p["sigma_max"] = request.sigmaMax;
  p["seed"] = request.seed;
  p["criterion"] = resolved.criterion == DesignCriterion::A ? "A" : "D";
  p["training_weight"] = {{"kind", o.trainingWeight.name()}, {"gamma", o.trainingWeight.gamma}};
  p["target_weight"] = request.targetWeight;
  p["design"] = {{"criterion", out.solution.criterion},
                 {"relative_gap", out.solution.relativeGap},
                 {"iterations", out.solution.iterations},
                 {"converged", out.solution.converged}};
  p["sigma_data"] = sigmaData.value;
  p["sigma_data_source"] = sigmaData.source;
  return out;
}

double riskRatio(const AtomicDesign& design, const Schedule& proxy) {
  return riskOfSchedule(*design.solved, proxy) / design.solution.criterion;
}

ScheduleRecipe atomicRecipe(const AtomicDesign& design, const std::string& name) {
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::Fixed;
  recipe.name = name;
  recipe.fixed = std::make_shared<Schedule>(design.built.schedule);
  recipe.fixedParameters = design.built.parameters;
  return recipe;
}

}  // namespace noisescope::pipeline
