#include "diagnostic/random_feature_information.h"

#include <cmath>
#include <random>

#include "data/dataset.h"
#include "data/statistics.h"
#include "schedule/preconditioning.h"
#include "util/error.h"
#include "util/math_constants.h"
#include "util/setting_names.h"

namespace noisescope::schedule {

namespace {

void checkLevels(const std::vector<double>& sigma, const std::string& source) {
  if (sigma.empty()) throw InputError(source, "no σ levels");
  for (std::size_t i = 0; i < sigma.size(); ++i) {
    if (!(sigma[i] > 0.0) || !std::isfinite(sigma[i]))
      throw InputError(source, "σ levels must be finite and > 0");
    if (i > 0 && !(sigma[i] > sigma[i - 1]))
      throw InputError(source, "σ levels must be strictly increasing");
  }
}
}  // namespace

InformationMatrices randomFeatureInformation(const Dataset& data, const std::vector<double>& sigma,
                                             const RandomFeatureOptions& options) {
  checkLevels(sigma, "random-feature information");
  if (data.size() < 1 || data.dim() < 1) throw InputError(data.source, "the dataset is empty");
  if (options.features < 1 || options.features > 4096)
    throw InputError(settings::kRandomFeatures, "must be in [1, 4096]");
  if (options.embedding < 1 || options.embedding > 1024)
    throw InputError(settings::kFeatureEmbedding, "must be in [1, 1024]");
  if (options.samples < 2 || options.samples > 1000000)
    throw InputError(settings::kMonteCarloSamples, "must be in [2, 1e6]");
  const int64_t d = data.dim();
  const int f = options.features, e = options.embedding, m = options.samples;
  const double sigmaData = options.sigmaData > 0.0 ? options.sigmaData : measureSigmaData(data);
  if (!(sigmaData > 0.0)) throw InputError(data.source, "σ_data is zero (all samples equal)");
  const EdmPreconditioning preconditioning{sigmaData};

  std::mt19937_64 engine(options.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 2.0 * kPi);
  std::uniform_int_distribution<int64_t> pick(0, data.size() - 1);

  // Random feature parameters (fixed, not trained).
  Eigen::MatrixXd u(d, f);
  for (Eigen::Index i = 0; i < u.size(); ++i) u.data()[i] = normal(engine) / std::sqrt(double(d));
  Eigen::MatrixXd v(e, f);
  for (Eigen::Index i = 0; i < v.size(); ++i) v.data()[i] = normal(engine) / std::sqrt(double(e));
  Eigen::VectorXd omega(e), phase(e), bias(f);
  for (int j = 0; j < e; ++j) {
    omega[j] = 4.0 * normal(engine);
    phase[j] = uniform(engine);
  }
  for (int k = 0; k < f; ++k) bias[k] = 0.5 * normal(engine);

  // Common random numbers: the same (x_j, ε_j) at every level, so U·y = U·x + σ·U·ε costs two
  // products in total.
  Eigen::MatrixXd x(m, d), noise(m, d);
  for (int j = 0; j < m; ++j) {
    const float* row = data.sample(pick(engine));
    for (int64_t c = 0; c < d; ++c) {
      x(j, c) = row[c];
      noise(j, c) = normal(engine);
    }
  }
  const Eigen::MatrixXd xu = x * u, eu = noise * u;

  InformationMatrices out;
  out.sigma = sigma;
  out.model = "random-features";
  for (std::size_t g = 0; g < sigma.size(); ++g) {
    options.progress.throwIfCancelled();
    const double s = sigma[g];
    const double cIn = options.preconditioning ? preconditioning.cIn(s) : 1.0;
    const double cOut = options.preconditioning ? preconditioning.cOut(s) : 1.0;
    Eigen::VectorXd embed(e);
    const double cNoise = preconditioning.cNoise(s);  // ¼·ln σ, with or without c_in, c_out
    for (int j = 0; j < e; ++j) embed[j] = std::cos(omega[j] * cNoise + phase[j]);
    const Eigen::RowVectorXd shift = (v.transpose() * embed + bias).transpose();
    Eigen::MatrixXd phi(m, f + 1);
    phi.leftCols(f) = (cIn * (xu + s * eu)).rowwise() + shift;
    phi.leftCols(f) = phi.leftCols(f).cwiseMax(0.0);
    phi.col(f).setOnes();
    Eigen::MatrixXd h = Eigen::MatrixXd::Zero(f + 1, f + 1);
    h.selfadjointView<Eigen::Lower>().rankUpdate(phi.transpose(), cOut * cOut / m);
    out.information.push_back(h.selfadjointView<Eigen::Lower>());
    options.progress.report(double(g + 1) / sigma.size(),
                            "information at σ = " + std::to_string(s));
  }
  out.parameters = {{"features", f},
                    {"embedding", e},
                    {"samples", m},
                    {"sigma_data", sigmaData},
                    {"preconditioning", options.preconditioning ? 1.0 : 0.0},
                    {"seed", double(options.seed)},
                    {"dimension", double(d)}};
  out.notes = {
      {"dataset", data.sourceOrName()},
      {"features", "relu(u·c_in·y + v·cos(ω·log σ/4 + ψ) + b), u ~ N(0, I/D), + constant"}};
  out.description =
      "shared random-feature denoiser (" + std::to_string(f) +
      " ReLU features, linear readout, EDM preconditioning), H_g by Monte Carlo over " +
      std::to_string(m) + " (x, ε) pairs";
  return out;
}

}  // namespace noisescope::schedule
