#include "data/streaming/shared_rows.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace noisescope {

namespace {

// FNV-1a over the row's bytes: equal rows hash equal, and bytes are compared on a hit.
uint64_t hashRow(const float* row, int64_t dim) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(row);
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < static_cast<size_t>(dim) * sizeof(float); ++i)
    h = (h ^ bytes[i]) * 1099511628211ULL;
  return h;
}

}  // namespace

int64_t countSharedRows(const Dataset& queries, PriorRows& prior, const Progress& progress) {
  const int64_t dim = queries.dim();
  if (dim != prior.dim() || queries.size() == 0) return 0;
  std::unordered_multimap<uint64_t, int64_t> byHash;
  for (int64_t q = 0; q < queries.size(); ++q) byHash.emplace(hashRow(queries.sample(q), dim), q);
  std::vector<char> shared(static_cast<size_t>(queries.size()), 0);
  const size_t rowBytes = static_cast<size_t>(dim) * sizeof(float);
  const int64_t tile = std::max<int64_t>(1, (int64_t{4} << 20) / static_cast<int64_t>(rowBytes));
  std::vector<float> rows;
  for (int64_t first = 0; first < prior.size(); first += tile) {
    progress.throwIfCancelled();
    const int64_t count = std::min(tile, prior.size() - first);
    const float* block = prior.resident() ? prior.resident() + first * dim : nullptr;
    if (!block) {
      rows.resize(static_cast<size_t>(count * dim));
      prior.read(first, count, rows.data());
      block = rows.data();
    }
    for (int64_t r = 0; r < count; ++r) {
      const float* row = block + r * dim;
      const auto [from, to] = byHash.equal_range(hashRow(row, dim));
      for (auto it = from; it != to; ++it)
        if (std::memcmp(queries.sample(it->second), row, rowBytes) == 0) shared[it->second] = 1;
    }
    progress.report(static_cast<double>(first + count) / static_cast<double>(prior.size()),
                    "looking for queries in the prior");
  }
  return std::count(shared.begin(), shared.end(), 1);
}

}  // namespace noisescope
