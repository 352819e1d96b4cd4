#pragma once
// The offline diagnostic: the dataset itself is the prior, and the Bayes-optimal denoiser of that
// prior gives MMSE(σ) and the entropy rates on a log-σ grid (THEORY §2–3).
#include "data/dataset.h"
#include "diagnostic/diagnostic_options.h"
#include "profile/profile.h"
#include "util/progress.h"

namespace noisescope {

// Rao–Blackwellised estimate first (the primary one, rates use it), then the direct estimate.
// Throws InputError for bad options or an empty dataset; Cancelled when progress asks.
Profile computeEmpiricalProfile(const Dataset& dataset, const DiagnosticOptions& options,
                                const Progress& progress = {});

}  // namespace noisescope
