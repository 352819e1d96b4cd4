#include "diagnostic/empirical_posterior.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "data/streaming/prior_rows.h"
#include "diagnostic/dense_tile.h"
#include "diagnostic/distance_terms.h"
#include "diagnostic/onset_bound.h"
#include "tensor/communicator.h"
#include "tensor/device.h"
#include "util/error.h"

namespace noisescope {

namespace {

// Squared distance standing in for "this is the query's own point": the self term is added
// analytically (logit 0, weight e^0), so its tile entry must weigh exactly nothing. A large finite
// value (not inf) keeps 0·A and 0·logit free of NaN.
constexpr double kSelfDistance = 1e30;

// Running max of a held-out query before its first tile: no point seen yet. Finite (not −inf) so
// that the merge's 0·shift stays 0; e^(kNoLogit − max) underflows to exactly 0.
constexpr double kNoLogit = -1e300;

// Gathering the surviving (query, point) pairs beats the dense GEMM when they are under this share
// of a tile, or (on small tiles) when each row keeps only a handful; the gathered path is also
// the exact one (fp64, two passes), which matters for posteriors spread over a few close points.
constexpr double kSparseFraction = 0.005;
constexpr int64_t kSparsePerRow = 16;

// Rows of a tile whose norms auto's pre-check reads (a lower bound of the tile's largest norm).
constexpr int64_t kNormProbeRows = 64;

// Running posterior of each query at one level, relative to the running largest logit `max`:
// W = Σ e^{z−max}, T = Σ e^{z−max}(z − max), E2 = Σ e^{2(z−max)}, M2 = Σ e^{z−max}‖x − mean‖².
// The query's own point starts it: z = 0, so max = 0, W = 1, mean = x_j.
struct LevelState {
  at::Tensor max, w, t, e2, m2;  // [slots, rows]
  at::Tensor mean;               // [slots, rows, D]
};

// One tile's contribution for the active rows, relative to the new running max.
struct TileMoments {
  at::Tensor newMax, w, t, e2, m2, mean;
};

// Flat buffers reused by every level (fresh allocations of this size cost page faults each time);
// `view` hands out a contiguous [k, cols] window of one.
struct Workspace {
  at::Tensor z, e, tmp;  // fp64
  at::Tensor e32;        // the dense step's weights
  at::Tensor mask;
  static at::Tensor view(const at::Tensor& buffer, int64_t k, int64_t cols) {
    return buffer.narrow(0, 0, k * cols).view({k, cols});
  }
};

// Accumulates wall time per phase of the engine, for the benchmark report.
class PhaseClock {
 public:
  class Scope {
   public:
    Scope(PhaseClock& clock, int phase)
        : clock_(clock), phase_(phase), start_(std::chrono::steady_clock::now()) {}
    ~Scope() {
      clock_.add(phase_,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
    }

   private:
    PhaseClock& clock_;
    int phase_;
    std::chrono::steady_clock::time_point start_;
  };
  enum Phase {
    ReadTiles,
    Distances,
    Onset,
    Logits,
    Sparse,
    DenseWeights,
    DenseGemm,
    Merge,
    Communicate,
    Finish,
    Nearest,
    Count
  };
  void add(int phase, double seconds) { seconds_[phase] += seconds; }
  std::vector<std::pair<std::string, double>> report() const {
    static const char* names[] = {"read_tiles",    "distance_terms", "activation", "logits",
                                  "sparse_gather", "dense_weights",  "dense_gemm", "merge",
                                  "communicate",   "finish",         "nearest"};
    std::vector<std::pair<std::string, double>> out;
    for (int p = 0; p < Count; ++p) out.emplace_back(names[p], seconds_[p]);
    return out;
  }

 private:
  double seconds_[Count] = {};
};

class Engine {
 public:
  // querySource null: the queries start from points of the prior itself (their own weight is
  // analytic); otherwise from rows of querySource, which are not in the prior.
  Engine(PriorRows& prior, const Dataset* querySource, const QuerySet& queries,
         const std::vector<double>& sigmas, const PosteriorEngineSettings& settings,
         const Progress& progress)
      : settings_(settings),
        progress_(progress),
        sigmas_(sigmas),
        heldOut_(querySource),
        prior_(prior),
        comm_(settings.communicator),
        firstRow_(settings.firstRow),
        bytesAtStart_(comm_ ? comm_->bytesCommunicated() : 0) {
    n_ = prior.size();
    d_ = prior.dim();
    m_ = queries.count();
    levels_ = static_cast<int>(sigmas.size());
    device_ = resolveDevice(settings.device);
    tau_ = settings.pruneLogRatio;
    largestSigma_ = *std::max_element(sigmas.begin(), sigmas.end());
    // A streamed prior's tile buffer counts inside the budget: peak memory is the budget.
    plan_ = planChunks(settings.planRows > 0 ? settings.planRows : n_, d_, m_, levels_,
                       settings.memoryBytes, prior.resident() ? 0 : d_ * int64_t{4});
    f64_ = at::TensorOptions().dtype(at::kDouble).device(device_);

    // A prior in memory is not copied on the CPU (on a GPU it is moved there once); a streamed
    // one is read one tile at a time into a buffer reused for every tile.
    if (const float* all = prior.resident()) {
      at::Tensor host =
          at::from_blob(const_cast<float*>(all), {n_, d_}, at::TensorOptions().dtype(at::kFloat));
      x_ = device_.is_cpu() ? host : host.to(device_);
    } else {
      tileHost_ = at::empty({std::min(plan_.dataChunk, n_), d_}, at::kFloat);
    }
    index_ = at::from_blob(const_cast<int64_t*>(queries.index.data()), {m_},
                           at::TensorOptions().dtype(at::kLong))
                 .to(device_);
    noise_ = at::from_blob(const_cast<double*>(queries.noise.data()), {m_, d_},
                           at::TensorOptions().dtype(at::kDouble))
                 .to(device_);
    if (heldOut_) {
      at::Tensor source =
          at::from_blob(const_cast<float*>(querySource->values.data()), {querySource->size(), d_},
                        at::TensorOptions().dtype(at::kFloat));
      queryX_ = device_.is_cpu() ? source : source.to(device_);
    } else if (x_.defined() && !comm_) {
      queryX_ = x_;
    } else {
      queryPoints_ = gatherQueryPoints(queries.index).to(device_);
    }

    out_.levels = levels_;
    out_.queries = m_;
    out_.dim = d_;
    out_.plan = plan_;
    out_.device = describeDevice(device_);
    out_.prunedWeightBound = static_cast<double>(heldOut_ ? n_ : n_ - 1) * std::exp(-tau_);
    out_.denseKernel = device_.is_cpu() ? denseKernelName() : "aten";
    const auto cpu64 = at::TensorOptions().dtype(at::kDouble);
    variance_ = at::zeros({levels_, m_}, cpu64);
    error_ = at::zeros({levels_, m_}, cpu64);
    maxWeight_ = at::zeros({levels_, m_}, cpu64);
    entropy_ = at::zeros({levels_, m_}, cpu64);
    ess_ = at::zeros({levels_, m_}, cpu64);
    if (settings.keepPosteriorMeans) means_ = at::zeros({levels_, m_, d_}, at::kFloat);
    if (!heldOut_) {
      nearest_ = at::full({m_, kOnsetNeighbours}, std::numeric_limits<double>::infinity(), cpu64);
      duplicates_ = at::zeros({m_}, cpu64);
    }
    levelRows_.assign(static_cast<size_t>(levels_), 0);
  }

  PerQueryPosterior run() {
    const int64_t queryChunks = (m_ + plan_.queryChunk - 1) / plan_.queryChunk;
    const int64_t dataChunks = (n_ + plan_.dataChunk - 1) / plan_.dataChunk;
    totalSteps_ = queryChunks * dataChunks * levels_;
    for (int64_t q0 = 0; q0 < m_; q0 += plan_.queryChunk) {
      runQueryChunk(q0, std::min(plan_.queryChunk, m_ - q0));
    }
    if (comm_) sumCountersOverRanks();
    if (!heldOut_) onsetBoundTerms();
    // Float32 terms may hide up to 2δ of a dropped weight's logit (its own error and the max's).
    out_.prunedWeightBound =
        std::min(out_.prunedWeightBound * std::exp(2.0 * out_.distanceLogitErrorBound), 1.0);
    progress_.report(1.0, "done");
    out_.phaseSeconds = clock_.report();
    if (comm_) out_.communicatedBytes = comm_->bytesCommunicated() - bytesAtStart_;
    copyOut(variance_, out_.posteriorVariance);
    copyOut(error_, out_.squaredError);
    copyOut(maxWeight_, out_.maxWeight);
    copyOut(entropy_, out_.weightEntropy);
    copyOut(ess_, out_.effectiveSampleSize);
    if (means_.defined()) {
      out_.posteriorMean.assign(means_.data_ptr<float>(),
                                means_.data_ptr<float>() + means_.numel());
    }
    return std::move(out_);
  }

 private:
  static void copyOut(const at::Tensor& t, std::vector<double>& v) {
    v.assign(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
  }

  // The queries' own points x_j, one row per query, for a prior not (wholly) in memory here:
  // read in index order (forward, which streams cheapest); in a sharded run each rank fills the
  // rows its shard holds and a sum over ranks completes them (the others add exact zeros).
  at::Tensor gatherQueryPoints(const std::vector<int64_t>& index) {
    at::Tensor points = at::zeros({m_, d_}, at::kFloat);
    std::vector<int64_t> order(static_cast<size_t>(m_));
    for (int64_t q = 0; q < m_; ++q) order[static_cast<size_t>(q)] = q;
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return index[static_cast<size_t>(a)] < index[static_cast<size_t>(b)];
    });
    float* out = points.data_ptr<float>();
    for (int64_t q : order) {
      const int64_t local = index[static_cast<size_t>(q)] - firstRow_;
      if (local < 0 || local >= n_) continue;
      prior_.read(local, 1, out + q * d_);
    }
    if (comm_) {
      PhaseClock::Scope timing(clock_, PhaseClock::Communicate);
      comm_->allReduceSum(points);
    }
    return points;
  }

  // The rows of the query chunk's own points, as doubles.
  at::Tensor queryRows(const at::Tensor& queryIndex, int64_t q0, int64_t rows) const {
    if (queryPoints_.defined()) return queryPoints_.narrow(0, q0, rows).to(at::kDouble);
    return queryX_.index_select(0, queryIndex).to(at::kDouble);
  }

  // Rows [c0, c0 + cols) of the prior on the engine's device.
  at::Tensor tile(int64_t c0, int64_t cols) {
    if (x_.defined()) return x_.narrow(0, c0, cols);
    PhaseClock::Scope timing(clock_, PhaseClock::ReadTiles);
    at::Tensor host = tileHost_.narrow(0, 0, cols);
    prior_.read(c0, cols, host.data_ptr<float>());
    return device_.is_cpu() ? host : host.to(device_);
  }

  void runQueryChunk(int64_t q0, int64_t rows) {
    at::Tensor queryIndex = index_.narrow(0, q0, rows);
    xj_ = queryRows(queryIndex, q0, rows);
    epsj_ = noise_.narrow(0, q0, rows);
    // 1 where the query's own point lies in this process's prior (always, unless sharded).
    at::Tensor local = queryIndex - firstRow_;
    owned_ = local.ge(0).logical_and(local.lt(n_)).to(at::kDouble);
    const int slots = plan_.stateLevels;
    state_.max = at::empty({slots, rows}, f64_);
    state_.w = at::empty({slots, rows}, f64_);
    state_.t = at::empty({slots, rows}, f64_);
    state_.e2 = at::empty({slots, rows}, f64_);
    state_.m2 = at::empty({slots, rows}, f64_);
    state_.mean = at::empty({slots, rows, d_}, f64_);
    for (int slot = 0; slot < slots; ++slot) resetSlot(slot);

    const int64_t cols0 = std::min(plan_.dataChunk, n_);
    ws_.z = at::empty({rows * cols0}, f64_);
    ws_.e = at::empty({rows * cols0}, f64_);
    ws_.tmp = at::empty({rows * cols0}, f64_);
    ws_.e32 = at::empty({rows * cols0}, f64_.dtype(at::kFloat));
    ws_.mask = at::empty({rows * cols0}, f64_.dtype(at::kBool));

    const std::vector<int64_t> hostIndex = toHost(queryIndex);
    for (int64_t c0 = 0; c0 < n_; c0 += plan_.dataChunk) {
      const int64_t cols = std::min(plan_.dataChunk, n_ - c0);
      const bool first = c0 == 0;
      const bool last = c0 + cols >= n_;
      at::Tensor xc = tile(c0, cols);
      const TileTerms terms = tileTerms(rows, c0, cols, xc, hostIndex);
      at::Tensor a = terms.d.terms.narrow(0, 0, rows);
      at::Tensor b = terms.d.terms.narrow(0, rows, rows);
      const std::vector<double>& onset = terms.onset;
      keepNearest(a, terms.d.aError, q0, rows);
      denseFromHere_ = false;
      for (int l = 0; l < levels_; ++l) {
        progress_.throwIfCancelled();
        const int slot = plan_.stateLevels == 1 ? 0 : l;
        if (first && plan_.stateLevels == 1) resetSlot(slot);
        processLevel(slot, sigmas_[static_cast<size_t>(l)], a, b, xc, onset);
        if (last) {
          PhaseClock::Scope timing(clock_, PhaseClock::Finish);
          finish(slot, l, q0, rows);
        }
        ++doneSteps_;
        progress_.report(static_cast<double>(doneSteps_) / static_cast<double>(totalSteps_),
                         "σ level " + std::to_string(l + 1) + "/" + std::to_string(levels_));
      }
    }
  }

  // Each query's kOnsetNeighbours smallest A > 0 over the tiles seen so far; points at the
  // query's own position (A = 0 up to the GEMM's rounding) are duplicates, which carry no
  // posterior variance, and are counted apart.
  void keepNearest(const at::Tensor& a, const at::Tensor& aError, int64_t q0, int64_t rows) {
    if (heldOut_) return;
    PhaseClock::Scope timing(clock_, PhaseClock::Nearest);
    const at::Tensor limit =
        (xj_.pow(2).sum(1).add(1.0).mul(1e-9) + aError).unsqueeze(1);  // [rows, 1]
    const at::Tensor duplicate = a.le(limit);
    duplicates_.narrow(0, q0, rows).add_(duplicate.sum(1).to(at::kDouble).to(at::kCPU));
    const at::Tensor candidates = a.masked_fill(duplicate.logical_or(a.ge(0.5 * kSelfDistance)),
                                                std::numeric_limits<double>::infinity());
    const int64_t k = std::min<int64_t>(kOnsetNeighbours, a.size(1));
    const at::Tensor smallest =
        std::get<0>(at::topk(candidates, k, 1, /*largest=*/false)).to(at::kCPU);
    at::Tensor kept = nearest_.narrow(0, q0, rows);
    kept.copy_(std::get<0>(at::topk(at::cat({kept, smallest}, 1), kOnsetNeighbours, 1, false)));
  }

  // The onset bound's terms per level and query from the kept neighbours; a point not kept lies
  // at least as far as the farthest kept. Sharded: every rank's kept distances are gathered (a
  // sum of slices that only their owner fills) and merged, so every rank finds the terms one
  // process would.
  void onsetBoundTerms() {
    PhaseClock::Scope timing(clock_, PhaseClock::Nearest);
    at::Tensor nearest = nearest_;
    double others = static_cast<double>(n_);  // points of the whole prior besides the own one
    if (comm_) {
      const int world = comm_->worldSize();
      at::Tensor slices = at::zeros({world, m_, kOnsetNeighbours}, at::kDouble);
      slices[comm_->rank()].copy_(nearest_.nan_to_num(0.0, -1.0));  // absent: −1
      comm_->allReduceSum(slices);
      comm_->allReduceSum(duplicates_);
      const at::Tensor all = slices.permute({1, 0, 2}).reshape({m_, world * kOnsetNeighbours});
      const at::Tensor merged =
          all.masked_fill(all.lt(0.0), std::numeric_limits<double>::infinity());
      nearest = std::get<0>(at::topk(merged, kOnsetNeighbours, 1, /*largest=*/false));
      at::Tensor whole = at::full({1}, static_cast<double>(n_), at::kDouble);
      comm_->allReduceSum(whole);
      others = whole.item<double>();
    }
    nearest = nearest.contiguous();
    const std::vector<double> values(nearest.data_ptr<double>(),
                                     nearest.data_ptr<double>() + nearest.numel());
    const at::Tensor finite = nearest.isfinite().sum(1).to(at::kDouble).contiguous();
    std::vector<double> beyond(static_cast<size_t>(m_));
    for (int64_t q = 0; q < m_; ++q)  // every query starts from a point of the prior
      beyond[static_cast<size_t>(q)] = std::max(
          0.0, others - 1.0 - duplicates_.data_ptr<double>()[q] - finite.data_ptr<double>()[q]);
    OnsetTerms terms = onsetTerms(values, kOnsetNeighbours, beyond, sigmas_);
    out_.onsetBound = std::move(terms.bound);
    out_.onsetEvents = std::move(terms.events);
  }

  static std::vector<int64_t> toHost(const at::Tensor& t) {
    at::Tensor c = t.to(at::kCPU).contiguous();
    return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
  }

  // The tile's distance terms, A = ‖x_j − x_i‖² over B = ε_j·(x_j − x_i) (see
  // diagnostic/distance_terms.h), with their error bounds, and each row's activation σ. The
  // query's own point gets A = kSelfDistance, B = 0 (its weight is added analytically).
  //
  // Auto: float32 GEMMs unless the norms alone show that most rows would fail, then float64 for
  // the rows whose logit error bound, at the first σ of the grid they are used at (their
  // activation σ, certified from the bounded terms), exceeds kFloat32LogitTolerance. The bound
  // only falls as σ grows, so a row that passes is within it at every level.
  struct TileTerms {
    DistanceTerms d;
    std::vector<double> onset;
  };
  TileTerms tileTerms(int64_t rows, int64_t c0, int64_t cols, const at::Tensor& xc,
                      const std::vector<int64_t>& hostIndex) {
    const auto cancel = [this] { progress_.throwIfCancelled(); };
    std::optional<PhaseClock::Scope> timing(std::in_place, clock_, PhaseClock::Distances);
    const DistancePrecision precision = settings_.distancePrecision;
    bool float32 = precision == DistancePrecision::Float32;
    if (precision == DistancePrecision::Auto) {
      // Even at the largest σ the bound is over the limit for these rows: float32 cannot pass.
      // The largest norm of a few of the tile's rows is at most the tile's, so a row judged
      // hopeless here is; the choice never affects correctness (float64 is always right, and a
      // float32 row is checked with the tile's own norms after its GEMM), only the time: it costs
      // no pass over the tile.
      const int64_t probe = std::min<int64_t>(cols, kNormProbeRows);
      const at::Tensor largest =
          at::linalg_vector_norm(xc.narrow(0, 0, probe), 2, {1}).max().to(at::kDouble);
      const auto [aError, bError] = float32TermErrors(xj_, epsj_, largest);
      const int64_t hopeless = logitErrorBound(aError, bError, largestSigma_)
                                   .gt(kFloat32LogitTolerance)
                                   .sum()
                                   .item<int64_t>();
      float32 = 2 * hopeless < rows;
    }
    TileTerms out;
    out.d =
        distanceTerms(xj_, epsj_, xc, float32 ? at::kFloat : at::kDouble, plan_.gemmRows, cancel);
    markOwnPoints(out.d.terms, rows, c0, cols, hostIndex);
    timing.reset();
    out.onset = activationSigma(out.d);
    if (float32) {
      std::vector<int64_t> redo;
      const std::vector<double> bound = firstUseBound(out.d, out.onset);
      for (int64_t r = 0; r < rows; ++r) {
        if (precision == DistancePrecision::Auto &&
            !(bound[static_cast<size_t>(r)] <= kFloat32LogitTolerance)) {
          redo.push_back(r);
        } else {
          out_.distanceLogitErrorBound =
              std::max(out_.distanceLogitErrorBound, bound[static_cast<size_t>(r)]);
        }
      }
      out_.float32DistanceRows += rows - static_cast<int64_t>(redo.size());
      out_.float64DistanceRows += static_cast<int64_t>(redo.size());
      if (!redo.empty()) {
        timing.emplace(clock_, PhaseClock::Distances);
        redoInFloat64(out.d, redo, xc, cancel);
        markOwnPoints(out.d.terms, rows, c0, cols, hostIndex);
        timing.reset();
        out.onset = activationSigma(out.d);
      }
    } else {
      out_.float64DistanceRows += rows;
    }
    return out;
  }

  // The rows `redo` of the terms again, from float64 GEMMs; their bounds become 0.
  void redoInFloat64(DistanceTerms& d, const std::vector<int64_t>& redo, const at::Tensor& xc,
                     const std::function<void()>& cancel) {
    const int64_t rows = d.aError.size(0);
    at::Tensor index = at::tensor(redo, at::TensorOptions().dtype(at::kLong)).to(device_);
    const DistanceTerms exact =
        distanceTerms(xj_.index_select(0, index), epsj_.index_select(0, index), xc, at::kDouble,
                      plan_.gemmRows, cancel);
    const int64_t k = index.size(0);
    d.terms.index_copy_(0, index, exact.terms.narrow(0, 0, k));
    d.terms.index_copy_(0, index + rows, exact.terms.narrow(0, k, k));
    d.aError.index_fill_(0, index, 0.0);
    d.bError.index_fill_(0, index, 0.0);
  }

  // Per row: the logit error bound at the smallest σ of the grid at or above the row's
  // activation σ (0 where no level uses the row).
  std::vector<double> firstUseBound(const DistanceTerms& d, const std::vector<double>& onset) {
    const at::Tensor aError = d.aError.to(at::kCPU).contiguous();
    const at::Tensor bError = d.bError.to(at::kCPU).contiguous();
    std::vector<double> bound(onset.size(), 0.0);
    for (size_t r = 0; r < onset.size(); ++r) {
      double first = std::numeric_limits<double>::infinity();
      for (double s : sigmas_) {
        if (s >= onset[r]) first = std::min(first, s);
      }
      if (!std::isfinite(first)) continue;
      bound[r] = aError.data_ptr<double>()[r] / (2.0 * first * first) +
                 bError.data_ptr<double>()[r] / first;
    }
    return bound;
  }

  // The own point's entries: A = kSelfDistance, B = 0.
  void markOwnPoints(at::Tensor& terms, int64_t rows, int64_t c0, int64_t cols,
                     const std::vector<int64_t>& hostIndex) {
    std::vector<int64_t> selfRows, selfCols;
    for (int64_t r = 0; r < rows && !heldOut_; ++r) {
      const int64_t i = hostIndex[static_cast<size_t>(r)] - firstRow_;
      if (i >= c0 && i < c0 + cols) {
        selfRows.push_back(r);
        selfCols.push_back(i - c0);
      }
    }
    if (selfRows.empty()) return;
    const auto longs = at::TensorOptions().dtype(at::kLong);
    at::Tensor r = at::tensor(selfRows, longs).to(device_);
    at::Tensor c = at::tensor(selfCols, longs).to(device_);
    terms.index_put_({r, c}, kSelfDistance);
    terms.index_put_({r + rows, c}, 0.0);
  }

  // For each query row, the smallest σ at which some point of this tile has a logit within τ of
  // the query's own point (logit 0): z_i = −A/(2σ²) − B/σ ≥ −τ ⟺ σ ≥ σ*_i, the positive root
  // written without cancellation. Below it the row's tile weights are all < e^−τ of the self
  // weight, hence of the max: the row skips the level (certified). Float32 terms are first moved
  // down by their error bounds (A − aError ≤ A, B − bError ≤ B): the logits can only rise, so
  // the skip stays certified.
  std::vector<double> activationSigma(const DistanceTerms& d) {
    const int64_t rows = d.aError.size(0);
    if (heldOut_) return std::vector<double>(static_cast<size_t>(rows), 0.0);  // all active
    PhaseClock::Scope timing(clock_, PhaseClock::Onset);
    at::Tensor a = d.terms.narrow(0, 0, rows);
    at::Tensor b = d.terms.narrow(0, rows, rows);
    if (d.aError.gt(0.0).any().item<bool>() || d.bError.gt(0.0).any().item<bool>()) {
      a = (a - d.aError.unsqueeze(1)).clamp_min_(0.0);
      b = b - d.bError.unsqueeze(1);
    }
    const int64_t cols = a.size(1);
    at::Tensor root = Workspace::view(ws_.z, rows, cols);
    at::mul_out(root, b, b);
    root.add_(a, 2.0 * tau_).sqrt_();
    at::Tensor up = Workspace::view(ws_.e, rows, cols);
    at::add_out(up, b, root).div_(2.0 * tau_);  // (B + s)/(2τ), used where B ≥ 0
    at::Tensor down = Workspace::view(ws_.tmp, rows, cols);
    at::sub_out(down, root, b);
    at::div_out(down, a, down);  // A/(s − B), used where B < 0
    at::Tensor negative = b.lt(0.0);
    up.masked_fill_(negative, std::numeric_limits<double>::infinity());
    down.masked_fill_(negative.logical_not_(), std::numeric_limits<double>::infinity());
    at::Tensor onset = at::minimum(up.amin(1), down.amin(1)).to(at::kCPU).contiguous();
    return std::vector<double>(onset.data_ptr<double>(), onset.data_ptr<double>() + onset.numel());
  }

  // Own point (logit 0, weight 1, mean x_j), or for a held-out query nothing seen yet; in a
  // sharded run a query whose own point another rank holds starts with no weight here.
  void resetSlot(int slot) {
    state_.t[slot].zero_();
    state_.m2[slot].zero_();
    if (heldOut_) {
      state_.max[slot].fill_(kNoLogit);
      state_.w[slot].zero_();
      state_.e2[slot].zero_();
      state_.mean[slot].zero_();
      return;
    }
    // The own point's logit 0 is the running max from the start on every rank (it is in the
    // whole prior), so every rank cuts at e^−τ of the same reference as one process would; its
    // weight is counted by the rank that holds it.
    state_.max[slot].zero_();
    state_.w[slot].copy_(owned_);
    state_.e2[slot].copy_(owned_);
    state_.mean[slot].copy_(xj_ * owned_.unsqueeze(1));
  }

  void processLevel(int slot, double sigma, const at::Tensor& a, const at::Tensor& b,
                    const at::Tensor& xc, const std::vector<double>& onset) {
    const int64_t rows = a.size(0);
    const int64_t cols = a.size(1);
    std::vector<int64_t> active;
    for (int64_t r = 0; r < rows; ++r) {
      if (onset[static_cast<size_t>(r)] <= sigma) active.push_back(r);
    }
    if (active.empty()) {
      ++out_.oneHotSkips;
      return;
    }
    const int64_t k = static_cast<int64_t>(active.size());
    const bool all = k == rows;
    at::Tensor rowIndex =
        all ? at::Tensor() : at::tensor(active, at::TensorOptions().dtype(at::kLong)).to(device_);
    auto pick = [&](const at::Tensor& t) { return all ? t : t.index_select(0, rowIndex); };

    at::Tensor oldMax = pick(state_.max[slot]);
    at::Tensor xjActive = pick(xj_);
    TileMoments tile;
    // Once every row of this tile needed the dense path, the higher levels (flatter posteriors)
    // take it without counting survivors: the choice changes speed, not the result. The fused
    // step then finds the max itself, tile by tile.
    if (denseFromHere_ && all) {
      ++out_.denseSteps;
      denseMoments(tile, a, b, active, rowIndex, xc, xjActive, oldMax, sigma);
      PhaseClock::Scope mergeTiming(clock_, PhaseClock::Merge);
      merge(slot, rowIndex, oldMax, tile);
      return;
    }

    // Logits relative to the query's own point: z = −A/(2σ²) − B/σ, to count the survivors.
    std::optional<PhaseClock::Scope> timing(std::in_place, clock_, PhaseClock::Logits);
    at::Tensor z = Workspace::view(ws_.z, k, cols);
    at::Tensor tmp = Workspace::view(ws_.tmp, k, cols);
    if (all) {
      at::mul_out(z, a, -0.5 / (sigma * sigma));
      z.add_(b, -1.0 / sigma);
    } else {
      at::index_select_out(z, a, 0, rowIndex);
      z.mul_(-0.5 / (sigma * sigma));
      at::index_select_out(tmp, b, 0, rowIndex);
      z.add_(tmp, -1.0 / sigma);
    }
    at::Tensor newMax = at::maximum(oldMax, z.amax(1));
    z.sub_(newMax.unsqueeze(1));
    at::Tensor mask = Workspace::view(ws_.mask, k, cols);
    at::ge_out(mask, z, -tau_);
    const int64_t kept = mask.sum().item<int64_t>();
    const bool sparse =
        static_cast<double>(kept) <= kSparseFraction * static_cast<double>(k * cols) ||
        kept <= kSparsePerRow * k;
    if (!sparse && all) denseFromHere_ = true;
    timing.reset();
    if (sparse) {
      ++out_.sparseSteps;
      tile.newMax = newMax;
      PhaseClock::Scope sparseTiming(clock_, PhaseClock::Sparse);
      sparseMoments(tile, z, mask, xc, k);
    } else {
      // The max is known here: the fused step starts from it and never has to rescale.
      ++out_.denseSteps;
      denseMoments(tile, a, b, active, rowIndex, xc, xjActive, newMax, sigma);
    }
    PhaseClock::Scope mergeTiming(clock_, PhaseClock::Merge);
    merge(slot, rowIndex, oldMax, tile);
  }

  // Few weights survive the e^−τ cut: gather exactly those (query, point) pairs, in fp64, and
  // form the tile's mean and spread in two passes (no cancellation at small σ).
  void sparseMoments(TileMoments& tile, const at::Tensor& z, const at::Tensor& mask,
                     const at::Tensor& xc, int64_t k) {
    const int64_t cols = z.size(1);
    at::Tensor pairs = at::nonzero(mask);
    at::Tensor r = pairs.select(1, 0).contiguous();
    at::Tensor c = pairs.select(1, 1).contiguous();
    at::Tensor zz = z.reshape({-1}).index_select(0, r * cols + c);
    at::Tensor e = zz.exp();
    tile.w = at::zeros({k}, f64_).index_add_(0, r, e);
    tile.e2 = at::zeros({k}, f64_).index_add_(0, r, e * e);
    tile.t = at::zeros({k}, f64_).index_add_(0, r, e * zz);
    const int64_t pairCount = r.size(0);
    at::Tensor sum = at::zeros({k, d_}, f64_);
    for (int64_t s0 = 0; s0 < pairCount; s0 += plan_.gatherRows) {
      const int64_t sn = std::min(plan_.gatherRows, pairCount - s0);
      at::Tensor rows = xc.index_select(0, c.narrow(0, s0, sn)).to(at::kDouble);
      rows.mul_(e.narrow(0, s0, sn).unsqueeze(1));
      sum.index_add_(0, r.narrow(0, s0, sn), rows);
    }
    tile.mean = sum.div_(tile.w.clamp_min(std::numeric_limits<double>::min()).unsqueeze(1));
    tile.m2 = at::zeros({k}, f64_);
    for (int64_t s0 = 0; s0 < pairCount; s0 += plan_.gatherRows) {
      const int64_t sn = std::min(plan_.gatherRows, pairCount - s0);
      at::Tensor ri = r.narrow(0, s0, sn);
      at::Tensor dev = xc.index_select(0, c.narrow(0, s0, sn)).to(at::kDouble);
      dev.sub_(tile.mean.index_select(0, ri));
      tile.m2.index_add_(0, ri, (dev * dev).sum(1).mul_(e.narrow(0, s0, sn)));
    }
  }

  // Many weights matter: the fused dense step (diagnostic/dense_tile.h) forms the weights, their
  // moments and W·X (by GEMM, fp32 inputs, the weights being ≤ 1) tile by tile; the spread follows
  // from Σ w A − W‖m − x_j‖², which is well conditioned when the posterior is spread out.
  void denseMoments(TileMoments& tile, const at::Tensor& a, const at::Tensor& b,
                    const std::vector<int64_t>& active, const at::Tensor& rowIndex,
                    const at::Tensor& xc, const at::Tensor& xj, const at::Tensor& startMax,
                    double sigma) {
    DenseLevelInput in;
    in.a = a;
    in.b = b;
    in.active = active;
    in.activeIndex = rowIndex;
    in.xc = xc;
    in.startMax = startMax;
    in.sigma = sigma;
    in.cut = std::exp(-tau_);
    in.segmentCols = plan_.denseTile;
    in.e32 = ws_.e32;
    DenseTiming timing;
    const DenseMoments m = denseLevel(in, timing);
    clock_.add(PhaseClock::DenseWeights, timing.elementwiseSeconds);
    clock_.add(PhaseClock::DenseGemm, timing.gemmSeconds);
    out_.denseGemmFlop += timing.gemmFlop;
    PhaseClock::Scope finishing(clock_, PhaseClock::DenseWeights);
    tile.newMax = m.max;
    tile.w = m.w;
    tile.t = m.t;
    tile.e2 = m.e2;
    // A row may keep no weight at all here: its running max came from an earlier tile and this
    // one lies wholly under the cut. Its W·X is then 0 and so is W; dividing by the smallest
    // normal instead of 0 gives it a zero-weight mean (as on the gathered path), not 0/0 = NaN.
    tile.mean =
        m.sum.to(at::kDouble).div_(m.w.clamp_min(std::numeric_limits<double>::min()).unsqueeze(1));
    at::Tensor dev = tile.mean - xj;
    tile.m2 = (m.wa - m.w * (dev * dev).sum(1)).clamp_min_(0.0);
  }

  // Streaming log-sum-exp: rescale the running sums to the new max, then combine means and
  // spreads (Chan et al.'s pairwise update, stable in both directions).
  void merge(int slot, const at::Tensor& rowIndex, const at::Tensor& oldMax,
             const TileMoments& tile) {
    const bool all = !rowIndex.defined();
    auto pick = [&](const at::Tensor& t) { return all ? t : t.index_select(0, rowIndex); };
    at::Tensor shift = oldMax - tile.newMax;  // ≤ 0
    at::Tensor scale = shift.exp();
    at::Tensor w0 = pick(state_.w[slot]);
    at::Tensor t0 = (pick(state_.t[slot]) + w0 * shift) * scale;
    at::Tensor e20 = pick(state_.e2[slot]) * scale * scale;
    at::Tensor m20 = pick(state_.m2[slot]) * scale;
    w0 = w0 * scale;
    at::Tensor mean0 = pick(state_.mean[slot]);

    at::Tensor w = w0 + tile.w;
    // w is 0 only where neither side holds weight yet (a sharded rank without the own point and
    // a tile under the cut): the share is then 0, not 0/0.
    at::Tensor share = tile.w / w.clamp_min(std::numeric_limits<double>::min());
    at::Tensor delta = tile.mean - mean0;
    at::Tensor mean = mean0 + delta * share.unsqueeze(1);
    at::Tensor m2 = m20 + tile.m2 + w0 * share * (delta * delta).sum(1);
    store(state_.max[slot], rowIndex, tile.newMax);
    store(state_.w[slot], rowIndex, w);
    store(state_.t[slot], rowIndex, t0 + tile.t);
    store(state_.e2[slot], rowIndex, e20 + tile.e2);
    store(state_.m2[slot], rowIndex, m2);
    store(state_.mean[slot], rowIndex, mean);
  }

  // The ranks' partial posteriors of one level of the query chunk become the posterior over the
  // whole prior, on every rank, in three collectives: the largest logit (max), then the weight
  // sums and weighted first moments rescaled to it (sum), then the spread about the merged mean
  // (sum): M2 = Σ_r [M2_r + W_r‖m_r − m‖²].
  void mergeAcrossRanks(int slot) {
    at::Tensor max = state_.max[slot].clone();
    comm_->allReduceMax(max);
    at::Tensor shift = state_.max[slot] - max;  // ≤ 0
    at::Tensor scale = shift.exp();
    at::Tensor w = state_.w[slot] * scale;
    at::Tensor t = (state_.t[slot] + state_.w[slot] * shift) * scale;
    at::Tensor e2 = state_.e2[slot] * scale * scale;
    at::Tensor m2 = state_.m2[slot] * scale;
    at::Tensor mean = state_.mean[slot];
    at::Tensor packed =
        at::cat({w.unsqueeze(1), t.unsqueeze(1), e2.unsqueeze(1), mean * w.unsqueeze(1)}, 1);
    comm_->allReduceSum(packed);
    at::Tensor wAll = packed.select(1, 0);
    at::Tensor meanAll =
        packed.narrow(1, 3, d_) / wAll.clamp_min(std::numeric_limits<double>::min()).unsqueeze(1);
    at::Tensor delta = mean - meanAll;
    at::Tensor spread = m2 + w * (delta * delta).sum(1);
    comm_->allReduceSum(spread);
    state_.max[slot].copy_(max);
    state_.w[slot].copy_(wAll);
    state_.t[slot].copy_(packed.select(1, 1));
    state_.e2[slot].copy_(packed.select(1, 2));
    state_.m2[slot].copy_(spread);
    state_.mean[slot].copy_(meanAll);
  }

  void sumCountersOverRanks() {
    at::Tensor counters =
        at::tensor(std::vector<int64_t>{out_.oneHotSkips, out_.sparseSteps, out_.denseSteps, n_,
                                        out_.float32DistanceRows, out_.float64DistanceRows},
                   at::TensorOptions().dtype(at::kLong));
    comm_->allReduceSum(counters);
    out_.oneHotSkips = counters[0].item<int64_t>();
    out_.sparseSteps = counters[1].item<int64_t>();
    out_.denseSteps = counters[2].item<int64_t>();
    const int64_t total = counters[3].item<int64_t>();  // N of the whole prior
    out_.float32DistanceRows = counters[4].item<int64_t>();
    out_.float64DistanceRows = counters[5].item<int64_t>();
    at::Tensor bound = at::tensor(std::vector<double>{out_.distanceLogitErrorBound},
                                  at::TensorOptions().dtype(at::kDouble));
    comm_->allReduceMax(bound);
    out_.distanceLogitErrorBound = bound[0].item<double>();
    out_.prunedWeightBound = static_cast<double>(heldOut_ ? total : total - 1) * std::exp(-tau_);
  }

  static void store(at::Tensor target, const at::Tensor& rowIndex, const at::Tensor& value) {
    if (rowIndex.defined()) {
      target.index_copy_(0, rowIndex, value);
    } else {
      target.copy_(value);
    }
  }

  void finish(int slot, int level, int64_t q0, int64_t rows) {
    if (comm_) {
      PhaseClock::Scope timing(clock_, PhaseClock::Communicate);
      mergeAcrossRanks(slot);
    }
    at::Tensor w = state_.w[slot];
    at::Tensor dev = state_.mean[slot] - xj_;
    variance_[level].narrow(0, q0, rows).copy_((state_.m2[slot] / w).to(at::kCPU));
    error_[level].narrow(0, q0, rows).copy_((dev * dev).sum(1).to(at::kCPU));
    maxWeight_[level].narrow(0, q0, rows).copy_(w.reciprocal().to(at::kCPU));
    entropy_[level].narrow(0, q0, rows).copy_((w.log() - state_.t[slot] / w).to(at::kCPU));
    ess_[level].narrow(0, q0, rows).copy_((w * w / state_.e2[slot]).to(at::kCPU));
    if (means_.defined()) {
      means_[level].narrow(0, q0, rows).copy_(state_.mean[slot].to(at::kFloat).to(at::kCPU));
    }
    levelRows_[static_cast<size_t>(level)] += rows;
    if (settings_.onLevel && levelRows_[static_cast<size_t>(level)] == m_) {
      LevelResult done;
      done.level = level;
      copyOut(variance_[level], done.posteriorVariance);
      copyOut(error_[level], done.squaredError);
      copyOut(maxWeight_[level], done.maxWeight);
      settings_.onLevel(done);
    }
  }

  PosteriorEngineSettings settings_;
  Progress progress_;
  std::vector<double> sigmas_;
  bool heldOut_ = false;
  PriorRows& prior_;
  Communicator* comm_ = nullptr;
  int64_t firstRow_ = 0;
  int64_t bytesAtStart_ = 0;
  at::Tensor tileHost_, queryPoints_, owned_;
  at::Tensor nearest_, duplicates_;  // [queries, kOnsetNeighbours] and [queries], CPU fp64
  int64_t n_ = 0, d_ = 0, m_ = 0;
  int levels_ = 0;
  double tau_ = 40.0;
  double largestSigma_ = 1.0;
  c10::Device device_{c10::kCPU};
  ChunkPlan plan_;
  at::TensorOptions f64_;
  at::Tensor x_, queryX_, index_, noise_;
  at::Tensor xj_, epsj_;
  LevelState state_;
  Workspace ws_;
  at::Tensor variance_, error_, maxWeight_, entropy_, ess_, means_;
  int64_t totalSteps_ = 0, doneSteps_ = 0;
  std::vector<int64_t> levelRows_;  // queries that have finished each level
  bool denseFromHere_ = false;
  PhaseClock clock_;
  PerQueryPosterior out_;
};

}  // namespace

namespace {

PerQueryPosterior evaluate(PriorRows& prior, const Dataset* querySource, const QuerySet& queries,
                           const std::vector<double>& sigmas,
                           const PosteriorEngineSettings& settings, const Progress& progress) {
  const Dataset& about = prior.description();
  const std::string name = about.sourceOrName();
  if (prior.size() < 1 || prior.dim() < 1) throw InputError(name, "the dataset is empty");
  if (queries.dim != prior.dim() ||
      queries.noise.size() != queries.index.size() * static_cast<size_t>(queries.dim))
    throw std::invalid_argument("evaluateEmpiricalPosterior: queries drawn for another dimension");
  if (querySource && querySource->dim() != prior.dim())
    throw InputError(querySource->sourceOrName(),
                     "held-out samples have D = " + std::to_string(querySource->dim()) +
                         ", the prior has D = " + std::to_string(prior.dim()));
  // Query indices are global: into the held-out set, else into the whole (maybe sharded) prior.
  const int64_t range = querySource             ? querySource->size()
                        : settings.communicator ? std::numeric_limits<int64_t>::max()
                                                : prior.size();
  for (int64_t i : queries.index) {
    if (i < 0 || i >= range)
      throw std::invalid_argument("evaluateEmpiricalPosterior: query index out of range");
  }
  if (sigmas.empty()) throw std::invalid_argument("evaluateEmpiricalPosterior: no σ levels");
  for (double s : sigmas) {
    if (!(s > 0.0) || !std::isfinite(s))
      throw InputError("σ grid", "every σ must be a positive finite number");
  }
  Engine engine(prior, querySource, queries, sigmas, settings, progress);
  return engine.run();
}

}  // namespace

PerQueryPosterior evaluateEmpiricalPosterior(PriorRows& prior, const QuerySet& queries,
                                             const std::vector<double>& sigmas,
                                             const PosteriorEngineSettings& settings,
                                             const Progress& progress) {
  return evaluate(prior, nullptr, queries, sigmas, settings, progress);
}

PerQueryPosterior evaluateEmpiricalPosterior(const Dataset& dataset, const QuerySet& queries,
                                             const std::vector<double>& sigmas,
                                             const PosteriorEngineSettings& settings,
                                             const Progress& progress) {
  const std::unique_ptr<PriorRows> prior = residentPrior(dataset);
  return evaluate(*prior, nullptr, queries, sigmas, settings, progress);
}

PerQueryPosterior evaluateHeldOutPosterior(PriorRows& prior, const Dataset& querySource,
                                           const QuerySet& queries,
                                           const std::vector<double>& sigmas,
                                           const PosteriorEngineSettings& settings,
                                           const Progress& progress) {
  return evaluate(prior, &querySource, queries, sigmas, settings, progress);
}

PerQueryPosterior evaluateHeldOutPosterior(const Dataset& dataset, const Dataset& querySource,
                                           const QuerySet& queries,
                                           const std::vector<double>& sigmas,
                                           const PosteriorEngineSettings& settings,
                                           const Progress& progress) {
  const std::unique_ptr<PriorRows> prior = residentPrior(dataset);
  return evaluate(*prior, &querySource, queries, sigmas, settings, progress);
}

}  // namespace noisescope
