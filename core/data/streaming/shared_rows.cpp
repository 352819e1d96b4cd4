#include "data/streaming/shared_rows.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace noisescope {

namespace {

// FNV-1a over the row's bytes: equal rows hash equal, and bytes are compared on a hit.
uint64_t hashRow(const float* row, int64_t dim, uint64_t basis = 1469598103934665603ULL) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(row);
  uint64_t h = basis;
  for (size_t i = 0; i < static_cast<size_t>(dim) * sizeof(float); ++i)
    h = (h ^ bytes[i]) * 1099511628211ULL;
  return h;
}

struct RowKey {
  uint64_t a, b;
  bool operator==(const RowKey& o) const { return a == o.a && b == o.b; }
};
struct RowKeyHash {
  size_t operator()(const RowKey& k) const { return static_cast<size_t>(k.a ^ (k.b << 1)); }
};

// Calls `visit(row)` for every row of `prior`, tile by tile (streamed or resident).
template <typename Visit>
void forEachRow(PriorRows& prior, const Progress& progress, const char* what, Visit visit) {
  const int64_t dim = prior.dim();
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
    for (int64_t r = 0; r < count; ++r) visit(block + r * dim);
    progress.report(static_cast<double>(first + count) / static_cast<double>(prior.size()), what);
  }
}

}  // namespace

int64_t countSharedRows(const Dataset& queries, PriorRows& prior, const Progress& progress) {
  const int64_t dim = queries.dim();
  if (dim != prior.dim() || queries.size() == 0) return 0;
  std::unordered_multimap<uint64_t, int64_t> byHash;
  for (int64_t q = 0; q < queries.size(); ++q) byHash.emplace(hashRow(queries.sample(q), dim), q);
  std::vector<char> shared(static_cast<size_t>(queries.size()), 0);
  const size_t rowBytes = static_cast<size_t>(dim) * sizeof(float);
  forEachRow(prior, progress, "looking for queries in the prior", [&](const float* row) {
    const auto [from, to] = byHash.equal_range(hashRow(row, dim));
    for (auto it = from; it != to; ++it)
      if (std::memcmp(queries.sample(it->second), row, rowBytes) == 0) shared[it->second] = 1;
  });
  return std::count(shared.begin(), shared.end(), 1);
}

int64_t countRepeatedRows(PriorRows& prior, const Progress& progress) {
  const int64_t dim = prior.dim();
  std::unordered_map<RowKey, int64_t, RowKeyHash> copies;
  copies.reserve(static_cast<size_t>(prior.size()));
  forEachRow(prior, progress, "counting the prior's repeated rows", [&](const float* row) {
    ++copies[RowKey{hashRow(row, dim), hashRow(row, dim, 0x84222325cbf29ce4ULL)}];
  });
  int64_t repeated = 0;
  for (const auto& entry : copies)
    if (entry.second > 1) repeated += entry.second;
  return repeated;
}

}  // namespace noisescope
