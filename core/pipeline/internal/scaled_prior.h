#pragma once
// The prior of an empirical or held-out diagnostic as the job needs it, one decision for both
// faces: in memory or streamed from disk (data/streaming/prior_rows.h), and, under torchrun's
// variables, sharded across ranks with a c10d communicator (tensor/communicator.h). See
// docs/scaling.md.
#include <cstdint>
#include <memory>
#include <string>

#include "data/dataset.h"
#include "data/load.h"
#include "data/streaming/prior_rows.h"
#include "diagnostic/empirical_diagnostic.h"
#include "pipeline/diagnose/diagnose_job.h"
#include "tensor/communicator.h"

namespace noisescope::pipeline {

struct ScaledPrior {
  std::unique_ptr<Dataset> loaded;   // the set, when it is held in memory (stable address)
  std::unique_ptr<PriorRows> whole;  // the whole prior (resident or streamed)
  std::unique_ptr<PriorRows> shard;  // this rank's rows (null: one process)
  std::unique_ptr<Communicator> communicator;
  int64_t firstRow = 0;
  bool shardInMemory = false;  // a streamed set's shard, read once because it fits the budget

  PriorAccess access() const;
  bool streamed() const { return whole && !whole->resident(); }
  int rank() const { return communicator ? communicator->rank() : 0; }
  // "memory-mapped .npy; rank 1 of 2 owns rows 500..999" — for the console and logs.
  std::string describe() const;
};

// Opens the prior at `path`. `memoryBytes` is the diagnostic's memory budget (Auto compares the
// prior's float32 size with it). With env.worldSize > 1 this joins the group (waiting at most
// `timeoutSeconds`) and cuts this rank's shard. Throws InputError / DistributedError.
ScaledPrior openScaledPrior(const std::string& path, const LoadOptions& options,
                            Streaming streaming, int64_t memoryBytes,
                            const DistributedEnvironment& env, int timeoutSeconds);

// Kinds empirical and held-out on an opened prior (runDiagnosisOfFile's scaled path).
DiagnoseResult runScaledDiagnosis(ScaledPrior& prior, const std::string& datasetPath,
                                  const DiagnoseRequest& request, const Progress& progress = {});

}  // namespace noisescope::pipeline
