#pragma once
// The one seeded split of rows 0..n−1, for every held-out share, test split and subset in the
// engine. It draws from RandomSource (util/random_source.h), never from the standard library's
// shuffle or distributions, so a seed picks the same rows on every platform and standard library.
#include <cstdint>
#include <vector>

namespace noisescope {

// A seeded Fisher–Yates permutation of 0..n−1 (n ≥ 0).
std::vector<int64_t> seededPermutation(int64_t n, uint64_t seed);

// How many of n rows a share in (0, 1] holds out: round(share·n), at least 1; at most n − 1 when
// share < 1, so that both parts keep a row. Throws InputError(what, …) when share is outside (0, 1]
// or when share < 1 and n < 2.
int64_t heldOutCount(int64_t n, double share, const char* what);

// Rows 0..n−1 split into `held` (the first `count` of seededPermutation(n, seed)) and `kept` (the
// rest), each in ascending order. 0 ≤ count ≤ n.
struct RowSplit {
  std::vector<int64_t> held, kept;
};
RowSplit seededSplit(int64_t n, int64_t count, uint64_t seed);

}  // namespace noisescope
