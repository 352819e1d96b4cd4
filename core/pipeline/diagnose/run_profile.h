#pragma once
// A training run as a checkpoint to profile: the run directory's newest exported denoiser, and
// the data the run itself holds out (its config's test set), so that the profile is an honest
// bound for the model that run trained. pipeline/diagnose/diagnose_job.h resolves a run through
// here.
#include <string>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope::pipeline {

// The newest TorchScript export (checkpoints/step-N.denoiser.pt) of a run directory, by the run
// directory's one rule (train::RunDirectory::newestExport): `diagnose`, `quality` and
// `sample-race` all sample or profile this file. Exports take
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

}  // namespace noisescope::pipeline
