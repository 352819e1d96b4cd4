#include "util/seeded_split.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

#include "util/error.h"
#include "util/random_source.h"

namespace noisescope {

std::vector<int64_t> seededPermutation(int64_t n, uint64_t seed) {
  std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(n, 0)));
  std::iota(order.begin(), order.end(), int64_t{0});
  RandomSource random(seed);
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(order[i], order[static_cast<int64_t>(random.below(static_cast<uint64_t>(i) + 1))]);
  return order;
}

int64_t heldOutCount(int64_t n, double share, const char* what) {
  if (!(share > 0.0 && share <= 1.0)) {
    char text[96];
    std::snprintf(text, sizeof text, "the share must lie in (0, 1] (got %g)", share);
    throw InputError(what, text);
  }
  if (share < 1.0 && n < 2)
    throw InputError(what, "a split needs at least two samples (got " + std::to_string(n) + ")");
  const int64_t count = std::llround(share * static_cast<double>(n));
  return std::clamp<int64_t>(count, 1, share < 1.0 ? n - 1 : n);
}

RowSplit seededSplit(int64_t n, int64_t count, uint64_t seed) {
  if (count < 0 || count > n)
    throw InputError(
        "split", "cannot hold out " + std::to_string(count) + " of " + std::to_string(n) + " rows");
  const std::vector<int64_t> order = seededPermutation(n, seed);
  RowSplit split{{order.begin(), order.begin() + count}, {order.begin() + count, order.end()}};
  std::sort(split.held.begin(), split.held.end());
  std::sort(split.kept.begin(), split.kept.end());
  return split;
}

}  // namespace noisescope
