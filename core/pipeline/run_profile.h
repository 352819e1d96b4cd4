#pragma once
// From a training run to a checkpoint profile in one step: the run directory's newest exported
// denoiser, scored on the data the run itself holds out (its config's test set), so the profile
// is an honest bound for the model that run trained. The Training tab and `diagnose --checkpoint
// RUN_DIR` both resolve a run through here.
#include <string>

#include "diagnostic/checkpoint_diagnostic.h"
#include "profile/profile.h"
#include "util/progress.h"

namespace noisescope::pipeline {

// The newest TorchScript export (checkpoints/step-N.denoiser.pt) of a run directory. Exports take
// the x0 convention whatever the network predicts inside. InputError naming the directory when it
// holds none (a run that has not reached its first checkpoint, or one written by another tool).
std::string newestExportedDenoiser(const std::string& runDirectory);

// The checkpoint profile of the run's newest export on its held-out data. `grid` gives the σ
// levels, queries, seed and device (its path, prediction and evaluation set are filled here).
// The profile's provenance names the run and the step.
Profile profileRunCheckpoint(const std::string& runDirectory, CheckpointOptions grid,
                             const Progress& progress = {});

}  // namespace noisescope::pipeline
