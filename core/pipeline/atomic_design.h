#pragma once
// The atomic design job (THEORY §7), one pipeline for both faces: candidate σ levels
// (log-spaced over the range), an information model (random features on the dataset, or a
// checkpoint's output layer), the design solver — and the result as a BuiltSchedule whose
// provenance records every setting used. The panel picks AtomicSettings::quick() for an
// answer in seconds; the CLI starts from AtomicSettings::full() and its flags.
#include <optional>
#include <string>

#include "pipeline/defaults.h"
#include "pipeline/schedule_recipe.h"
#include "schedule/atomic.h"
#include "tensor/prediction.h"
#include "util/progress.h"

namespace noisescope {
struct Dataset;
}

namespace noisescope::pipeline {

struct AtomicSettings {
  std::string name = "full";  // recorded: "full", "quick" or "custom"
  int levels = 48;            // candidate σ levels
  int features = 128;         // random features (random-feature model)
  int samples = 2048;         // Monte Carlo (x, ε) pairs per level
  double gapTolerance = 1e-9;
  int maxIterations = 20000;
  int multiplicativeWarmStart = 50;
  double mergeSpacing = 0.12;  // neighbouring atoms closer than this in log σ merge

  static AtomicSettings full();
  static AtomicSettings quick();  // 64 features, 1024 samples, gap 1e-6, 3000 iterations
};

struct AtomicRequest {
  const Dataset* dataset = nullptr;
  std::string datasetName;  // recorded, and in σ_data's source
  std::string checkpoint;   // empty: random-feature model
  std::string parameter;    // checkpoint weight (empty: the information model's default)
  Prediction prediction = Prediction::X0;  // what the checkpoint predicts (x0/ε/v adapter)
  std::string device = "auto";
  double sigmaMin = defaults::kSigmaMin, sigmaMax = defaults::kSigmaMax;
  AtomicSettings settings;
  uint64_t seed = 1;
  schedule::LossWeight trainingWeight;  // kind and γ; σ_data as below
  std::string targetWeight = "elbo";
  schedule::DesignCriterion criterion = schedule::DesignCriterion::A;
  std::optional<double> sigmaData;  // given; otherwise measured from the dataset
};

struct AtomicDesign {
  schedule::AtomicResult result;
  BuiltSchedule built;  // the atomic schedule, σ_data and the provenance parameters
};

// What a user chooses for an atomic design, in the names a face takes them in. Both faces make
// their request with atomicRequest(), so the same choices make the same schedule file: the CLI
// fills this from its flags, the Schedules panel keeps the defaults with the quick settings.
struct AtomicChoices {
  std::string checkpoint;  // empty: random-feature model
  std::string parameter;
  std::string prediction = "x0";  // x0, eps (epsilon) or v
  std::string device = "auto";
  double sigmaMin = defaults::kSigmaMin, sigmaMax = defaults::kSigmaMax;
  AtomicSettings settings;  // its name is set by the values: "full", "quick", else "custom"
  uint64_t seed = 1;
  std::string trainingWeight = "uniform";
  double gamma = schedule::LossWeight{}.gamma;
  std::string targetWeight = "elbo";
  std::string criterion = "A";  // A or D
  std::optional<double> sigmaData;
};

// The request for `choices` on `dataset`, which it records by the file or spec it was read from
// (Dataset::source), whichever face loaded it. Throws InputError for a prediction, criterion or
// weight it does not know.
AtomicRequest atomicRequest(const AtomicChoices& choices, const Dataset& dataset);

// Throws InputError for a missing dataset or settings out of range; Cancelled from `progress`.
AtomicDesign designAtomic(const AtomicRequest& request, const Progress& progress = {});

// The design as a Fixed recipe (for the panel's list), carrying its provenance parameters.
ScheduleRecipe atomicRecipe(const AtomicDesign& design, const std::string& name);

}  // namespace noisescope::pipeline
