#pragma once
// What a sampling-grid race will do, before it samples: the TorchScript file and training config
// a MODEL resolves to, the model's σ range, the sampler, and the grids — and, for a face that
// shows the grids before racing them, each grid's σ steps at one NFE budget over the curves they
// are meant to follow (the run's final training π, the profile's rate). runSampleRace resolves
// its input through planSampleRace, so the preview and the race cannot disagree. Torch-free.
#include <cstdint>
#include <string>
#include <vector>

#include "pipeline/sampling/sample_race.h"
#include "schedule/ode_sampler.h"

namespace noisescope::pipeline {

struct SampleRacePlan {
  std::string model;                                          // the TorchScript file sampled
  std::string config;                                         // the training config of its data
  bool isRun = false;                                         // MODEL was a run directory
  std::string source;                                         // the run directory, or the config
  schedule::OdeSampler sampler = schedule::OdeSampler::Heun;  // "auto" resolved
  RaceGridContext context;
  std::vector<std::string> grids;  // the options' specs, or defaultGridsOf(options, context)
};

// InputError for a MODEL that is neither a run with an export nor a file, a file without its
// config, a config that does not read, or an unknown sampler.
SampleRacePlan planSampleRace(const SampleRaceOptions& options);

struct GridPreview {
  std::string name, rule;
  int64_t steps = 0;          // σ steps above 0 at this NFE
  std::vector<double> sigma;  // descending, > 0 (the race appends σ = 0); empty on error
  std::string error;          // why this grid cannot be built, "" when it can
};
// Every planned grid at one NFE budget (steps = stepsForEvaluations(sampler, nfe)). A grid that
// cannot be built (a bad spec, a profile without a rate) carries its error instead of throwing,
// so a face can show the others. InputError for an NFE that leaves fewer than 2 steps.
std::vector<GridPreview> previewRaceGrids(const SampleRacePlan& plan, int64_t nfe);

// The curves the grids are drawn over, each over σ: the run's final training π as a density in
// log σ (empty for a bare TorchScript file or a run without a recorded π), and the profile's
// conditional-entropy rate in log σ (empty without a profile).
struct RaceBackdrop {
  std::vector<double> piSigma, pi;
  std::string piSource;
  std::vector<double> rateSigma, rate;
  std::string profileSource;
};
RaceBackdrop raceBackdrop(const SampleRacePlan& plan);

}  // namespace noisescope::pipeline
