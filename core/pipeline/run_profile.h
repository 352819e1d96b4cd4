#pragma once
// From a training run to a checkpoint profile in one step: the run directory's newest exported
// denoiser, scored on the data the run itself holds out (its config's test set), so the profile
// is an honest bound for the model that run trained. The Diagnostic tab and `diagnose --checkpoint
// RUN_DIR` both resolve a run and its held-out data through here.
#include <string>

#include "data/dataset.h"
#include "diagnostic/checkpoint_diagnostic.h"
#include "profile/profile.h"
#include "util/progress.h"

namespace noisescope::pipeline {

// The newest TorchScript export (checkpoints/step-N.denoiser.pt) of a run directory. Exports take
// the x0 convention whatever the network predicts inside. InputError naming the directory when it
// holds none (a run that has not reached its first checkpoint, or one written by another tool).
std::string newestExportedDenoiser(const std::string& runDirectory);

// The data a run holds out (its config's test set: test_path on the training set's scale, or
// the seeded split) and the text naming it in a profile's provenance. Both faces score a run's
// checkpoint on this set, so they agree. InputError naming the run's config for unreadable data.
struct RunHeldOutSet {
  Dataset data;
  std::string description;  // "the run's held-out data: test_path …"
};
RunHeldOutSet runHeldOutSet(const std::string& runDirectory, const Progress& progress = {});

// The checkpoint profile of the run's newest export on its held-out data (runHeldOutSet). `grid`
// gives the σ levels, queries, seed and device (its path, prediction and evaluation set are filled
// here). The profile's provenance names the run and the step.
Profile profileRunCheckpoint(const std::string& runDirectory, CheckpointOptions grid,
                             const Progress& progress = {});

}  // namespace noisescope::pipeline
