#pragma once
// The schedule race (docs/schedule-race.md), its policy in one place: who races on one budget,
// and what ranks them. The Training tab's Start race trains the entrants; `noisescope-cli defaults
// --json` lists them ("schedule_race"), and bench/train/schedule_race.sh reads them there.
// The measures come in the order bench/train/race_stats.py (pick_measures) asks: sample quality
// first (THEORY §11: the Fréchet distance, then the k-mer spectrum distance), the held-out
// ELBO-like error second, because it weighs small σ heavily and can rank the samplers opposite
// to sample quality.
#include <string>
#include <vector>

#include "pipeline/training/run_watch.h"

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
