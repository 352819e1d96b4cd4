#include "pipeline/defaults.h"

#include <cstdio>

#include "pipeline/training/schedule_race.h"
#include "schedule/families.h"
#include "train/train_config.h"

namespace noisescope::pipeline::defaults {

std::string formatDefault(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

double comparisonBandGateC(const std::string& profileKind) {
  return profileKind == "empirical" ? 0.0 : kGateC;
}

nlohmann::json defaultsJson() {
  using nlohmann::json;
  json presets = json::array();
  for (const schedule::Preset& p : schedule::presets())
    presets.push_back({{"name", p.name},
                       {"family", p.family},
                       {"label", p.label},
                       // Complete: the family's defaults filled in where the preset keeps them.
                       {"parameters", schedule::completeParameters(schedule::family(p.family),
                                                                   p.parameters, p.name)},
                       {"loss_weight", schedule::presetLossWeight(p.name).name()}});
  json raceSamplers = json::array();
  for (const RaceEntrant& entrant : scheduleRaceEntrants()) raceSamplers.push_back(entrant.sampler);
  const QuickLookRace& quick = quickLookRace();
  return {
      {"format", "noisescope.defaults/1"},
      {"grid", {{"sigma_min", kSigmaMin}, {"sigma_max", kSigmaMax}, {"bins", kBins}}},
      {"diagnostic", {{"levels", kDiagnosticLevels}, {"queries", kDiagnosticQueries}}},
      {"statistics",
       {{"neighbour_queries", kNeighbourQueries}, {"neighbour_seed", kNeighbourSeed}}},
      {"gate",
       {{"c", kGateC},
        {"n", kGateN},
        {"auto", {{"continuous", autoGateC(false)}, {"discrete", autoGateC(true)}}},
        {"comparison_band", {{"empirical", comparisonBandGateC("empirical")}, {"other", kGateC}}}}},
      {"sigma_data_fallback", kSigmaDataFallback},
      {"min_snr_gamma", kMinSnrGamma},
      {"held_out", {{"share", kHeldOutShare}, {"feature_test_share", kFeatureTestShare}}},
      {"sampling_grid",
       {{"spec", kSamplingGrid},
        {"steps", kSamplingSteps},
        {"ratio_margin", kSamplingRatioMargin}}},
      {"trainer_resolution", {{"width", kTrainerWidth}, {"height", kTrainerHeight}}},
      {"presets", presets},
      {"schedule_race",
       {{"samplers", raceSamplers},
        {"quick_look",
         {{"steps", quick.steps},
          {"warmup_steps", quick.warmupSteps},
          {"refresh_every", quick.refreshEvery},
          {"eval_every", quick.evalEvery},
          {"quality_samples", quick.qualitySamples},
          {"heun_steps", quick.heunSteps},
          {"test_limit", quick.testLimit},
          {"network", quick.network}}}}},
      // The trainer's noise section as a config without one gets it, and the exact bins of its
      // base schedule: the online samplers' defaults (the Python OnlineSampler reads them here).
      {"training",
       {{"noise", train::toJson(train::TrainConfig{})["noise"]},
        {"base_schedule_bins", train::kBaseScheduleBins}}}};
}

}  // namespace noisescope::pipeline::defaults
