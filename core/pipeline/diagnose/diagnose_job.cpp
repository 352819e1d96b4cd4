#include "pipeline/diagnose/diagnose_job.h"

#include <cstdio>
#include <filesystem>
#include <utility>

#include "data/layout/scale_reference.h"
#include "pipeline/diagnose/bracket_job.h"
#include "pipeline/diagnose/run_profile.h"
#include "pipeline/internal/scaled_prior.h"
#include "util/error.h"
#include "util/seeded_split.h"
#include "util/setting_names.h"

namespace noisescope::pipeline {

namespace {

// Offsets the split's seed so that the rows held out are not the query draw's.
constexpr uint64_t kEvaluationSplitSeedOffset = 0x9e3779b97f4a7c15ULL;

GaussianSpectrumOptions spectrumOf(const DiagnoseRequest& request) {
  GaussianSpectrumOptions spectrum;
  spectrum.rank = request.spectrumRank;
  spectrum.seed = request.options.seed;
  spectrum.bootstrap = request.bootstrap;
  return spectrum;
}

HeldOutRequest heldOutOf(const DiagnoseRequest& request) {
  HeldOutRequest heldOut = request.heldOut;
  heldOut.seed = request.options.seed;
  return heldOut;
}

void requireShape(const Dataset& dataset, const Dataset& scored, const std::string& source) {
  if (scored.sampleShape != dataset.sampleShape)
    throw InputError(source, "holds samples of shape " + scored.shapeString() +
                                 ", but the dataset has samples of " + dataset.shapeString());
}

// A checkpoint given as a file is scored on `evalData` when given (on the dataset's scale), else
// on the dataset if it is a test split, else on a seeded share (heldOut.share) of it.
Profile fileCheckpointProfile(const Dataset& dataset, const DiagnoseRequest& request,
                              CheckpointOptions c, const Progress& progress) {
  if (!request.evalData.empty()) {
    const Dataset data =
        loadDatasetOnScale(request.evalData, scaleReferenceOf(dataset), request.evalLoad);
    requireShape(dataset, data, request.evalData);
    c.evaluationSet = "--eval-data " + request.evalData + " (split: " + data.split + ")";
    return computeCheckpointProfile(data, c, progress);
  }
  if (dataset.split == "test") {
    c.evaluationSet = "test split (" + dataset.source + ")";
    return computeCheckpointProfile(dataset, c, progress);
  }
  const int64_t keep = heldOutCount(dataset.size(), request.heldOut.share, settings::kHeldOutShare);
  const RowSplit rows =
      seededSplit(dataset.size(), keep, request.options.seed + kEvaluationSplitSeedOffset);
  char share[32];
  std::snprintf(share, sizeof share, "%.3g%%", 100.0 * request.heldOut.share);
  c.evaluationSet =
      std::string("held-out part: a seeded random ") + share + " (" + std::to_string(keep) +
      " samples) of " + dataset.source + " (split: " + dataset.split +
      "); the model may have been trained on it — pass " + "--eval-data for a test split";
  return computeCheckpointProfile(selectRows(dataset, rows.held), c, progress);
}

Profile checkpointProfile(const Dataset& dataset, const DiagnoseRequest& request,
                          const Progress& progress, std::string& model) {
  CheckpointOptions c;
  c.grid = request.options;
  c.batchSize = request.batchSize;
  if (!std::filesystem::is_directory(request.checkpoint)) {
    c.path = request.checkpoint;
    c.prediction = request.prediction;
    model = c.path;
    return fileCheckpointProfile(dataset, request, c, progress);
  }
  if (request.prediction != Prediction::X0)
    throw InputError(settings::kPrediction, "a run directory's exported denoiser predicts x0");
  // The run's own held-out data, read by the trainer's reader.
  const RunHeldOutSet held = runHeldOutSet(request.checkpoint, progress.sub(0.0, 0.2));
  if (!dataset.values.empty()) requireShape(dataset, held.data, request.checkpoint);
  c.path = newestExportedDenoiser(request.checkpoint);
  c.prediction = Prediction::X0;
  c.evaluationSet = held.description;
  model = c.path;
  Profile profile = computeCheckpointProfile(held.data, c, progress.sub(0.2, 1.0));
  profile.provenance["run_directory"] = request.checkpoint;
  profile.provenance["checkpoint"] = c.path;
  return profile;
}

// `movable`: the same dataset, when the caller handed it over (then it is moved, not copied).
DiagnoseResult diagnose(const Dataset& dataset, Dataset* movable, const std::string& datasetPath,
                        const DiagnoseRequest& request, const Progress& progress,
                        const LevelObserver& onLevel) {
  request.options.validate();
  const auto owned = [&] { return movable ? std::move(*movable) : Dataset(dataset); };
  DiagnoseResult out;
  const std::string& kind = request.kind;
  if (kind == "bracket") {
    BracketOptions options;
    options.spectrum = spectrumOf(request);
    options.withPatch = request.patchSizes != std::vector<int>{0};
    if (options.withPatch && !request.patchSizes.empty()) options.patch.sizes = request.patchSizes;
    BracketJob job = runBracket(owned(), datasetPath, heldOutOf(request), request.options, options,
                                progress, onLevel);
    out.querySet = job.querySet;
    for (Profile* p : bracketCurves(job.bracket)) out.profiles.push_back(std::move(*p));
  } else if (kind == "held-out") {
    const HeldOutQueries held = chooseHeldOutQueries(owned(), datasetPath, heldOutOf(request));
    Profile profile =
        computeHeldOutProfile(held.prior, held.queries, request.options, progress, onLevel);
    profile.provenance["query_set"] = held.description;
    out.querySet = held.description;
    out.profiles.push_back(std::move(profile));
  } else if (kind == "gaussian") {
    out.profiles.push_back(
        computeGaussianProfile(dataset, request.options, spectrumOf(request), progress));
  } else if (kind == "empirical") {
    out.profiles.push_back(computeEmpiricalProfile(dataset, request.options, progress, onLevel));
  } else if (kind == "checkpoint") {
    out.profiles.push_back(checkpointProfile(dataset, request, progress, out.model));
  } else {
    throw InputError(std::string(settings::kDiagnosticKind) + " " + kind,
                     "expected empirical, held-out, gaussian, bracket or checkpoint");
  }
  for (Profile& p : out.profiles) p.provenance["producer"] = request.producer;
  return out;
}

}  // namespace

DiagnoseResult runDiagnosis(const Dataset& dataset, const std::string& datasetPath,
                            const DiagnoseRequest& request, const Progress& progress,
                            const LevelObserver& onLevel) {
  return diagnose(dataset, nullptr, datasetPath, request, progress, onLevel);
}

DiagnoseResult runDiagnosis(Dataset&& dataset, const std::string& datasetPath,
                            const DiagnoseRequest& request, const Progress& progress,
                            const LevelObserver& onLevel) {
  return diagnose(dataset, &dataset, datasetPath, request, progress, onLevel);
}

DiagnoseResult runScaledDiagnosis(ScaledPrior& prior, const std::string& datasetPath,
                                  const DiagnoseRequest& request, const Progress& progress) {
  request.options.validate();
  DiagnoseResult out;
  Profile profile;
  if (request.kind == "held-out") {
    const HeldOutRequest heldOut = heldOutOf(request);
    const std::string file =
        heldOutQueryFile(heldOut, datasetPath, prior.whole->description().split);
    if (file.empty())
      throw InputError(settings::kQueryFile,
                       "a streamed or sharded prior cannot be split in memory; give the held-out "
                       "samples as a file (--queries-from FILE, or a test split beside the "
                       "dataset)");
    const HeldOutQueries held = loadHeldOutQueryFile(file, heldOut, *prior.whole);
    profile = computeHeldOutProfile(prior.access(), held.queries, request.options, progress);
    profile.provenance["query_set"] = held.description;
    out.querySet = held.description;
  } else if (request.kind == "empirical") {
    profile = computeEmpiricalProfile(prior.access(), request.options, progress);
  } else {
    throw InputError(std::string(settings::kDiagnosticKind) + " " + request.kind,
                     "only empirical and held-out run on a streamed or sharded prior");
  }
  profile.provenance["producer"] = request.producer;
  profile.provenance["prior"] = prior.describe();
  out.profiles.push_back(std::move(profile));
  return out;
}

PosteriorProbe probeSample(const Dataset& dataset, int64_t sampleIndex,
                           const std::vector<double>& sigmas, const Progress& progress) {
  return probePosterior(dataset, sampleIndex, sigmas, ProbeOptions{}, progress);
}

}  // namespace noisescope::pipeline
