#pragma once
// The schedule race (docs/schedule-race.md), its policy in one place: who races on one budget,
// the quick-look budget, and what ranks them. The Training tab's Start race trains the entrants
// on its own settings, Quick-look race on the quick-look budget; `noisescope-cli defaults --json`
// lists both ("schedule_race"), and bench/train/schedule_race.sh reads the entrants there.
// The measures come in the order bench/train/race_stats.py (pick_measures) asks: sample quality
// first (THEORY §11: the Fréchet distance, then the k-mer spectrum distance), the held-out
// ELBO-like error second, because it weighs small σ heavily and can rank the samplers opposite
// to sample quality.
#include <cstdint>
#include <string>
#include <vector>

#include "pipeline/training/run_watch.h"

namespace noisescope::train {
struct TrainConfig;
}

namespace noisescope::pipeline {

// What a run is in its race.
enum class RaceRole {
  None,         // started alone, or followed from a folder
  Baseline,     // static EDM: the race's reference, whose frozen checkpoint the others overlay
  InfoNoise,    // InfoNoise online
  SqrtEntropy,  // √-entropy online
};

struct RaceEntrant {
  std::string sampler;  // the config's noise.sampler
  RaceRole role;
};

// The runs a race trains, the baseline first.
const std::vector<RaceEntrant>& scheduleRaceEntrants();

// A first look at the race: every entrant on a budget that finishes in about five minutes on two
// CPU cores with the bundled Fashion-MNIST sample (measured in docs/schedule-race.md, "Quick-look
// race"), where the full race (the Training tab's settings, 2 000 steps by default) takes far
// longer. The online samplers warm up and refresh early enough to adapt several times, and each
// evaluation scores fewer Heun samples in fewer steps. What it does not name (data, transform,
// learning rate, seed, loss weight, feature network) stays as the user set it.
struct QuickLookRace {
  int64_t steps = 400;
  int64_t warmupSteps = 150;  // first refresh of InfoNoise / √-entropy
  int64_t refreshEvery = 75;
  int64_t evalEvery = 200;       // evaluations at 200 and at the last step
  int64_t qualitySamples = 128;  // Heun samples scored per evaluation
  int64_t heunSteps = 18;
  int64_t testLimit = 512;  // held-out samples kept
  // The network: "auto" (U-Net for images, MLP for flat data, 1-D conv net for DNA) at the
  // trainer's own small sizes, whatever the form was raised to.
  std::string network = "auto";
};
const QuickLookRace& quickLookRace();
// The quick-look budget over a config built from the user's settings.
void applyQuickLook(train::TrainConfig& config);
// Its settings as a face names them: "3 runs × 600 steps · network auto (U-Net 8 channels, MLP
// width 256) · evaluated every 200 steps (128 Heun samples)".
std::string quickLookDescription();

enum class RaceMeasureId { Fd, KmerJs, HeldOut };

struct RaceMeasure {
  RaceMeasureId id;
  std::string key;     // the eval event's field, and race_stats.py's name of the measure
  std::string name;    // what a face calls it
  bool sampleQuality;  // a score of generated samples (else the held-out error)
};

// Every measure, best first; the held-out error is last.
const std::vector<RaceMeasure>& raceMeasures();
const RaceMeasure& raceMeasure(RaceMeasureId id);

// The measure's value in one evaluation; NaN when the evaluation did not compute it. HeldOut reads
// the eval's scalar quality: the ELBO-like error, or the EDM-weighted one for reference "edm".
double raceMeasureValue(RaceMeasureId id, const RunRecord::EvalPoint& eval);

// The first measure of raceMeasures() that every run carries (some evaluation with a finite
// value), the Fréchet distance only when all of them measure it in one feature network; HeldOut
// when none does, when `runs` is empty, or when the sample-quality measures are not wanted.
RaceMeasureId pickRaceMeasure(const std::vector<const RunRecord*>& runs,
                              bool sampleQualityWanted = true);

}  // namespace noisescope::pipeline
