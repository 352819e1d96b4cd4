#pragma once
// The engine's defaults in one table: what a face shows before the user changes anything and what
// the pipeline falls back to. The workbench and the CLI read them here instead of restating them;
// `noisescope-cli defaults --json` prints the table (defaultsJson) for everything else.
//
// The noise path's defaults are owned below (schedule/engine_defaults.h) and only named here; the
// lower libraries' struct defaults refer to that owner, and tests/core/pipeline/test_defaults
// pins the rest of them to this table.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "schedule/engine_defaults.h"

namespace noisescope::pipeline::defaults {

// The noise path's own defaults are owned by schedule/engine_defaults.h and reached here by name
// (defaults::kSigmaMin is the owner's): the σ grid's ends (THEORY §5), σ_data when nothing
// measures it, min-SNR's γ, and the rate's low-noise gate with its "auto" rule (THEORY §6).
using namespace schedule::defaults;

// The log-σ bins of schedules and of their comparison.
inline constexpr int kBins = 256;

// The offline diagnostic: σ levels and Monte Carlo queries per level (THEORY §3).
inline constexpr int kDiagnosticLevels = 64;
inline constexpr int64_t kDiagnosticQueries = 256;
// Dataset statistics: query rows of the nearest-neighbour distance, and the seed that picks them.
inline constexpr int64_t kNeighbourQueries = 256;
inline constexpr uint64_t kNeighbourSeed = 1;

// The held-out rule: without a test split, a seeded share of the data (util/seeded_split.h).
inline constexpr double kHeldOutShare = 0.1;
// The feature network's own test set when none is given (`quality train-features`): a seeded
// fifth of its training data, by the same split.
inline constexpr double kFeatureTestShare = 0.2;

// Inference σ steps (pipeline/sampling/sampling_grids.h): the grid every exported σ-steps file and
// the Schedules tab's Sampling grid… dialog start from — Karras ρ = 7, the grid EDM's Heun sampler
// was tuned on, until `sample-race` finds a grid that beats it — its number of levels N, and the
// margin of the step-ratio limit (margin × Karras ρ = 7's largest step at the same N and ends).
inline constexpr const char* kSamplingGrid = "karras?rho=7";
inline constexpr int kSamplingSteps = 18;
inline constexpr double kSamplingRatioMargin = 2.0;

// The training image size (pixels) a trainer's resolution-dependent shift reads when none is
// given: `noisescope-cli fit --resolution` and the Export for… dialog (Flux's flux_shift).
inline constexpr int kTrainerWidth = 1024;
inline constexpr int kTrainerHeight = 1024;

// A default as the faces show it in help and tooltips ("%g": 0.15, 80).
std::string formatDefault(double value);

// The gate c of a comparison's informative band, for a profile of this kind: 0 (no gate) for the
// empirical prior's profile, whose MMSE vanishes at small σ by itself (THEORY §6), kGateC for
// every other kind (held-out, Gaussian, bound, checkpoint, a table). The one rule for the
// Schedules panel, `noisescope-cli compare` and the report.
double comparisonBandGateC(const std::string& profileKind);

// The whole table, presets included, as JSON ("format": "noisescope.defaults/1"). It depends on
// nothing but this build's sources, so the same build always prints the same bytes.
nlohmann::json defaultsJson();

}  // namespace noisescope::pipeline::defaults
