#pragma once
// Where the held-out queries of a held-out profile or a bracket come from, for both faces: an
// explicit file, else the test split beside the dataset, else a seeded share of the dataset held
// out. One rule and one provenance text, so the CLI's files and the GUI's curves say the same.
#include <cstdint>
#include <string>

#include "data/dataset.h"
#include "data/load.h"
#include "data/streaming/prior_rows.h"
#include "pipeline/defaults.h"

namespace noisescope::pipeline {

struct HeldOutRequest {
  std::string queriesFrom;       // a file of held-out samples (CLI --queries-from); "" = none
  bool lookForTestSplit = true;  // false when the user asked for a share (CLI --holdout)
  double share = defaults::kHeldOutShare;  // of the dataset, held out when no file is used
  uint64_t seed = 0;
  LoadOptions load;  // how the query file is read (HDF5 dataset, FASTA options, progress)
};

// The file the queries come from: `queriesFrom`, else (when asked to look, and the dataset is
// not itself a test split) the test split beside `datasetPath`; "" when there is none.
std::string heldOutQueryFile(const HeldOutRequest& request, const std::string& datasetPath,
                             const std::string& datasetSplit);

// Whether a dataset of `datasetSize` samples gets a bracket under this request: it has a query
// file (whose own size computeBracket checks), or its seeded share holds enough points by the
// split's rounding (diagnostic/bracket.h). The report asks this; `diagnose` then agrees with it.
bool canBracket(const HeldOutRequest& request, const std::string& datasetPath,
                const std::string& datasetSplit, int64_t datasetSize);

struct HeldOutQueries {
  Dataset prior;            // the dataset, or what is left of it after the held-out share
  Dataset queries;          // the held-out samples
  std::string description;  // the profile's provenance "query_set"
};

// Reads the query file onto the prior's scale (data/layout/scale_reference.h). Throws InputError
// naming it if its samples are not shaped like the prior's, if it cannot be on the prior's scale,
// or if any of its rows is also a row of the prior (then it is not held out; the message names both
// files and the count). `prior` (in memory or streamed) is read once for that check; the
// result's `prior` stays empty: the caller keeps its own.
HeldOutQueries loadHeldOutQueryFile(const std::string& file, const HeldOutRequest& request,
                                    PriorRows& prior);

// The whole choice for a dataset in memory: the query file if there is one (checked as above),
// else a seeded `share` held out (throws InputError("held-out share", …) for a share outside (0,
// 1)).
HeldOutQueries chooseHeldOutQueries(Dataset dataset, const std::string& datasetPath,
                                    const HeldOutRequest& request);

}  // namespace noisescope::pipeline
