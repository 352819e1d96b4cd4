// noisescope-cli diagnose: the noise-level profile of a dataset (empirical optimal denoiser, the
// dataset as prior; --kind held-out / gaussian / bracket for the population bounds of THEORY §10)
// or of a trained denoiser (--checkpoint), written as a profile JSON (and CSV), with a summary
// table on stdout.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "command.h"
#include "data/dataset.h"
#include "data/scale_reference.h"
#include "dataset_options.h"
#include "diagnostic/bracket.h"
#include "diagnostic/checkpoint_diagnostic.h"
#include "diagnostic/empirical_diagnostic.h"
#include "io/profile_io.h"
#include "pipeline/bracket_job.h"
#include "pipeline/defaults.h"
#include "pipeline/held_out_queries.h"
#include "pipeline/run_profile.h"
#include "pipeline/scaled_prior.h"
#include "progress_bar.h"
#include "util/error.h"
#include "util/seeded_split.h"

namespace noisescope::cli {
namespace {

struct DiagnoseArgs {
  DatasetArgs dataset;
  DiagnosticOptions options;
  int64_t memoryMiB = 1024;
  std::string precision = "float64";
  std::string checkpoint;
  std::string prediction = "x0";
  std::string evalData;
  double holdout = pipeline::defaults::kHeldOutShare;
  bool holdoutGiven = false;
  std::string kind = "empirical";
  std::string queriesFrom;
  int64_t rank = 512;
  std::vector<int> patchSizes;
  int bootstrap = 8;
  int64_t batch = CheckpointOptions{}.batchSize;
  std::string out;
  std::string csv;
  std::string stream = "auto";
  int timeout = 300;
};

// Picks the data a checkpoint is scored on and says which, for the profile.
Dataset evaluationSet(const DiagnoseArgs& args, Dataset given, std::string& description) {
  if (!args.evalData.empty()) {
    LoadOptions load = toLoadOptions(args.dataset);
    load.progress = stderrProgress("loading");
    Dataset data = loadDatasetOnScale(args.evalData, scaleReferenceOf(given), load);
    if (data.sampleShape != given.sampleShape)
      throw InputError(args.evalData, "samples of shape " + data.shapeString() +
                                          " do not match the dataset's " + given.shapeString());
    description = "--eval-data " + args.evalData + " (split: " + data.split + ")";
    return data;
  }
  // A run directory: the data the run held out, exactly as the GUI scores it.
  if (std::filesystem::is_directory(args.checkpoint)) {
    pipeline::RunHeldOutSet held =
        pipeline::runHeldOutSet(args.checkpoint, stderrProgress("loading"));
    if (held.data.sampleShape != given.sampleShape)
      throw InputError(args.checkpoint, "holds out samples of shape " + held.data.shapeString() +
                                            ", but " + args.dataset.path + " has samples of " +
                                            given.shapeString());
    description = held.description;
    return std::move(held.data);
  }
  if (given.split == "test") {
    description = "test split (" + given.source + ")";
    return given;
  }
  // The engine's one seeded split; the seed is offset so these rows are not the query draw's.
  const int64_t keep = heldOutCount(given.size(), args.holdout, "--holdout");
  const RowSplit rows = seededSplit(given.size(), keep, args.options.seed + 0x9e3779b97f4a7c15ULL);
  char share[32];
  std::snprintf(share, sizeof share, "%.3g%%", 100.0 * args.holdout);
  description = std::string("held-out part: a seeded random ") + share + " (" +
                std::to_string(keep) + " samples) of " + given.source + " (split: " + given.split +
                "); the model may have been trained on it — pass --eval-data for a test split";
  return selectRows(given, rows.held);
}

// The held-out query set of --kind held-out / bracket (pipeline/held_out_queries): --queries-from,
// else the test split beside the file (unless --holdout was given), else a seeded --holdout share.
pipeline::HeldOutRequest heldOutRequest(const DiagnoseArgs& args) {
  pipeline::HeldOutRequest request;
  request.queriesFrom = args.queriesFrom;
  request.lookForTestSplit = !args.holdoutGiven;
  request.share = args.holdout;
  request.seed = args.options.seed;
  request.load = toLoadOptions(args.dataset);
  request.load.progress = stderrProgress("loading");
  return request;
}

// X.json → X.<kind>.json (and likewise for the CSV), the files of --kind bracket.
std::string withKind(const std::string& path, const std::string& kind) {
  const size_t dot = path.find_last_of('.');
  const size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return path + "." + kind;
  return path.substr(0, dot) + "." + kind + path.substr(dot);
}

void printBracket(Bracket& b) {
  const std::vector<Profile*> curves = pipeline::bracketCurves(b);
  std::printf("\nMMSE(σ) of the bracket (THEORY §10):\n");
  for (const Profile* p : curves)
    std::printf("  %-16s %s\n", p->kind.c_str(), profileKindMeaning(p->kind).c_str());
  std::printf("\n%-10s", "sigma");
  for (const Profile* p : curves) std::printf(" %-15s", p->kind.c_str());
  std::printf(" %-13s %-16s\n", "bound upper95", "bound from");
  const nlohmann::json& source = b.bound.provenance["source"];
  for (int l = 0; l < b.empirical.levels(); ++l) {
    std::printf("%-10.4g", b.empirical.sigma[l]);
    for (const Profile* p : curves) std::printf(" %-15.4g", p->primary().mean[l]);
    std::printf(" %-13.4g %-16s\n", b.bound.primary().upper95[l],
                source[l].get<std::string>().c_str());
  }
}

void printSummary(const Profile& profile) {
  std::printf("\n%s profile: %s\n", profile.kind.c_str(), profileKindMeaning(profile.kind).c_str());
  const MmseEstimate& mmse = profile.primary();
  const RateSeries* rate = profile.rate("log_sigma");
  const bool posterior = !profile.posterior.empty();
  std::printf("\n%-11s %-25s %-13s %-10s %-10s\n", "sigma",
              ("MMSE (" + mmse.name + ") ± se").c_str(), "dH/dlog σ", "max w", "ESS");
  for (int l = 0; l < profile.levels(); ++l) {
    char mmseText[64];
    std::snprintf(mmseText, sizeof mmseText, "%.4g ± %.2g", mmse.mean[l], mmse.standardError[l]);
    if (posterior) {
      std::printf("%-11.4g %-25s %-13.4g %-10.4g %-10.4g\n", profile.sigma[l], mmseText,
                  rate->value[l], profile.posterior.maxWeight[l],
                  profile.posterior.effectiveSampleSize[l]);
    } else {
      std::printf("%-11.4g %-25s %-13.4g %-10s %-10s\n", profile.sigma[l], mmseText, rate->value[l],
                  "-", "-");
    }
  }
  const double integral = integrateRateOverLogSigma(profile);
  if (profile.kind == "empirical") {
    std::printf("\n∫ MMSE/σ² d log σ = %.4f   (log N = %.4f for N distinct points)\n", integral,
                std::log(static_cast<double>(profile.datasetSize)));
  } else {
    std::printf("\n∫ error/σ² d log σ = %.4f\n", integral);
  }
}

// --kind empirical / held-out on a prior streamed from disk or sharded across ranks (torchrun's
// variables): the same profile as in memory, computed tile by tile and merged with c10d. Rank 0
// writes the files; every rank ends with the same profile or the same kind of error.
int diagnoseScaled(const DiagnoseArgs& a, pipeline::ScaledPrior& prior) {
  const bool lead = prior.rank() == 0;
  const Progress progress = lead ? stderrProgress("diagnose") : Progress{};
  if (lead) std::fprintf(stderr, "prior: %s\n", prior.describe().c_str());
  Profile profile;
  std::string querySet;
  if (a.kind == "held-out") {
    pipeline::HeldOutRequest request = heldOutRequest(a);
    if (!lead) request.load.progress = {};  // one progress bar, rank 0's
    const std::string file =
        pipeline::heldOutQueryFile(request, a.dataset.path, prior.whole->description().split);
    if (file.empty())
      throw InputError("--queries-from",
                       "a streamed or sharded prior cannot be split in memory; give the held-out "
                       "samples as a file (--queries-from FILE, or a test split beside the "
                       "dataset)");
    const pipeline::HeldOutQueries held =
        pipeline::loadHeldOutQueryFile(file, request, *prior.whole);
    const Dataset& queries = held.queries;
    querySet = held.description;
    profile = computeHeldOutProfile(prior.access(), queries, a.options, progress);
    profile.provenance["producer"] = "noisescope-cli diagnose --kind held-out";
    profile.provenance["query_set"] = querySet;
  } else {
    profile = computeEmpiricalProfile(prior.access(), a.options, progress);
    profile.provenance["producer"] = "noisescope-cli diagnose";
  }
  if (!lead) return 0;
  profile.provenance["prior"] = prior.describe();
  writeProfile(a.out, profile);
  if (!a.csv.empty()) writeProfileCsv(a.csv, profile);
  if (!querySet.empty()) std::printf("held-out queries: %s\n", querySet.c_str());
  printSummary(profile);
  std::printf("profile written to %s%s%s\n", a.out.c_str(), a.csv.empty() ? "" : " and ",
              a.csv.c_str());
  return 0;
}

std::function<int()> setup(CLI::App& app) {
  app.description(
      "Noise-level profile: MMSE(σ), posterior statistics and entropy rates of a dataset "
      "(its own optimal denoiser) or of a trained denoiser (--checkpoint)");
  auto args = std::make_shared<DiagnoseArgs>();
  addDatasetOptions(app, args->dataset);
  DiagnosticOptions& o = args->options;
  app.add_option("--levels", o.levels, "σ levels, log-spaced")->capture_default_str();
  app.add_option("--sigma-min", o.sigmaMin, "Smallest σ")->capture_default_str();
  app.add_option("--sigma-max", o.sigmaMax, "Largest σ")->capture_default_str();
  app.add_option("--queries", o.queries, "Monte Carlo queries per level (the same for every σ)")
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Random seed")->capture_default_str();
  app.add_option("--device", o.device, "auto, cpu, cuda or cuda:N")->capture_default_str();
  app.add_option("--memory", args->memoryMiB, "Extra memory for the computation, MiB")
      ->capture_default_str();
  app.add_option("--precision", args->precision,
                 "Distance assembly: float64 (exact at small σ) or float32")
      ->capture_default_str();
  app.add_option("--checkpoint", args->checkpoint,
                 "TorchScript denoiser forward(x, sigma) -> x0 (see integrations/python), or a "
                 "training run directory (its newest exported denoiser)");
  app.add_option("--prediction", args->prediction, "What the checkpoint predicts: x0, eps or v")
      ->capture_default_str();
  app.add_option("--eval-data", args->evalData,
                 "Checkpoint: data to score it on, read on the dataset's scale (default: a run "
                 "directory's own held-out data; else the dataset if it is a test split, else a "
                 "held-out part)");
  app.add_option("--kind", args->kind,
                 "empirical (training queries), held-out (queries from held-out samples), "
                 "gaussian (plug-in Wiener MMSE of the sample covariance: an estimate, biased "
                 "low) or bracket (empirical, held-out, held-out-wiener, held-out-patch and the "
                 "population bound chosen among the held-out members, one file each: --out "
                 "X.json writes X.<kind>.json)")
      ->check(CLI::IsMember({"empirical", "held-out", "gaussian", "bracket"}))
      ->capture_default_str();
  app.add_option("--queries-from", args->queriesFrom,
                 "held-out / bracket: dataset file of the held-out queries (default: the test "
                 "split beside the dataset, e.g. t10k-… for train-…, else --holdout)");
  app.add_option("--holdout", args->holdout,
                 "Share of the dataset held out: checkpoint evaluation, and held-out queries when "
                 "there is no test split (given explicitly, it is used even when there is one)")
      ->capture_default_str()
      ->each([args](const std::string&) { args->holdoutGiven = true; });
  app.add_option("--rank", args->rank,
                 "gaussian / bracket: eigenpairs computed explicitly when D > 4096 (randomised; "
                 "the bracket's Wiener member leaves the directions beyond them unshrunk, which "
                 "keeps it a bound)")
      ->capture_default_str();
  app.add_option("--patch-sizes", args->patchSizes,
                 "bracket: odd widths of the patch Wiener member (default by layout: 3,5,7,9 for "
                 "grey images, 3,5,7 for colour, 3,9,17,33 for sequences); 0 leaves it out")
      ->delimiter(',');
  app.add_option("--bootstrap", args->bootstrap,
                 "gaussian: bootstrap replicates over rows for the plug-in curve's interval")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--batch", args->batch, "Checkpoint: batch size")->capture_default_str();
  app.add_option("--out", args->out, "Profile JSON to write")->required();
  app.add_option("--csv", args->csv, "Also write the profile as CSV");
  app.add_option("--stream", args->stream,
                 "empirical / held-out: read the prior from disk tile by tile (.npy memory-mapped, "
                 "HDF5 hyperslabs, IDX and CIFAR streamed): auto (when its float32 size exceeds "
                 "--memory), on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str();
  app.add_option("--timeout", args->timeout,
                 "Sharded runs (torchrun's RANK, WORLD_SIZE, MASTER_ADDR/PORT): seconds to wait "
                 "for the other ranks, at the start and at every merge")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();

  return [args]() {
    DiagnoseArgs& a = *args;
    if (a.memoryMiB < 1) throw InputError("--memory", "must be at least 1 MiB");
    a.options.memoryBytes = a.memoryMiB << 20;
    a.options.distancePrecision = distancePrecisionFromString(a.precision);
    const Prediction prediction = predictionFromString(a.prediction);
    a.options.validate();
    const DistributedEnvironment env = distributedEnvironmentFromEnv();
    const bool scalable = a.checkpoint.empty() && (a.kind == "empirical" || a.kind == "held-out");
    if (env.worldSize > 1 && !scalable)
      throw InputError("WORLD_SIZE", "is " + std::to_string(env.worldSize) +
                                         ": only --kind empirical and held-out run sharded; "
                                         "run --kind " +
                                         a.kind + (a.checkpoint.empty() ? "" : " --checkpoint") +
                                         " as one process");
    Dataset data;
    if (scalable) {
      if (env.worldSize > 1) a.options.device = deviceForLocalRank(a.options.device, env);
      LoadOptions load = toLoadOptions(a.dataset);
      if (env.rank == 0) load.progress = stderrProgress("loading");
      pipeline::ScaledPrior prior =
          pipeline::openScaledPrior(a.dataset.path, load, pipeline::streamingFromString(a.stream),
                                    a.options.memoryBytes, env, a.timeout);
      if (prior.streamed() || prior.communicator) return diagnoseScaled(a, prior);
      prior.whole.reset();
      data = std::move(*prior.loaded);
    } else {
      data = loadWithProgress(a.dataset);
    }

    if (!a.checkpoint.empty() && a.kind != "empirical")
      throw InputError("--kind",
                       "does not apply to --checkpoint (a checkpoint profile is its own "
                       "kind)");
    GaussianSpectrumOptions spectrum;
    spectrum.rank = a.rank;
    spectrum.seed = a.options.seed;
    spectrum.bootstrap = a.bootstrap;
    if (a.kind == "bracket") {
      BracketOptions options;
      options.spectrum = spectrum;
      options.withPatch = a.patchSizes != std::vector<int>{0};
      if (options.withPatch) options.patch.sizes = a.patchSizes;
      pipeline::BracketJob job =
          pipeline::runBracket(std::move(data), a.dataset.path, heldOutRequest(a), a.options,
                               options, stderrProgress("diagnose"));
      Bracket& b = job.bracket;
      for (Profile* p : pipeline::bracketCurves(b)) {
        p->provenance["producer"] = "noisescope-cli diagnose --kind bracket";
        writeProfile(withKind(a.out, p->kind), *p);
        if (!a.csv.empty()) writeProfileCsv(withKind(a.csv, p->kind), *p);
      }
      printBracket(b);
      std::printf("held-out queries: %s\n", job.querySet.c_str());
      for (const Profile* p : pipeline::bracketCurves(b))
        std::printf("profile written to %s%s%s\n", withKind(a.out, p->kind).c_str(),
                    a.csv.empty() ? "" : " and ",
                    a.csv.empty() ? "" : withKind(a.csv, p->kind).c_str());
      return 0;
    }

    Profile profile;
    if (a.checkpoint.empty() && a.kind == "held-out") {
      const pipeline::HeldOutQueries held =
          pipeline::chooseHeldOutQueries(std::move(data), a.dataset.path, heldOutRequest(a));
      profile =
          computeHeldOutProfile(held.prior, held.queries, a.options, stderrProgress("diagnose"));
      profile.provenance["producer"] = "noisescope-cli diagnose --kind held-out";
      profile.provenance["query_set"] = held.description;
      std::printf("held-out queries: %s\n", held.description.c_str());
    } else if (a.checkpoint.empty() && a.kind == "gaussian") {
      profile = computeGaussianProfile(data, a.options, spectrum, stderrProgress("diagnose"));
      profile.provenance["producer"] = "noisescope-cli diagnose --kind gaussian";
    } else if (a.checkpoint.empty()) {
      profile = computeEmpiricalProfile(data, a.options, stderrProgress("diagnose"));
      profile.provenance["producer"] = "noisescope-cli diagnose";
    } else {
      std::string described;
      Dataset evaluation = evaluationSet(a, std::move(data), described);
      // A run directory stands for its newest exported denoiser (x0 convention).
      const bool isRun = std::filesystem::is_directory(a.checkpoint);
      const std::string runDirectory = isRun ? a.checkpoint : std::string();
      CheckpointOptions c;
      c.path = isRun ? pipeline::newestExportedDenoiser(a.checkpoint) : a.checkpoint;
      if (isRun && a.prediction != "x0")
        throw InputError("--prediction", "a run directory's exported denoiser predicts x0");
      c.prediction = prediction;
      c.grid = a.options;
      c.batchSize = a.batch;
      c.evaluationSet = described;
      profile = computeCheckpointProfile(evaluation, c, stderrProgress("diagnose"));
      profile.provenance["producer"] = "noisescope-cli diagnose --checkpoint";
      if (!runDirectory.empty()) {
        profile.provenance["run_directory"] = runDirectory;
        std::printf("checkpoint: %s (newest export of run %s)\n", c.path.c_str(),
                    runDirectory.c_str());
      }
    }
    writeProfile(a.out, profile);
    if (!a.csv.empty()) writeProfileCsv(a.csv, profile);
    printSummary(profile);
    std::printf("profile written to %s%s%s\n", a.out.c_str(), a.csv.empty() ? "" : " and ",
                a.csv.c_str());
    return 0;
  };
}

const CommandRegistration registration("diagnose", setup);

}  // namespace
}  // namespace noisescope::cli
