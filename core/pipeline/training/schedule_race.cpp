#include "pipeline/training/schedule_race.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "train/train_config.h"

namespace noisescope::pipeline {

const std::vector<RaceEntrant>& scheduleRaceEntrants() {
  // The static EDM baseline and the two online samplers of THEORY §8.
  static const std::vector<RaceEntrant> entrants = {{"static", RaceRole::Baseline},
                                                    {"infonoise", RaceRole::InfoNoise},
                                                    {"sqrt-entropy", RaceRole::SqrtEntropy}};
  return entrants;
}

const QuickLookRace& quickLookRace() {
  static const QuickLookRace quick;
  return quick;
}

void applyQuickLook(train::TrainConfig& config) {
  const QuickLookRace& q = quickLookRace();
  config.model = train::ModelSettings{};
  config.model.kind = q.network;
  config.optim.steps = q.steps;
  config.noise.warmupSteps = q.warmupSteps;
  config.noise.refreshEvery = q.refreshEvery;
  config.eval.every = q.evalEvery;
  config.eval.qualitySamples = q.qualitySamples;
  config.eval.heunSteps = q.heunSteps;
  config.dataset.testLimit = q.testLimit;
}

std::string quickLookDescription() {
  const QuickLookRace& q = quickLookRace();
  const train::ModelSettings model;
  return std::to_string(scheduleRaceEntrants().size()) + " runs × " + std::to_string(q.steps) +
         " steps · network " + q.network + " (U-Net " + std::to_string(model.channels) +
         " channels, MLP width " + std::to_string(model.width) + ") · evaluated every " +
         std::to_string(q.evalEvery) + " steps (" + std::to_string(q.qualitySamples) +
         " Heun samples)";
}

const std::vector<RaceMeasure>& raceMeasures() {
  static const std::vector<RaceMeasure> measures = {
      {RaceMeasureId::Fd, "fd", "Fréchet distance", true},
      {RaceMeasureId::KmerJs, "kmer_js", "k-mer JS", true},
      {RaceMeasureId::HeldOut, "elbo", "held-out ELBO-like error", false},
  };
  return measures;
}

const RaceMeasure& raceMeasure(RaceMeasureId id) {
  const auto& all = raceMeasures();
  return *std::find_if(all.begin(), all.end(), [id](const RaceMeasure& m) { return m.id == id; });
}

double raceMeasureValue(RaceMeasureId id, const RunRecord::EvalPoint& eval) {
  switch (id) {
    case RaceMeasureId::Fd:
      return eval.fd;
    case RaceMeasureId::KmerJs:
      return eval.kmerJs;
    case RaceMeasureId::HeldOut:
      return eval.quality;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

bool everyRunCarries(const std::vector<const RunRecord*>& runs, RaceMeasureId id) {
  return std::all_of(runs.begin(), runs.end(), [id](const RunRecord* run) {
    return std::any_of(run->evals.begin(), run->evals.end(), [id](const RunRecord::EvalPoint& e) {
      return std::isfinite(raceMeasureValue(id, e));
    });
  });
}

// Distances in different feature networks are not comparable.
bool oneFeatureNetwork(const std::vector<const RunRecord*>& runs) {
  const std::string* network = nullptr;
  for (const RunRecord* run : runs)
    for (const auto& e : run->evals) {
      if (!std::isfinite(e.fd)) continue;
      if (!network) network = &e.featureNetwork;
      if (e.featureNetwork != *network) return false;
    }
  return true;
}

}  // namespace

RaceMeasureId pickRaceMeasure(const std::vector<const RunRecord*>& runs, bool sampleQualityWanted) {
  if (!sampleQualityWanted || runs.empty()) return RaceMeasureId::HeldOut;
  for (const RaceMeasure& m : raceMeasures()) {
    if (!m.sampleQuality || !everyRunCarries(runs, m.id)) continue;
    if (m.id == RaceMeasureId::Fd && !oneFeatureNetwork(runs)) continue;
    return m.id;
  }
  return RaceMeasureId::HeldOut;
}

}  // namespace noisescope::pipeline
