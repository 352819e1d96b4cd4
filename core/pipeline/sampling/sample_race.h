#pragma once
// The sampling-grid race (issue 23): a trained denoiser sampled on each grid of σ steps at each
// budget of denoiser evaluations (NFE) with several sampling seeds, every sample set scored by the
// sample-quality measures of THEORY §11 (FD in a feature network's features; k-mer JS for DNA)
// next to their real-against-real floor, and optionally the grid's discrete-time ELBO. Needs no
// retraining. `noisescope-cli sample-race` runs it.
//
// NFE convention: a budget of n evaluations. Heun spends 2N − 1 on N σ steps (the last step, to
// σ = 0, is an Euler step), so it gets N = ⌊(n + 1)/2⌋ steps and spends n − 1 for even n; Euler
// and Euler ancestral get N = n. Every grid gets the same N at the same n, so grids are compared
// at equal evaluations. A seed fixes the start noise (and the ancestral noise), the same for
// every grid: the comparison between grids is paired by seed.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/sample_race_io.h"
#include "render/chart.h"
#include "schedule/engine_defaults.h"
#include "util/progress.h"

namespace noisescope::pipeline {

struct RaceGrid {
  std::string name;
  std::string rule;
  // `steps` σ values, descending and > 0, σ_max first (the race appends σ = 0).
  std::function<std::vector<double>(int64_t steps)> sigmas;
};

// What grids are built from: the model's σ range, and optionally the run's final π and a
// profile for the grids matched to them.
struct RaceGridContext {
  double sigmaMin = schedule::defaults::kSigmaMin, sigmaMax = schedule::defaults::kSigmaMax;
  std::string runDirectory;  // "" for a bare TorchScript file
  std::string profile;       // a noisescope.profile/1 file, "" for none
};

// The grids of `specs` (sampling-grid spec strings, schedule/sampling_grid.h); the entropic family
// takes the context's profile and the quantile family the run's final π unless the spec names a
// file. InputError for a bad spec or a missing source, before anything is sampled.
std::vector<RaceGrid> raceGrids(const std::vector<std::string>& specs,
                                const RaceGridContext& context);
// The same, spec by spec: a spec that cannot be built carries its error instead of failing the
// others (a face's preview). The sources are read once either way.
struct RaceGridAttempt {
  std::string spec;
  std::optional<RaceGrid> grid;
  std::string error;  // why `grid` is empty
};
std::vector<RaceGridAttempt> tryRaceGrids(const std::vector<std::string>& specs,
                                          const RaceGridContext& context);
// The grids raced by default: Karras ρ = 7 and ρ = 3, uniform σ, uniform log σ, DDPM trailing,
// leading (steps_offset 1) and linspace on Stable Diffusion's table, flow t with shift 3; with a
// profile the entropic ∫ rate and ∫ √rate grids; with a run that recorded its π its quantiles.
std::vector<std::string> defaultRaceGridSpecs(const RaceGridContext& context);
std::vector<RaceGrid> defaultRaceGrids(const RaceGridContext& context);

// The grids a quick look races: Karras ρ = 7 (the default grid every other is measured against),
// uniform log σ, and the data-driven grid (auto with a profile, else the run's π quantiles when it
// recorded its π).
std::vector<std::string> quickRaceGridSpecs(const RaceGridContext& context);

struct SampleRaceOptions {
  // A run directory (its newest TorchScript export, its config's data) or a TorchScript x0
  // denoiser file together with `config`, the training config whose data it was trained on.
  std::string model;
  std::string config;
  std::string featureNetwork;      // "" : the config's eval.feature_network
  std::string profile;             // for the profile-matched grids
  std::vector<std::string> grids;  // spec strings; empty: defaultRaceGridSpecs
  std::vector<int64_t> nfe{8, 16, 32, 64};
  std::vector<uint64_t> seeds{1, 2, 3};
  std::string sampler = "auto";  // "auto" (Euler for a flow-v model, else Heun) or a name
  int64_t samples = 0;           // generated samples per cell (0: eval.quality_samples)
  int64_t floorRepeats = 5;
  bool elbo = true;  // also the grid's ELBO (eval.samples held-out samples)
  std::string device = "cpu";
  // Which default grids an empty `grids` means: "full" (defaultRaceGridSpecs) or "quick"
  // (quickRaceGridSpecs).
  std::string gridSet = "full";

  // The two sizes of race a face offers. full(): the defaults above, every default grid at NFE
  // 8–64 with 3 seeds and the ELBO. quick(): a first look that finishes within 5 minutes on two
  // cores for the workbench's Fashion-MNIST run (its settings and wall time:
  // docs/sampling-steps.md): the quick grids, fewer budgets, seeds and samples, no ELBO.
  static SampleRaceOptions full() { return {}; }
  static SampleRaceOptions quick();
};

// The race's size in words, for a face to name what it will run: "NFE 8 16 · seeds 1 2 · 128
// samples per cell · 2 floor draws · no ELBO" (samples 0: "the config's eval.quality_samples").
std::string sampleRaceSettingsText(const SampleRaceOptions& options);

// The grids an empty `grids` of `options` stands for, in this context.
std::vector<std::string> defaultGridsOf(const SampleRaceOptions& options,
                                        const RaceGridContext& context);

// Called once the floor is measured (no cell yet) and after each finished cell (one grid at one
// NFE, every seed) with the race so far, its state Running: a face shows the table as it fills and
// keeps the finished part when the race is cancelled; the CLI rewrites its --json file.
using SampleRaceObserver = std::function<void(const SampleRaceResult& sofar)>;

// InputError for a model, config or feature network that does not load, an NFE below 1, no
// seeds, or data no measure can score.
// Cells are raced budget by budget, smallest NFE first, so every grid's cheapest cell comes
// first.
SampleRaceResult runSampleRace(const SampleRaceOptions& options, const Progress& progress = {},
                               const SampleRaceObserver& onCell = {});

// Quality against NFE, one line per grid with its 95 % band, and the floor as a flat line.
render::ChartSpec sampleRaceChart(const SampleRaceResult& result, const std::string& measure);

// The race's files, for the faces: its table as text, its JSON (noisescope.sample-race/1) and the
// chart of one measure (.svg or .png by the extension), each written atomically.
std::string sampleRaceText(const SampleRaceResult& result);
void writeSampleRaceJson(const std::string& path, const SampleRaceResult& result);
void writeSampleRaceChart(const std::string& path, const SampleRaceResult& result,
                          const std::string& measure);

}  // namespace noisescope::pipeline
