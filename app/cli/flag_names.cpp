#include "flag_names.h"

namespace noisescope::cli {

const std::vector<std::pair<std::string, std::string>>& settingFlags() {
  namespace s = settings;
  static const std::vector<std::pair<std::string, std::string>> table = {
      {s::kImageSize, "--width/--height"},
      {s::kWindow, "--window"},
      {s::kStride, "--stride"},
      {s::kLatentsFor, "--latents"},
      {s::kDiagnosticKind, "--kind"},
      {s::kLevels, "--levels"},
      {s::kSigmaMin, "--sigma-min"},
      {s::kSigmaMax, "--sigma-max"},
      {s::kQueries, "--queries"},
      {s::kMemory, "--memory"},
      {s::kPrecision, "--precision"},
      {s::kHeldOutShare, "--holdout"},
      {s::kQueryFile, "--queries-from"},
      {s::kSpectrumRank, "--rank"},
      {s::kStreaming, "--stream"},
      {s::kDevice, "--device"},
      {s::kPrediction, "--prediction"},
      {s::kBatchSize, "--batch"},
      {s::kLossWeight, "--weight"},
      {s::kReference, "--reference"},
      {s::kCriterion, "--criterion"},
      {s::kRandomFeatures, "--features"},
      {s::kFeatureEmbedding, "--embedding"},
      {s::kMonteCarloSamples, "--samples"},
      {s::kSamplingGrid, "--grid"},
      {s::kNfe, "--nfe"},
      {s::kTrainerTool, "--for"},
      {s::kTrainerModel, "--model"},
      {s::kTrainerLossWeighting, "--loss-weighting"},
      {s::kNoisingStrength, "--noising-strength"},
      {s::kTimestepWindow, "--timestep-window"},
      {s::kTrainingResolution, "--resolution"},
      {s::kScheduleMethod, "--method"},
      {s::kTrainingConfig, "--config"},
  };
  return table;
}

std::string errorText(const InputError& error) {
  const std::string& source = error.source();
  // The longest setting that leads the source: "trainer model" is not "trainer" with a value.
  const std::pair<std::string, std::string>* best = nullptr;
  for (const auto& entry : settingFlags()) {
    const std::string& setting = entry.first;
    const bool alone = source == setting;
    const bool withValue = source.size() > setting.size() &&
                           source.compare(0, setting.size(), setting) == 0 &&
                           source[setting.size()] == ' ';
    if ((alone || withValue) && (!best || setting.size() > best->first.size())) best = &entry;
  }
  if (!best) return error.what();
  return best->second + source.substr(best->first.size()) + ": " + error.problem();
}

}  // namespace noisescope::cli
