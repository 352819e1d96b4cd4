#include "data/statistics.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "data/streaming/prior_rows.h"
#include "util/error.h"
#include "util/random_source.h"

namespace noisescope {

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

// Calls visit(values of one sample) for every sample in order, chunk by chunk, checking for
// cancellation and reporting progress after each chunk. A prior that is not in memory is read one
// chunk at a time into a buffer, so memory stays bounded whatever N is.
template <class Visit>
void forEachSample(PriorRows& prior, const Progress& progress, const char* message, Visit visit) {
  const int64_t n = prior.size(), d = prior.dim();
  const float* all = prior.resident();
  std::vector<float> buffer;
  if (!all) buffer.resize(static_cast<size_t>(std::min(n, kRowsPerChunk) * d));
  for (int64_t start = 0; start < n; start += kRowsPerChunk) {
    progress.throwIfCancelled();
    const int64_t end = std::min(n, start + kRowsPerChunk);
    const float* rows = all ? all + start * d : buffer.data();
    if (!all) prior.read(start, end - start, buffer.data());
    for (int64_t i = start; i < end; ++i) visit(rows + (i - start) * d);
    progress.report(static_cast<double>(end) / static_cast<double>(n), message);
  }
}

// Pass 1 of σ_data divided by N: the mean of every coordinate; optionally the value range.
std::vector<double> coordinateMeans(PriorRows& dataset, const Progress& progress,
                                    double* lo = nullptr, double* hi = nullptr) {
  std::vector<double> sum = coordinateSums(dataset, progress, lo, hi);
  for (double& s : sum) s /= static_cast<double>(dataset.size());
  return sum;
}

}  // namespace

std::vector<double> coordinateSums(PriorRows& dataset, const Progress& progress, double* lo,
                                   double* hi) {
  const int64_t d = dataset.dim();
  std::vector<double> sum(static_cast<size_t>(d), 0.0);
  double smallest = INFINITY, largest = -INFINITY;
  forEachSample(dataset, progress, "means", [&](const float* x) {
    for (int64_t k = 0; k < d; ++k) {
      const double v = x[k];
      sum[static_cast<size_t>(k)] += v;
      smallest = std::min(smallest, v);
      largest = std::max(largest, v);
    }
  });
  if (lo) *lo = smallest;
  if (hi) *hi = largest;
  return sum;
}

double squaredDeviations(PriorRows& dataset, const std::vector<double>& means,
                         const Progress& progress) {
  const int64_t d = dataset.dim();
  double squares = 0.0;
  forEachSample(dataset, progress, "deviations", [&](const float* x) {
    for (int64_t k = 0; k < d; ++k) {
      const double deviation = x[k] - means[static_cast<size_t>(k)];
      squares += deviation * deviation;
    }
  });
  return squares;
}

double sigmaDataFromSquares(double squares, int64_t n, int64_t d) {
  return std::sqrt(squares / (static_cast<double>(n) * static_cast<double>(d)));
}

namespace {

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

  // Pass 1: per-coordinate means (and the value range); pass 2: squared deviations from them.
  // σ_data is measureSigmaData's own two passes, so the two always agree.
  double lo = INFINITY, hi = -INFINITY;
  const std::unique_ptr<PriorRows> rows = residentPrior(dataset);
  const std::vector<double> means = coordinateMeans(*rows, moments.sub(0.0, 0.5), &lo, &hi);
  const double within = squaredDeviations(*rows, means, moments.sub(0.5, 1.0));
  const double count = static_cast<double>(n) * static_cast<double>(d);
  // The pooled mean and spread over all values follow from the same two passes without
  // cancellation: Σ(x − m)² = Σ_k Σ_i (x_ik − μ_k)² + N·Σ_k (μ_k − m)².
  double total = 0.0;
  for (double m : means) total += m;
  stats.mean = total / static_cast<double>(d);
  double between = 0.0;
  for (double m : means) between += (m - stats.mean) * (m - stats.mean);
  stats.minValue = lo;
  stats.maxValue = hi;
  stats.stddev = std::sqrt((within + static_cast<double>(n) * between) / count);
  stats.sigmaData = std::sqrt(within / count);

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

double measureSigmaData(PriorRows& prior, const Progress& progress) {
  const int64_t n = prior.size(), d = prior.dim();
  if (n < 2 || d < 1) {
    const Dataset& about = prior.description();
    throw InputError(about.sourceOrName(), "needs at least two samples to measure σ_data (has " +
                                               std::to_string(n) + ")");
  }
  const std::vector<double> means = coordinateMeans(prior, progress.sub(0.0, 0.5));
  const double squares = squaredDeviations(prior, means, progress.sub(0.5, 1.0));
  return sigmaDataFromSquares(squares, n, d);
}

double measureSigmaData(const Dataset& dataset, const Progress& progress) {
  return measureSigmaData(*residentPrior(dataset), progress);
}

}  // namespace noisescope
