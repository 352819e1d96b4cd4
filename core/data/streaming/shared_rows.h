#pragma once
// Whether a query set holds rows of its prior: a held-out point that is also in the prior is
// not held out, and a "held-out" curve scored on it falls to 0 with the empirical one.
#include <cstdint>

#include "data/dataset.h"
#include "data/streaming/prior_rows.h"
#include "util/progress.h"

namespace noisescope {

// How many rows of `queries` occur, value for value (bitwise), among the rows of `prior`. The
// queries are hashed; the prior is read once, tile by tile, so it may be streamed.
int64_t countSharedRows(const Dataset& queries, PriorRows& prior, const Progress& progress = {});

}  // namespace noisescope
