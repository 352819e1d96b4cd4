#pragma once
// The atomic design job (THEORY §7), one pipeline for both faces: candidate σ levels
// (log-spaced over the range), an information model (random features on the dataset, or a
// checkpoint's output layer), the design solver — and the result as a BuiltSchedule whose
// provenance records every setting used. The panel picks AtomicSettings::quick() for an
// answer in seconds; the CLI starts from AtomicSettings::full() and its flags.
#include <memory>
#include <optional>
#include <string>

#include "pipeline/defaults.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "schedule/design_result.h"
#include "schedule/schedule.h"
#include "tensor/prediction.h"
#include "util/progress.h"

namespace noisescope {
struct Dataset;
}
namespace noisescope::schedule {
struct AtomicResult;  // schedule/atomic.h (kept out: its problem holds Eigen matrices)
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

// What a user chooses for an atomic design, in the names a face takes them in: the one request
// both faces fill (the CLI from its flags, the Schedules panel from its quick settings), so the
// same choices make the same schedule file.
struct AtomicRequest {
  std::string checkpoint;         // empty: random-feature model
  std::string parameter;          // checkpoint weight (empty: the information model's default)
  std::string prediction = "x0";  // what the checkpoint predicts: x0, eps (epsilon) or v
  std::string device = "auto";
  double sigmaMin = defaults::kSigmaMin, sigmaMax = defaults::kSigmaMax;
  AtomicSettings
      settings;  // its recorded name is set by the values: "full", "quick", else "custom"
  uint64_t seed = 1;
  std::string trainingWeight = "uniform";
  double gamma = defaults::kMinSnrGamma;  // of a min-SNR training weight
  std::string targetWeight = "elbo";
  std::string criterion = "A";      // A or D
  std::optional<double> sigmaData;  // given; otherwise measured from the dataset
};

struct AtomicDesign {
  BuiltSchedule built;                 // the atomic schedule, σ_data and the provenance parameters
  schedule::DesignResult solution;     // on the candidate levels, before merging: the certificate
  std::vector<double> candidateSigma;  // σ_g, the candidate levels
  std::shared_ptr<const schedule::AtomicResult> solved;  // the problem as solved, for riskRatio
};

// R(proxy) / R(optimum) on the design's own problem, at equal effective allocation
// (schedule::riskOfSchedule): how close a smooth schedule comes to the atomic optimum (≥ 1).
double riskRatio(const AtomicDesign& design, const schedule::Schedule& proxy);

// InputError for a prediction, criterion or weight the request names but the engine does not
// know, or settings out of range: a face can refuse before it starts the job.
void checkAtomicRequest(const AtomicRequest& request);

// The design on `dataset`, which it records by the file or spec it was read from
// (Dataset::source), whichever face loaded it. InputError as checkAtomicRequest; Cancelled from
// `progress`.
AtomicDesign designAtomic(const AtomicRequest& request, const Dataset& dataset,
                          const Progress& progress = {});

// The design as a Fixed recipe (for the panel's list), carrying its provenance parameters.
ScheduleRecipe atomicRecipe(const AtomicDesign& design, const std::string& name);

}  // namespace noisescope::pipeline
