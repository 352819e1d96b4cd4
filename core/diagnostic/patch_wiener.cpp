#include "diagnostic/patch_wiener.h"

#include <Eigen/Dense>

#include <algorithm>

#include "util/error.h"

namespace noisescope {

namespace {

using Matrix = Eigen::MatrixXd;

// Where value (channel c, row i, column j) of a sample lies: images are {C, H, W} (channel
// planes), sequences {L, 4} (the four bases of a position side by side, rows i = position).
struct Layout {
  int64_t channels = 1, rows = 1, cols = 1;
  bool channelsLast = false;
  int64_t index(int64_t c, int64_t i, int64_t j) const {
    return channelsLast ? i * channels + c : (c * rows + i) * cols + j;
  }
  int64_t positions() const { return rows * cols; }
};

Layout layoutOf(const Dataset& dataset) {
  Layout l;
  if (dataset.kind == SampleKind::Image && dataset.sampleShape.size() == 3) {
    l.channels = dataset.sampleShape[0];
    l.rows = dataset.sampleShape[1];
    l.cols = dataset.sampleShape[2];
  } else if (dataset.kind == SampleKind::Sequence && dataset.sampleShape.size() == 2) {
    l.rows = dataset.sampleShape[0];
    l.channels = dataset.sampleShape[1];
    l.channelsLast = true;
  } else {
    throw InputError(
        dataset.source,
        "a patch denoiser needs images or sequences; the samples are " + dataset.shapeString());
  }
  return l;
}

// The taps of the widest neighbourhood, (di, dj) offsets in row-major order; 1-D for sequences.
struct Taps {
  std::vector<int> di, dj;
  int radius = 0;
};

Taps tapsFor(const Layout& layout, int radius) {
  Taps t;
  t.radius = radius;
  const int colRadius = layout.cols > 1 ? radius : 0;
  for (int a = -radius; a <= radius; ++a)
    for (int b = -colRadius; b <= colRadius; ++b) {
      t.di.push_back(a);
      t.dj.push_back(b);
    }
  return t;
}

// The centred sample's patches, one row per position, entries (tap, channel), zero outside.
Matrix patches(const float* x, const Eigen::VectorXd& mean, const Layout& layout,
               const Taps& taps) {
  const int64_t m = static_cast<int64_t>(taps.di.size()) * layout.channels;
  Matrix out = Matrix::Zero(layout.positions(), m);
  for (int64_t i = 0; i < layout.rows; ++i)
    for (int64_t j = 0; j < layout.cols; ++j) {
      const int64_t p = i * layout.cols + j;
      for (size_t t = 0; t < taps.di.size(); ++t) {
        const int64_t ii = i + taps.di[t], jj = j + taps.dj[t];
        if (ii < 0 || ii >= layout.rows || jj < 0 || jj >= layout.cols) continue;
        for (int64_t c = 0; c < layout.channels; ++c) {
          const int64_t k = layout.index(c, ii, jj);
          out(p, static_cast<int64_t>(t) * layout.channels + c) = x[k] - mean[k];
        }
      }
    }
  return out;
}

// Patch entries (tap, channel) of the width-k neighbourhood inside the widest one, and of its
// centre.
std::vector<int64_t> entriesWithin(const Taps& widest, int radius, int64_t channels,
                                   bool centreOnly) {
  std::vector<int64_t> out;
  for (size_t t = 0; t < widest.di.size(); ++t) {
    const int a = std::abs(widest.di[t]), b = std::abs(widest.dj[t]);
    const bool keep = centreOnly ? (a == 0 && b == 0) : (a <= radius && b <= radius);
    if (!keep) continue;
    for (int64_t c = 0; c < channels; ++c) out.push_back(static_cast<int64_t>(t) * channels + c);
  }
  return out;
}

// How many positions see each entry inside the sample: the noise term counts only those.
Eigen::VectorXd entryCoverage(const Layout& layout, const Taps& taps) {
  Eigen::VectorXd out(static_cast<int64_t>(taps.di.size()) * layout.channels);
  for (size_t t = 0; t < taps.di.size(); ++t) {
    const int64_t rowsIn = layout.rows - std::abs(taps.di[t]);
    const int64_t colsIn = layout.cols - std::abs(taps.dj[t]);
    const double n =
        static_cast<double>(std::max<int64_t>(0, rowsIn) * std::max<int64_t>(0, colsIn));
    for (int64_t c = 0; c < layout.channels; ++c)
      out[static_cast<int64_t>(t) * layout.channels + c] = n;
  }
  return out;
}

Eigen::VectorXd priorMean(const Dataset& prior) {
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(prior.dim());
  for (int64_t i = 0; i < prior.size(); ++i) {
    const float* x = prior.sample(i);
    for (int64_t k = 0; k < prior.dim(); ++k) sum[k] += x[k];
  }
  return sum / static_cast<double>(prior.size());
}

// The filters W_σ (C × m) of one width at every level, from the pooled second moment S.
std::vector<Matrix> filters(const Matrix& s, const std::vector<int64_t>& centre,
                            const std::vector<double>& sigma) {
  Eigen::SelfAdjointEigenSolver<Matrix> solver(s);
  if (solver.info() != Eigen::Success)
    throw std::runtime_error("patch Wiener: the patch covariance eigendecomposition failed");
  const Eigen::VectorXd lambda = solver.eigenvalues().cwiseMax(0.0);
  const Matrix& u = solver.eigenvectors();
  const Matrix uc = u(centre, Eigen::all);  // rows of U at the centre entries
  std::vector<Matrix> out;
  for (double sg : sigma) {
    const Eigen::VectorXd keep = lambda.array() / (lambda.array() + sg * sg);
    out.push_back(uc * keep.asDiagonal() * u.transpose());  // S_c (S + σ²I)⁻¹ = U_c Λ/(Λ+σ²) Uᵀ
  }
  return out;
}

}  // namespace

bool hasPatchLayout(const Dataset& dataset) {
  return (dataset.kind == SampleKind::Image && dataset.sampleShape.size() == 3) ||
         (dataset.kind == SampleKind::Sequence && dataset.sampleShape.size() == 2);
}

std::vector<int> patchSizesFor(const Dataset& dataset) {
  if (!hasPatchLayout(dataset)) return {};
  const Layout layout = layoutOf(dataset);
  std::vector<int> wanted;
  if (layout.channelsLast)
    wanted = {3, 9, 17, 33};
  else if (layout.channels == 1)
    wanted = {3, 5, 7, 9};
  else
    wanted = {3, 5, 7};
  std::vector<int> out;
  const int64_t extent = std::max(layout.rows, layout.cols);
  for (int k : wanted)
    if (k <= 2 * extent - 1) out.push_back(k);
  return out;
}

std::vector<PointRisks> patchWienerRisks(const Dataset& prior, const Dataset& heldOut,
                                         const HeldOutColumns& points,
                                         const std::vector<double>& sigma,
                                         const PatchWienerOptions& options,
                                         const Progress& progress) {
  if (heldOut.sampleShape != prior.sampleShape)
    throw InputError(heldOut.source, "held-out samples of shape " + heldOut.shapeString() +
                                         " do not match the prior's " + prior.shapeString());
  if (prior.size() < 2) throw InputError(prior.source, "a patch denoiser needs two samples");
  const Layout layout = layoutOf(prior);
  const std::vector<int> sizes = options.sizes.empty() ? patchSizesFor(prior) : options.sizes;
  if (sizes.empty()) throw InputError(prior.source, "no patch width fits the samples");
  for (int k : sizes)
    if (k < 1 || k % 2 == 0)
      throw InputError("patch sizes", "widths must be odd and ≥ 1, got " + std::to_string(k));
  const int widest = *std::max_element(sizes.begin(), sizes.end()) / 2;
  const Taps taps = tapsFor(layout, widest);
  const Eigen::VectorXd mean = priorMean(prior);

  // The pooled second moment of the prior's centred patches, from evenly spaced rows.
  const int64_t fit = std::clamp<int64_t>(options.fitRows, 1, prior.size());
  const int64_t m = static_cast<int64_t>(taps.di.size()) * layout.channels;
  Matrix moment = Matrix::Zero(m, m);
  for (int64_t r = 0; r < fit; ++r) {
    if (r % 16 == 0) progress.throwIfCancelled();
    const Matrix v = patches(prior.sample(r * prior.size() / fit), mean, layout, taps);
    moment.selfadjointView<Eigen::Lower>().rankUpdate(v.transpose());
    progress.report(0.3 * static_cast<double>(r + 1) / fit, "patch covariance");
  }
  moment = moment.selfadjointView<Eigen::Lower>();
  moment /= static_cast<double>(fit * layout.positions());

  struct Width {
    std::vector<int64_t> entries, centre;
    std::vector<Matrix> w;      // per level, C × m_k
    std::vector<double> noise;  // per level, σ² Σ coverage·W²
  };
  const Eigen::VectorXd coverage = entryCoverage(layout, taps);
  std::vector<Width> widths;
  for (int k : sizes) {
    Width w;
    w.entries = entriesWithin(taps, k / 2, layout.channels, false);
    const std::vector<int64_t> centreOfWidest = entriesWithin(taps, 0, layout.channels, true);
    for (int64_t e : centreOfWidest)  // the centre's place among this width's entries
      w.centre.push_back(std::find(w.entries.begin(), w.entries.end(), e) - w.entries.begin());
    w.w = filters(moment(w.entries, w.entries), w.centre, sigma);
    const Eigen::VectorXd cov = coverage(w.entries);
    for (size_t l = 0; l < sigma.size(); ++l)
      w.noise.push_back(sigma[l] * sigma[l] *
                        (w.w[l].array().square().colwise().sum().transpose() * cov.array()).sum());
    widths.push_back(std::move(w));
  }

  // Per held-out point the patch Gram G = VᵀV and cross moment B = Vᵀ·centres; then per level
  // Σ_p ‖c_p − W v_p‖² = ‖centres‖² − 2 tr(W B) + tr(W G Wᵀ).
  const int levels = static_cast<int>(sigma.size());
  const int64_t h = static_cast<int64_t>(points.rows.size());
  std::vector<PointRisks> out(widths.size());
  for (size_t k = 0; k < widths.size(); ++k) {
    out[k].member = "patch-k" + std::to_string(sizes[k]);
    out[k].levels = levels;
    out[k].position = points.position;
    out[k].values.assign(static_cast<size_t>(levels * h), 0.0);
  }
  const std::vector<int64_t> centre = entriesWithin(taps, 0, layout.channels, true);
  for (int64_t c = 0; c < h; ++c) {
    if (c % 16 == 0) progress.throwIfCancelled();
    const Matrix v =
        patches(heldOut.sample(points.rows[static_cast<size_t>(c)]), mean, layout, taps);
    const Matrix centres = v(Eigen::all, centre);
    const Matrix gram = v.transpose() * v;
    const Matrix cross = v.transpose() * centres;
    const double centreSquares = centres.squaredNorm();
    for (size_t k = 0; k < widths.size(); ++k) {
      const Width& w = widths[k];
      const Matrix g = gram(w.entries, w.entries);
      const Matrix b = cross(w.entries, Eigen::all);
      for (int l = 0; l < levels; ++l) {
        const Matrix& f = w.w[l];
        const double bias = centreSquares - 2.0 * (f.array() * b.transpose().array()).sum() +
                            ((f * g).array() * f.array()).sum();
        out[k].values[l * h + c] = std::max(0.0, bias) + w.noise[l];
      }
    }
    progress.report(0.3 + 0.7 * static_cast<double>(c + 1) / h, "patch Wiener");
  }
  return out;
}

}  // namespace noisescope
