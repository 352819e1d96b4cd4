#include "pipeline/held_out_queries.h"

#include <cstdio>
#include <utility>

#include "data/layout/scale_reference.h"
#include "data/streaming/shared_rows.h"
#include "diagnostic/bracket.h"
#include "diagnostic/empirical_diagnostic.h"
#include "util/error.h"

namespace noisescope::pipeline {

std::string heldOutQueryFile(const HeldOutRequest& request, const std::string& datasetPath,
                             const std::string& datasetSplit) {
  if (!request.queriesFrom.empty()) return request.queriesFrom;
  if (!request.lookForTestSplit || datasetSplit == "test") return "";
  return findTestSplit(datasetPath);
}

HeldOutQueries loadHeldOutQueryFile(const std::string& file, const HeldOutRequest& request,
                                    PriorRows& prior) {
  const Dataset& dataset = prior.description();
  HeldOutQueries out;
  out.queries = loadDatasetOnScale(file, scaleReferenceOf(dataset), request.load);
  if (out.queries.sampleShape != dataset.sampleShape)
    throw InputError(file, "samples of shape " + out.queries.shapeString() +
                               " do not match the dataset's " + dataset.shapeString());
  // Exact copies score 0 at every σ and pull the held-out curve down to the empirical one.
  const int64_t shared = countSharedRows(out.queries, prior, request.load.progress);
  if (shared > 0)
    throw InputError(file, "shares " + std::to_string(shared) + " of its " +
                               std::to_string(out.queries.size()) + " rows with the prior " +
                               dataset.source +
                               " (exact copies), so it is not held out; give samples the prior "
                               "does not hold, or hold out a share of the dataset instead");
  const bool explicitFile = file == request.queriesFrom;
  out.description =
      (explicitFile ? "--queries-from " : "the test split beside the dataset: ") + file;
  return out;
}

HeldOutQueries chooseHeldOutQueries(Dataset dataset, const std::string& datasetPath,
                                    const HeldOutRequest& request) {
  const std::string file = heldOutQueryFile(request, datasetPath, dataset.split);
  if (!file.empty()) {
    HeldOutQueries out = loadHeldOutQueryFile(file, request, *residentPrior(dataset));
    out.prior = std::move(dataset);
    return out;
  }
  HeldOutSplit split = splitHeldOut(dataset, request.share, request.seed);
  char share[32];
  std::snprintf(share, sizeof share, "%.3g%%", 100.0 * request.share);
  HeldOutQueries out;
  out.description = std::string("a seeded random ") + share + " of " + dataset.source +
                    " held out (" + std::to_string(split.heldOut.size()) +
                    " samples), the prior is the rest";
  out.prior = std::move(split.prior);
  out.queries = std::move(split.heldOut);
  return out;
}

}  // namespace noisescope::pipeline
