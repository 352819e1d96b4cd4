#include "pipeline/held_out_queries.h"

#include <cstdio>
#include <utility>

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
                                    const Dataset& dataset) {
  HeldOutQueries out;
  out.queries = loadDataset(file, request.load);
  if (out.queries.sampleShape != dataset.sampleShape)
    throw InputError(file, "samples of shape " + out.queries.shapeString() +
                               " do not match the dataset's " + dataset.shapeString());
  const bool explicitFile = file == request.queriesFrom;
  out.description =
      (explicitFile ? "--queries-from " : "the test split beside the dataset: ") + file;
  return out;
}

HeldOutQueries chooseHeldOutQueries(Dataset dataset, const std::string& datasetPath,
                                    const HeldOutRequest& request) {
  const std::string file = heldOutQueryFile(request, datasetPath, dataset.split);
  if (!file.empty()) {
    HeldOutQueries out = loadHeldOutQueryFile(file, request, dataset);
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
