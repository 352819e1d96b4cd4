#pragma once
// The names the engine gives its settings when an InputError is about one: words a user of either
// face reads ("memory", "held-out share"), not one face's controls. A face maps them to its own:
// the CLI to its flags (app/cli/flag_names.cpp), the workbench shows them as they are. A value
// may follow the name after a space ("device cuda:9").
namespace noisescope::settings {

// Data readers.
inline constexpr const char* kImageSize = "image size";
inline constexpr const char* kWindow = "window";
inline constexpr const char* kStride = "stride";
inline constexpr const char* kLatentsFor = "latent cache's trainer and model";

// The diagnostic.
inline constexpr const char* kDiagnosticKind = "diagnostic kind";
inline constexpr const char* kLevels = "levels";
inline constexpr const char* kSigmaMin = "lowest σ";
inline constexpr const char* kSigmaMax = "highest σ";
inline constexpr const char* kQueries = "queries";
inline constexpr const char* kMemory = "memory";
inline constexpr const char* kPrecision = "precision";
inline constexpr const char* kHeldOutShare = "held-out share";
inline constexpr const char* kQueryFile = "held-out query file";
inline constexpr const char* kSpectrumRank = "spectrum rank";
inline constexpr const char* kStreaming = "streaming";
inline constexpr const char* kDevice = "device";
inline constexpr const char* kPrediction = "prediction";
inline constexpr const char* kBatchSize = "batch size";

// Schedules and their design.
inline constexpr const char* kLossWeight = "loss weight";
inline constexpr const char* kReference = "reference schedule";
inline constexpr const char* kCriterion = "design criterion";
inline constexpr const char* kRandomFeatures = "random features";
inline constexpr const char* kFeatureEmbedding = "feature embedding";
inline constexpr const char* kMonteCarloSamples = "Monte Carlo samples";
inline constexpr const char* kSamplingGrid = "sampling grid";
inline constexpr const char* kNfe = "NFE";

// Trainers' knobs (fit --for).
inline constexpr const char* kTrainerTool = "trainer";
inline constexpr const char* kTrainerModel = "trainer model";
inline constexpr const char* kTrainerLossWeighting = "trainer loss weighting";
inline constexpr const char* kNoisingStrength = "noising strength";
inline constexpr const char* kTimestepWindow = "timestep window";
inline constexpr const char* kTrainingResolution = "training resolution";
inline constexpr const char* kScheduleMethod = "schedule method";

// Training.
inline constexpr const char* kTrainingConfig = "training config";

}  // namespace noisescope::settings
