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

// How many rows of `prior` have an exact copy elsewhere in it: the prior's own repeat rate, the
// chance that an independent draw of the same data lands on a row already drawn (for ±1 or other
// discrete data it is far from 0). Rows are compared by two 64-bit FNV-1a hashes from different
// starting values, not byte for byte, so the prior is read once and never held; a false match
// is negligible next to the rate it estimates.
int64_t countRepeatedRows(PriorRows& prior, const Progress& progress = {});

}  // namespace noisescope
