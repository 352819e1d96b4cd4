#include "data/frechet_distance.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace noisescope {
namespace {

using Matrix = Eigen::MatrixXd;

template <typename T>
GaussianFit fit(const std::vector<T>& rows, int64_t dimension, const std::string& what) {
  if (dimension <= 0 || rows.size() % size_t(dimension) != 0)
    throw InputError(what, std::to_string(rows.size()) +
                               " feature values are not a whole number of vectors of dimension " +
                               std::to_string(dimension));
  const int64_t n = int64_t(rows.size()) / dimension;
  if (n < 2)
    throw InputError(what, "a Gaussian fit needs at least 2 samples, got " + std::to_string(n));
  Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> m(
      rows.data(), n, dimension);
  const Matrix x = m.template cast<double>();
  const Eigen::RowVectorXd mu = x.colwise().mean();
  const Matrix centred = x.rowwise() - mu;  // two passes: mean first, then deviations
  const Matrix cov = (centred.transpose() * centred) / double(n - 1);
  GaussianFit g;
  g.dimension = dimension;
  g.count = n;
  g.mean.assign(mu.data(), mu.data() + dimension);
  g.covariance.resize(size_t(dimension * dimension));
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      g.covariance.data(), dimension, dimension) = cov;
  return g;
}

Matrix covarianceOf(const GaussianFit& g) {
  Matrix c =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          g.covariance.data(), g.dimension, g.dimension);
  return 0.5 * (c + c.transpose());  // exactly symmetric for the eigensolver
}

}  // namespace

GaussianFit fitGaussian(const std::vector<double>& rows, int64_t dimension,
                        const std::string& what) {
  return fit(rows, dimension, what);
}

GaussianFit fitGaussian(const std::vector<float>& rows, int64_t dimension,
                        const std::string& what) {
  return fit(rows, dimension, what);
}

double frechetDistance(const GaussianFit& a, const GaussianFit& b) {
  if (a.dimension != b.dimension || a.dimension <= 0)
    throw InputError("Fréchet distance", "feature dimensions differ (" +
                                             std::to_string(a.dimension) + " vs " +
                                             std::to_string(b.dimension) + ")");
  const int64_t d = a.dimension;
  const Eigen::Map<const Eigen::VectorXd> mu1(a.mean.data(), d), mu2(b.mean.data(), d);
  const Matrix s1 = covarianceOf(a), s2 = covarianceOf(b);
  Eigen::SelfAdjointEigenSolver<Matrix> e1(s1);
  const Eigen::VectorXd root1 = e1.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  const Matrix sqrt1 = e1.eigenvectors() * root1.asDiagonal() * e1.eigenvectors().transpose();
  Matrix inner = sqrt1 * s2 * sqrt1;
  inner = 0.5 * (inner + inner.transpose());
  Eigen::SelfAdjointEigenSolver<Matrix> e2(inner, Eigen::EigenvaluesOnly);
  const double traceSqrt = e2.eigenvalues().cwiseMax(0.0).cwiseSqrt().sum();
  const double fd = (mu1 - mu2).squaredNorm() + s1.trace() + s2.trace() - 2.0 * traceSqrt;
  return std::max(0.0, fd);
}

}  // namespace noisescope
