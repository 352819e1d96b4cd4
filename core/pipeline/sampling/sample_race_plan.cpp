#include "pipeline/sampling/sample_race_plan.h"

#include <cmath>
#include <filesystem>

#include "io/profile_io.h"
#include "pipeline/diagnose/run_profile.h"
#include "pipeline/sampling/sampling_grids.h"
#include "train/evaluation.h"
#include "train/run_directory.h"
#include "train/train_config.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::pipeline {
namespace {

schedule::OdeSampler resolveSampler(const std::string& asked, const train::TrainConfig& config) {
  if (asked != "auto") return schedule::odeSamplerFromString(asked);
  return config.noise.lossWeight == "flow-v" ? schedule::OdeSampler::Euler
                                             : schedule::OdeSampler::Heun;
}

}  // namespace

SampleRacePlan planSampleRace(const SampleRaceOptions& o) {
  SampleRacePlan plan;
  plan.isRun = std::filesystem::is_directory(o.model);
  if (plan.isRun) {
    plan.model = newestExportedDenoiser(o.model);
    plan.config = train::RunDirectory(o.model).configPath();
    plan.source = o.model;
  } else {
    if (!std::filesystem::is_regular_file(o.model))
      throw InputError(o.model, "is neither a run directory nor a TorchScript file");
    if (o.config.empty())
      throw InputError(o.model,
                       "a TorchScript file needs --config, the training config of its data");
    plan.model = o.model;
    plan.config = o.config;
    plan.source = o.config;
  }
  const train::TrainConfig config = train::readTrainConfig(plan.config);
  plan.sampler = resolveSampler(o.sampler, config);
  plan.context = {config.noise.sigmaMin, config.noise.sigmaMax,
                  plan.isRun ? o.model : std::string(), o.profile};
  plan.grids = o.grids.empty() ? defaultGridsOf(o, plan.context) : o.grids;
  return plan;
}

std::vector<GridPreview> previewRaceGrids(const SampleRacePlan& plan, int64_t nfe) {
  const int64_t steps = schedule::stepsForEvaluations(plan.sampler, nfe);
  if (steps < 2)
    throw InputError(settings::kNfe, "NFE " + std::to_string(nfe) + " leaves the " +
                                         toString(plan.sampler) + " sampler fewer than 2 σ steps");
  std::vector<GridPreview> previews;
  for (auto& attempt : tryRaceGrids(plan.grids, plan.context)) {
    GridPreview p;
    p.name = attempt.spec;
    p.steps = steps;
    p.error = attempt.error;
    if (attempt.grid) {
      p.rule = attempt.grid->rule;
      try {
        p.sigma = attempt.grid->sigmas(steps);
      } catch (const std::exception& e) {
        p.error = e.what();
      }
    }
    previews.push_back(std::move(p));
  }
  return previews;
}

RaceBackdrop raceBackdrop(const SampleRacePlan& plan) {
  RaceBackdrop b;
  const schedule::LogSigmaGrid grid =
      schedule::LogSigmaGrid::uniform(plan.context.sigmaMin, plan.context.sigmaMax, 128);
  if (!plan.context.runDirectory.empty()) {
    try {
      const schedule::Schedule pi = runFinalSchedule(plan.context.runDirectory, &b.piSource);
      if (!pi.isAtomic()) {
        for (double l : grid.centers()) {
          b.piSigma.push_back(std::exp(l));
          b.pi.push_back(pi.densityLogSigma(l));
        }
      }
    } catch (const InputError&) {
      // No recorded π: nothing to draw under the grids.
    }
  }
  if (!plan.context.profile.empty()) {
    const Profile profile = readProfile(plan.context.profile);
    if (const RateSeries* rate = profile.rate("log_sigma")) {
      b.rateSigma = profile.sigma;
      b.rate = rate->value;
      b.profileSource = plan.context.profile;
    }
  }
  return b;
}

}  // namespace noisescope::pipeline
