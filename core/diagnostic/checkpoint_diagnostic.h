#pragma once
// The checkpoint diagnostic (THEORY §4): the unweighted x0 error E‖x0 − D_θ(x0 + σε; σ)‖² of a
// trained denoiser per σ — an upper bound on MMSE(σ), equal for the Bayes-optimal denoiser — with
// the same grid, Monte Carlo conventions (one ε per query for every σ) and rates as the offline
// diagnostic.
//
// Imported models are TorchScript files whose forward(x: Tensor[B, ...], sigma: Tensor[B]) returns
// the x0 estimate in VE coordinates. Models that predict ε or v are read through an adapter chosen
// by the user (never guessed):
//   eps: the model gets y (VE) and σ; x̂0 = y − σ·ε̂
//   v:   the model gets z = y/√(1+σ²) (VP) and σ; x̂0 = α·z − s·v̂, α = 1/√(1+σ²), s = σ·α.
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "diagnostic/diagnostic_options.h"
#include "profile/profile.h"
#include "tensor/prediction.h"
#include "util/progress.h"

namespace noisescope {

struct CheckpointOptions {
  std::string path;
  Prediction prediction = Prediction::X0;
  // σ levels, queries, seed and device, as for the empirical diagnostic (its memory and precision
  // settings do not apply here).
  DiagnosticOptions grid;
  int64_t batchSize = 256;
  // Which data the error is measured on, written into the profile: e.g. "test split" or
  // "held-out part: 10% of the training file (the model may have seen it)".
  std::string evaluationSet = "as given";
};

// Loads the model and runs it once on two samples of `dataset`. Throws InputError naming the
// file and the problem: missing file, not TorchScript, no forward(x, sigma), a sample shape the
// model records that is not the dataset's, wrong output shape or type, an exception inside the
// model, NaN/inf output. Shape problems name the dataset's shape and the model's.
void checkCheckpoint(const std::string& path, Prediction prediction, const Dataset& dataset,
                     const std::string& device = "auto");

// Throws as checkCheckpoint, and also when any batch fails or returns NaN.
Profile computeCheckpointProfile(const Dataset& evaluation, const CheckpointOptions& options,
                                 const Progress& progress = {});

}  // namespace noisescope
