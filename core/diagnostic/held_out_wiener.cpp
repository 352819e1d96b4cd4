#include "diagnostic/held_out_wiener.h"

#include <algorithm>

#include "diagnostic/covariance_basis.h"
#include "util/error.h"

namespace noisescope {

HeldOutColumns leadingColumns(const std::vector<int64_t>& order, int64_t limit) {
  const int64_t n = std::min<int64_t>(limit, static_cast<int64_t>(order.size()));
  HeldOutColumns out;
  for (int64_t p = 0; p < n; ++p) {
    out.rows.push_back(order[static_cast<size_t>(p)]);
    out.position.push_back(p);
  }
  return out;
}

PointRisks heldOutWienerRisks(const Dataset& prior, const Dataset& heldOut,
                              const HeldOutColumns& points, const std::vector<double>& sigma,
                              const GaussianSpectrumOptions& spectrum, const Progress& progress) {
  const int64_t d = prior.dim();
  if (heldOut.dim() != d)
    throw InputError(heldOut.source, "held-out samples have D = " + std::to_string(heldOut.dim()) +
                                         ", the prior has D = " + std::to_string(d));
  const CovarianceBasis basis = covarianceBasis(prior, spectrum, true, progress.sub(0.0, 0.8));
  const int64_t k = static_cast<int64_t>(basis.values.size());
  const int64_t h = static_cast<int64_t>(points.rows.size());
  const int levels = static_cast<int>(sigma.size());

  // Centred held-out points, their coordinates in the basis and what the basis leaves out.
  Eigen::MatrixXd centred(h, d);
  for (int64_t c = 0; c < h; ++c) {
    const float* x = heldOut.sample(points.rows[static_cast<size_t>(c)]);
    for (int64_t j = 0; j < d; ++j) centred(c, j) = static_cast<double>(x[j]) - basis.mean[j];
  }
  progress.throwIfCancelled();
  const Eigen::MatrixXd coordinates = centred * basis.vectors;  // h × k
  const Eigen::MatrixXd squares = coordinates.array().square().matrix();
  Eigen::VectorXd outside = centred.rowwise().squaredNorm() - squares.rowwise().sum();
  outside = outside.cwiseMax(0.0);  // 0 up to rounding when the basis is complete

  // Per level: (σ²/(λ+σ²))² weighs each coordinate's squared bias, σ² Σ (λ/(λ+σ²))² is the noise.
  Eigen::MatrixXd shrink(k, levels);
  std::vector<double> noise(static_cast<size_t>(levels), 0.0);
  for (int l = 0; l < levels; ++l) {
    const double s2 = sigma[l] * sigma[l];
    for (int64_t i = 0; i < k; ++i) {
      const double keep = basis.values[i] / (basis.values[i] + s2);
      shrink(i, l) = (1.0 - keep) * (1.0 - keep);
      noise[l] += s2 * keep * keep;
    }
  }
  const Eigen::MatrixXd bias = squares * shrink;  // h × levels
  PointRisks out;
  out.member = "wiener";
  out.levels = levels;
  out.position = points.position;
  out.values.resize(static_cast<size_t>(levels * h));
  for (int l = 0; l < levels; ++l)
    for (int64_t c = 0; c < h; ++c) out.values[l * h + c] = bias(c, l) + outside[c] + noise[l];
  progress.report(1.0, "held-out Wiener");
  return out;
}

}  // namespace noisescope
