#include "pipeline/diagnose/held_out_queries.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "data/layout/scale_reference.h"
#include "data/streaming/shared_rows.h"
#include "diagnostic/bracket.h"
#include "diagnostic/empirical_diagnostic.h"
#include "util/error.h"

namespace noisescope::pipeline {

namespace {

// Below this chance of seeing so many shared rows from independent draws, the file is refused.
constexpr double kIndependentDrawsLevel = 1e-3;

// P(X ≥ k) for X ~ Binomial(n, p).
double binomialUpperTail(int64_t n, double p, int64_t k) {
  if (k <= 0) return 1.0;
  if (p <= 0.0) return 0.0;
  if (p >= 1.0) return 1.0;
  double tail = 0.0;
  for (int64_t j = k; j <= n; ++j)
    tail += std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(j) + 1) -
                     std::lgamma(double(n - j) + 1) + double(j) * std::log(p) +
                     double(n - j) * std::log1p(-p));
  return std::min(1.0, tail);
}

}  // namespace

std::string heldOutQueryFile(const HeldOutRequest& request, const std::string& datasetPath,
                             const std::string& datasetSplit) {
  if (!request.queriesFrom.empty()) return request.queriesFrom;
  if (!request.lookForTestSplit || datasetSplit == "test") return "";
  return findTestSplit(datasetPath);
}

bool canBracket(const HeldOutRequest& request, const std::string& datasetPath,
                const std::string& datasetSplit, int64_t datasetSize) {
  return !heldOutQueryFile(request, datasetPath, datasetSplit).empty() ||
         shareCanBracket(datasetSize, request.share);
}

HeldOutQueries loadHeldOutQueryFile(const std::string& file, const HeldOutRequest& request,
                                    PriorRows& prior) {
  const Dataset& dataset = prior.description();
  HeldOutQueries out;
  out.queries = loadDatasetOnScale(file, scaleReferenceOf(dataset), request.load);
  if (out.queries.sampleShape != dataset.sampleShape)
    throw InputError(file, "samples of shape " + out.queries.shapeString() +
                               " do not match the dataset's " + dataset.shapeString());
  // Exact copies score 0 at every σ and pull the held-out curve down to the empirical one, unless
  // they are what independent draws of discrete data give: as often as the prior repeats itself.
  const int64_t shared = countSharedRows(out.queries, prior, request.load.progress);
  std::string sharedNote;
  if (shared > 0) {
    const int64_t repeated = countRepeatedRows(prior, request.load.progress);
    const double rate = double(repeated) / double(std::max<int64_t>(prior.size(), 1));
    const std::string counted =
        std::to_string(shared) + " of its " + std::to_string(out.queries.size()) + " rows";
    char repeats[160];
    std::snprintf(repeats, sizeof repeats, "the prior repeats %.3g%% of its own %lld rows",
                  100.0 * rate, static_cast<long long>(prior.size()));
    if (binomialUpperTail(out.queries.size(), rate, shared) < kIndependentDrawsLevel)
      throw InputError(file, "shares " + counted + " with the prior " + dataset.source +
                                 " (exact copies), more than independent draws would (" + repeats +
                                 "), so it is not held out; give samples the prior does not "
                                 "hold, or hold out a share of the dataset instead");
    sharedNote =
        "; " + counted + " also occur in the prior, as independent draws would (" + repeats + ")";
  }
  const bool explicitFile = file == request.queriesFrom;
  out.description = (explicitFile ? "--queries-from " : "the test split beside the dataset: ") +
                    file + sharedNote;
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
