#include "data/statistics.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "data/random_source.h"
#include "util/error.h"

namespace noisescope {

using namespace data_detail;

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Rows of the dataset processed per step; also the granularity of progress and cancellation.
constexpr int64_t kRowsPerChunk = 4096;
// Most query values copied at once for the nearest-neighbour search (8 M floats = 32 MB).
constexpr int64_t kQueryFloats = int64_t{8} << 20;

// Distinct query rows chosen with a seeded partial Fisher–Yates shuffle.
std::vector<int64_t> chooseQueries(int64_t n, int64_t count, uint64_t seed) {
  std::vector<int64_t> rows(static_cast<size_t>(n));
  std::iota(rows.begin(), rows.end(), 0);
  RandomSource random(seed);
  for (int64_t i = 0; i < count; ++i)
    std::swap(rows[i], rows[i + static_cast<int64_t>(random.below(static_cast<uint64_t>(n - i)))]);
  rows.resize(static_cast<size_t>(count));
  return rows;
}

double exactDistance(const float* a, const float* b, int64_t d) {
  double sum = 0.0;
  for (int64_t k = 0; k < d; ++k) {
    const double diff = static_cast<double>(a[k]) - b[k];
    sum += diff * diff;
  }
  return std::sqrt(sum);
}

// For each query, the distance to its nearest other point over the whole set. The search runs
// on fp32 GEMM-based squared distances ‖q‖² + ‖x‖² − 2q·x chunk by chunk over N; the winner's
// distance is then recomputed exactly in double, because the expansion cancels badly for close
// points.
std::vector<double> nearestNeighbourDistances(const Dataset& dataset,
                                              const std::vector<int64_t>& queries,
                                              const Progress& progress) {
  const int64_t n = dataset.size(), d = dataset.dim(), m = static_cast<int64_t>(queries.size());
  // Queries go in blocks whose copy stays under kQueryFloats, so memory is bounded for any D.
  const int64_t block = std::clamp<int64_t>(kQueryFloats / d, 1, m);
  const int64_t blocks = (m + block - 1) / block;
  std::vector<double> distances(static_cast<size_t>(m));
  RowMatrix q, products;
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t first = b * block, count = std::min(block, m - first);
    q.resize(count, d);
    for (int64_t i = 0; i < count; ++i)
      q.row(i) = Eigen::Map<const Eigen::RowVectorXf>(dataset.sample(queries[first + i]), d);
    const Eigen::VectorXf queryNorms = q.rowwise().squaredNorm();
    std::vector<float> best(static_cast<size_t>(count), std::numeric_limits<float>::infinity());
    std::vector<int64_t> bestIndex(static_cast<size_t>(count), -1);
    for (int64_t start = 0; start < n; start += kRowsPerChunk) {
      progress.throwIfCancelled();
      const int64_t rows = std::min(kRowsPerChunk, n - start);
      const Eigen::Map<const RowMatrix> chunk(dataset.sample(start), rows, d);
      const Eigen::VectorXf chunkNorms = chunk.rowwise().squaredNorm();
      products.noalias() = q * chunk.transpose();
      for (int64_t i = 0; i < count; ++i) {
        const int64_t self = queries[first + i];
        for (int64_t j = 0; j < rows; ++j) {
          if (start + j == self) continue;  // the query itself is not its own neighbour
          const float distance = queryNorms[i] + chunkNorms[j] - 2.0f * products(i, j);
          if (distance < best[i]) {
            best[i] = distance;
            bestIndex[i] = start + j;
          }
        }
      }
      progress.report(static_cast<double>(b * n + start + rows) / static_cast<double>(blocks * n),
                      "nearest neighbours");
    }
    for (int64_t i = 0; i < count; ++i)
      distances[first + i] =
          exactDistance(dataset.sample(queries[first + i]), dataset.sample(bestIndex[i]), d);
  }
  return distances;
}

double median(std::vector<double> values) {
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  if (values.size() % 2 == 1) return values[mid];
  const double upper = values[mid];
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return 0.5 * (lower + upper);
}

}  // namespace

DatasetStatistics computeStatistics(const Dataset& dataset, int64_t nnQueries, uint64_t seed,
                                    const Progress& progress) {
  DatasetStatistics stats;
  const int64_t n = dataset.size(), d = dataset.dim();
  stats.count = n;
  stats.dimension = d;
  if (n == 0 || d == 0) return stats;

  const bool withNeighbours = nnQueries > 0 && n >= 2;
  const Progress moments = progress.sub(0.0, withNeighbours ? 0.2 : 1.0);

  // Moments in double, chunk by chunk: per-coordinate sums give σ_data, totals give mean/stddev.
  std::vector<double> coordinateSum(static_cast<size_t>(d), 0.0);
  std::vector<double> coordinateSquares(static_cast<size_t>(d), 0.0);
  double lo = INFINITY, hi = -INFINITY;
  for (int64_t start = 0; start < n; start += kRowsPerChunk) {
    moments.throwIfCancelled();
    const int64_t end = std::min(n, start + kRowsPerChunk);
    for (int64_t i = start; i < end; ++i) {
      const float* x = dataset.sample(i);
      for (int64_t k = 0; k < d; ++k) {
        const double v = x[k];
        coordinateSum[k] += v;
        coordinateSquares[k] += v * v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
    moments.report(static_cast<double>(end) / static_cast<double>(n), "moments");
  }
  const double count = static_cast<double>(n) * static_cast<double>(d);
  double total = 0.0, totalSquares = 0.0, withinCoordinate = 0.0;
  for (int64_t k = 0; k < d; ++k) {
    total += coordinateSum[k];
    totalSquares += coordinateSquares[k];
    const double mean = coordinateSum[k] / static_cast<double>(n);
    withinCoordinate += std::max(0.0, coordinateSquares[k] - static_cast<double>(n) * mean * mean);
  }
  stats.minValue = lo;
  stats.maxValue = hi;
  stats.mean = total / count;
  stats.stddev = std::sqrt(std::max(0.0, totalSquares / count - stats.mean * stats.mean));
  stats.sigmaData = std::sqrt(withinCoordinate / count);

  if (withNeighbours) {
    const int64_t m = std::min<int64_t>(nnQueries, n);
    const std::vector<int64_t> queries = chooseQueries(n, m, seed);
    stats.nearestNeighbourMedian =
        median(nearestNeighbourDistances(dataset, queries, progress.sub(0.2, 1.0)));
    stats.nearestNeighbourQueries = m;
  }
  progress.report(1.0, "statistics done");
  return stats;
}

double measureSigmaData(const Dataset& dataset) {
  const int64_t n = dataset.size(), d = dataset.dim();
  if (n < 2 || d < 1)
    throw InputError(dataset.source, "needs at least two samples to measure σ_data");
  std::vector<double> mean(static_cast<size_t>(d), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const float* row = dataset.sample(i);
    for (int64_t j = 0; j < d; ++j) mean[static_cast<size_t>(j)] += row[j];
  }
  for (double& m : mean) m /= static_cast<double>(n);
  double squares = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const float* row = dataset.sample(i);
    for (int64_t j = 0; j < d; ++j) {
      const double deviation = row[j] - mean[static_cast<size_t>(j)];
      squares += deviation * deviation;
    }
  }
  return std::sqrt(squares / (static_cast<double>(n) * static_cast<double>(d)));
}

}  // namespace noisescope
