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
#include "dataset_options.h"
#include "io/profile_io.h"
#include "pipeline/defaults.h"
#include "pipeline/diagnose/diagnose_job.h"
#include "pipeline/diagnose/held_out_queries.h"
#include "progress_bar.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

struct DiagnoseArgs {
  DatasetArgs dataset;
  DiagnosticOptions options;
  int64_t memoryMiB = DiagnosticOptions{}.memoryBytes >> 20;
  std::string precision = toString(DiagnosticOptions{}.distancePrecision);
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

// The held-out query set of --kind held-out / bracket (pipeline/diagnose/held_out_queries):
// --queries-from, else the test split beside the file (unless --holdout was given), else a seeded
// --holdout share.
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

// The bracket's curves side by side (runDiagnosis gives them empirical first, the bound last).
void printBracket(const std::vector<Profile>& curves) {
  const Profile& empirical = curves.front();
  const Profile& bound = curves.back();
  std::printf("\nMMSE(σ) of the bracket (THEORY §10):\n");
  for (const Profile& p : curves)
    std::printf("  %-16s %s\n", p.kind.c_str(), profileKindMeaning(p.kind).c_str());
  std::printf("\n%-10s", "sigma");
  for (const Profile& p : curves) std::printf(" %-15s", p.kind.c_str());
  std::printf(" %-13s %-16s\n", "bound upper95", "bound from");
  const nlohmann::json& source = bound.provenance["source"];
  for (int l = 0; l < empirical.levels(); ++l) {
    std::printf("%-10.4g", empirical.sigma[l]);
    for (const Profile& p : curves) std::printf(" %-15.4g", p.primary().mean[l]);
    std::printf(" %-13.4g %-16s\n", bound.primary().upper95[l],
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

// The Diagnostic action's request (pipeline/diagnose/diagnose_job.h), as the Diagnostic tab fills
// it.
pipeline::DiagnoseRequest diagnoseRequest(const DiagnoseArgs& a, Prediction prediction) {
  pipeline::DiagnoseRequest request;
  request.kind = a.checkpoint.empty() ? a.kind : "checkpoint";
  request.options = a.options;
  request.heldOut = heldOutRequest(a);
  request.spectrumRank = a.rank;
  request.bootstrap = a.bootstrap;
  request.patchSizes = a.patchSizes;
  request.checkpoint = a.checkpoint;
  request.prediction = prediction;
  request.batchSize = a.batch;
  request.evalData = a.evalData;
  request.evalLoad = toLoadOptions(a.dataset);
  request.evalLoad.progress = stderrProgress("loading");
  request.producer =
      "noisescope-cli diagnose" +
      (a.checkpoint.empty() ? (a.kind == "empirical" ? std::string() : " --kind " + a.kind)
                            : std::string(" --checkpoint"));
  return request;
}

// A profile's warnings (provenance "warnings": e.g. float32 past its proven bound), on stderr.
void printWarnings(const Profile& profile) {
  const auto found = profile.provenance.find("warnings");
  if (found == profile.provenance.end() || !found->is_array()) return;
  for (const auto& w : *found)
    if (w.is_string())
      std::fprintf(stderr, "warning: %s profile: %s\n", profile.kind.c_str(),
                   w.get<std::string>().c_str());
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
  app.add_option(
         "--precision", args->precision,
         "Distance assembly: float64 (exact at small σ), auto (float32 where its proven logit "
         "error stays under the engine's limit at every σ used, else float64) or float32 "
         "(its bound is recorded, not enforced)")
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
    if (!a.checkpoint.empty() && a.kind != "empirical")
      throw InputError("--kind",
                       "does not apply to --checkpoint (a checkpoint profile is its own "
                       "kind)");
    pipeline::DiagnoseRequest request = diagnoseRequest(a, prediction);
    request.streaming = pipeline::streamingFromString(a.stream);
    request.shardTimeoutSeconds = a.timeout;
    LoadOptions load = toLoadOptions(a.dataset);
    load.progress = stderrProgress("loading");
    const pipeline::FileDiagnosis run =
        pipeline::runDiagnosisOfFile(a.dataset.path, load, request, stderrProgress("diagnose"));
    if (!run.lead) return 0;  // rank 0 writes the files
    if (!run.prior.empty()) std::fprintf(stderr, "prior: %s\n", run.prior.c_str());
    const pipeline::DiagnoseResult& result = run.result;
    if (request.kind == "bracket") {
      for (const Profile& p : result.profiles) {
        printWarnings(p);
        writeProfile(withKind(a.out, p.kind), p);
        if (!a.csv.empty()) writeProfileCsv(withKind(a.csv, p.kind), p);
      }
      printBracket(result.profiles);
      std::printf("held-out queries: %s\n", result.querySet.c_str());
      for (const Profile& p : result.profiles)
        std::printf("profile written to %s%s%s\n", withKind(a.out, p.kind).c_str(),
                    a.csv.empty() ? "" : " and ",
                    a.csv.empty() ? "" : withKind(a.csv, p.kind).c_str());
      return 0;
    }
    const Profile& profile = result.profiles.front();
    printWarnings(profile);
    if (!result.querySet.empty()) std::printf("held-out queries: %s\n", result.querySet.c_str());
    if (std::filesystem::is_directory(a.checkpoint))
      std::printf("checkpoint: %s (newest export of run %s)\n", result.model.c_str(),
                  a.checkpoint.c_str());
    writeProfile(a.out, profile);
    if (!a.csv.empty()) writeProfileCsv(a.csv, profile);
    printSummary(profile);
    std::printf("profile written to %s%s%s\n", a.out.c_str(), a.csv.empty() ? "" : " and ",
                a.csv.c_str());
    return 0;
  };
}

const CommandRegistration diagnoseCommand("diagnose", setup);

}  // namespace
}  // namespace noisescope::cli
