#pragma once
// The Diagnostic action as one call for every face: a profile of the dataset (empirical,
// held-out, gaussian), the bracket, or a checkpoint's profile (a TorchScript file or a training
// run's newest export), with its evaluation set chosen by one rule and its provenance stamped
// here. The Diagnostic tab and `noisescope-cli diagnose` fill the same request; for the same
// request they write the same files, apart from the producer, the time stamp and the timings.
// A dataset file's prior may also be streamed from disk or sharded across ranks
// (runDiagnosisOfFile).
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/load.h"
#include "diagnostic/bracket.h"
#include "diagnostic/checkpoint_diagnostic.h"
#include "diagnostic/empirical_diagnostic.h"
#include "diagnostic/posterior_probe.h"
#include "pipeline/defaults.h"
#include "pipeline/diagnose/held_out_queries.h"
#include "profile/profile.h"
#include "util/progress.h"

namespace noisescope::pipeline {

// How the prior of a diagnosis read from a file is held (docs/scaling.md).
enum class Streaming {
  Auto,    // stream when the file can be streamed and its rows as float32 exceed the memory budget;
           // sharded, a rank then still holds its own shard in memory when that fits the budget
  Always,  // stream (InputError for a format that cannot be)
  Never,   // load the whole set
};
Streaming streamingFromString(const std::string& text);  // "auto", "on", "off"; InputError

struct DiagnoseRequest {
  // empirical, held-out, gaussian, bracket; or checkpoint (then `checkpoint` names the model).
  std::string kind = "empirical";
  DiagnosticOptions options;  // grid, queries, seed, device, memory, precision
  // held-out, bracket: where the held-out queries come from (its seed is options.seed).
  HeldOutRequest heldOut;
  // gaussian, bracket: the covariance spectrum's fit (its seed is options.seed).
  int64_t spectrumRank = GaussianSpectrumOptions{}.rank;
  int bootstrap = GaussianSpectrumOptions{}.bootstrap;
  // bracket: the patch member's widths; empty = the defaults, {0} = no patch member.
  std::vector<int> patchSizes;
  // checkpoint: a TorchScript file, or a run directory (its newest export, scored on the data
  // the run held out).
  std::string checkpoint;
  Prediction prediction = Prediction::X0;
  int64_t batchSize = CheckpointOptions{}.batchSize;
  // checkpoint on a file: the data it is scored on. `evalData` when given (read on the dataset's
  // scale with `evalLoad`), else the dataset if it is a test split, else a seeded share of it
  // (heldOut.share, the one held-out share of every kind).
  std::string evalData;
  LoadOptions evalLoad;
  std::string producer;  // every profile's provenance "producer"
  // runDiagnosisOfFile, kinds empirical and held-out: how the prior is held, and how long a
  // sharded run (torchrun's RANK, WORLD_SIZE, MASTER_ADDR/PORT) waits for the other ranks, at the
  // start and at every merge.
  Streaming streaming = Streaming::Auto;
  int shardTimeoutSeconds = 300;
};

struct DiagnoseResult {
  // One profile; for the bracket its curves in bracketCurves order (empirical first, the bound
  // last).
  std::vector<Profile> profiles;
  std::string querySet;  // held-out, bracket: the held-out queries, as in the provenance
  std::string model;     // checkpoint: the file scored (a run's newest export)
};

// Throws InputError naming the setting or the file at fault, Cancelled when `progress` asks.
// The dataset is copied only where a held-out share is split off it; the overload taking it by
// rvalue moves it instead.
DiagnoseResult runDiagnosis(const Dataset& dataset, const std::string& datasetPath,
                            const DiagnoseRequest& request, const Progress& progress = {},
                            const LevelObserver& onLevel = {});
DiagnoseResult runDiagnosis(Dataset&& dataset, const std::string& datasetPath,
                            const DiagnoseRequest& request, const Progress& progress = {},
                            const LevelObserver& onLevel = {});

// The Diagnostic action on a dataset file, read with `load`. Kinds empirical and held-out may
// stream the prior from disk or, under torchrun's variables, shard it across ranks: the same
// profile as in memory, computed tile by tile and merged with c10d, every rank ending with the
// same profile or the same kind of error. A held-out request on such a prior needs its queries in
// a file (request.heldOut.queriesFrom, or the test split beside the dataset). Only the lead rank
// reports progress.
struct FileDiagnosis {
  DiagnoseResult result;
  bool lead = true;   // rank 0, or the only process: the one that writes files
  std::string prior;  // streamed or sharded: how the prior was read; empty when held in memory
};
FileDiagnosis runDiagnosisOfFile(const std::string& datasetPath, const LoadOptions& load,
                                 const DiagnoseRequest& request, const Progress& progress = {});

// One sample's posterior across `sigmas` (diagnostic/posterior_probe.h), with the engine's probe
// settings: what the Dataset tab's posterior strip shows.
PosteriorProbe probeSample(const Dataset& dataset, int64_t sampleIndex,
                           const std::vector<double>& sigmas, const Progress& progress = {});

}  // namespace noisescope::pipeline
