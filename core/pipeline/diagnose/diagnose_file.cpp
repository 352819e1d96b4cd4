// runDiagnosisOfFile (diagnose_job.h): which prior a diagnosis of a file gets — in memory,
// streamed, or this rank's shard under torchrun's variables — decided once here for every face.
#include <string>
#include <utility>

#include "data/load.h"
#include "pipeline/diagnose/diagnose_job.h"
#include "pipeline/internal/scaled_prior.h"
#include "tensor/communicator.h"
#include "util/error.h"

namespace noisescope::pipeline {

FileDiagnosis runDiagnosisOfFile(const std::string& datasetPath, const LoadOptions& load,
                                 const DiagnoseRequest& original, const Progress& progress) {
  DiagnoseRequest request = original;
  const DistributedEnvironment env = distributedEnvironmentFromEnv();
  const bool scalable = request.kind == "empirical" || request.kind == "held-out";
  if (env.worldSize > 1 && !scalable)
    throw InputError("WORLD_SIZE", "is " + std::to_string(env.worldSize) +
                                       ": only the empirical and held-out diagnostics run "
                                       "sharded; run the " +
                                       request.kind + " diagnosis as one process");
  FileDiagnosis out;
  if (!scalable) {
    out.result = runDiagnosis(loadDataset(datasetPath, load), datasetPath, request, progress);
    return out;
  }
  out.lead = env.rank == 0;
  LoadOptions priorLoad = load;
  if (!out.lead) {  // one progress bar: rank 0's
    priorLoad.progress = {};
    request.heldOut.load.progress = {};
  }
  if (env.worldSize > 1) request.options.device = deviceForLocalRank(request.options.device, env);
  ScaledPrior prior =
      openScaledPrior(datasetPath, priorLoad, request.streaming, request.options.memoryBytes, env,
                      request.shardTimeoutSeconds);
  if (prior.streamed() || prior.communicator) {
    out.prior = prior.describe();
    out.result = runScaledDiagnosis(prior, datasetPath, request, out.lead ? progress : Progress{});
    return out;
  }
  prior.whole.reset();
  out.result = runDiagnosis(std::move(*prior.loaded), datasetPath, request, progress);
  return out;
}

}  // namespace noisescope::pipeline
