#include "schedule/design.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "util/error.h"

namespace noisescope::schedule {

const char* toString(DesignCriterion criterion) {
  return criterion == DesignCriterion::A ? "A" : "D";
}

void DesignProblem::validate() const {
  if (information.empty()) throw InputError("design", "no candidate levels");
  const Eigen::Index p = information[0].rows();
  if (p < 1) throw InputError("design", "information matrices are empty");
  for (const auto& h : information) {
    if (h.rows() != p || h.cols() != p)
      throw InputError("design", "information matrices must all be square and the same size");
    if (!h.allFinite()) throw InputError("design", "an information matrix has non-finite entries");
  }
  if (!weights.empty()) {
    if (weights.size() != information.size())
      throw InputError("design", "need one weight per candidate level");
    for (double w : weights)
      if (!(w > 0.0) || !std::isfinite(w))
        throw InputError("design", "weights must be finite and > 0");
  }
  if (criterion == DesignCriterion::A &&
      (target.rows() != p || target.cols() != p || !target.allFinite()))
    throw InputError("design", "the target matrix A must be p×p and finite");
  if (!(ridge >= 0.0) || !std::isfinite(ridge)) throw InputError("design", "ridge must be ≥ 0");
}

namespace {

struct Evaluation {
  bool positiveDefinite = false;
  double criterion = 0.0;
  Eigen::MatrixXd kernel;  // B with sensitivity_g = w_g·⟨B, H_g⟩: M⁻¹AM⁻¹ (A) or M⁻¹ (D)
};

class Solver {
 public:
  explicit Solver(const DesignProblem& problem) : problem_(problem) {
    p_ = problem.parameters();
    levels_ = problem.levels();
    weight_.assign(levels_, 1.0);
    if (!problem.weights.empty()) weight_ = problem.weights;
  }

  Eigen::MatrixXd information(const std::vector<double>& pi) const {
    Eigen::MatrixXd m = problem_.ridge * Eigen::MatrixXd::Identity(p_, p_);
    for (int g = 0; g < levels_; ++g)
      if (pi[g] > 0.0) m.noalias() += (pi[g] * weight_[g]) * problem_.information[g];
    return m;
  }

  Evaluation evaluate(const Eigen::MatrixXd& m) const {
    Evaluation e;
    Eigen::LLT<Eigen::MatrixXd> llt(m);
    if (llt.info() != Eigen::Success) return e;
    const Eigen::MatrixXd inverse = llt.solve(Eigen::MatrixXd::Identity(p_, p_));
    if (!inverse.allFinite()) return e;
    if (problem_.criterion == DesignCriterion::A) {
      e.kernel = inverse * problem_.target * inverse;
      e.criterion = (problem_.target.cwiseProduct(inverse)).sum();
    } else {
      e.kernel = inverse;
      e.criterion = -2.0 * Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum();
    }
    e.kernel = 0.5 * (e.kernel + e.kernel.transpose());
    e.positiveDefinite = std::isfinite(e.criterion);
    return e;
  }

  std::vector<double> sensitivities(const Evaluation& e) const {
    std::vector<double> d(levels_);
    for (int g = 0; g < levels_; ++g)
      d[g] = weight_[g] * e.kernel.cwiseProduct(problem_.information[g]).sum();
    return d;
  }

  // Exact minimisation of the criterion on γ ∈ [0, γmax] along M + γΔ (convex in γ, φ'(0) < 0).
  // With M = LLᵀ and L⁻¹ΔL⁻ᵀ = QΛQᵀ, (M + γΔ)⁻¹ = L⁻ᵀQ(I + γΛ)⁻¹QᵀL⁻¹, so after one O(p³) setup
  //   A: φ(γ) = Σ a_i/(1 + γλ_i), a_i = (QᵀL⁻¹AL⁻ᵀQ)_ii;   D: φ(γ) = const − Σ log(1 + γλ_i)
  // and every Newton step costs O(p).
  double lineSearch(const Eigen::MatrixXd& m, const Eigen::MatrixXd& delta, double gammaMax) const {
    Eigen::LLT<Eigen::MatrixXd> llt(m);
    if (llt.info() != Eigen::Success) return 0.0;
    const auto lower = llt.matrixL();
    auto congruence = [&](const Eigen::MatrixXd& x) {  // L⁻¹XL⁻ᵀ
      const Eigen::MatrixXd half = lower.solve(x);
      const Eigen::MatrixXd full = lower.solve(half.transpose());
      return Eigen::MatrixXd(0.5 * (full + full.transpose()));
    };
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(congruence(delta));
    const Eigen::VectorXd lambda = eigen.eigenvalues();
    Eigen::VectorXd a = Eigen::VectorXd::Ones(p_);
    if (problem_.criterion == DesignCriterion::A) {
      const Eigen::MatrixXd& q = eigen.eigenvectors();
      a = (q.cwiseProduct(congruence(problem_.target) * q)).colwise().sum().transpose();
    }
    const bool aCriterion = problem_.criterion == DesignCriterion::A;
    // φ' and φ''; false where M + γΔ is not positive definite.
    auto derivatives = [&](double gamma, double& first, double& second) {
      first = second = 0.0;
      for (int i = 0; i < p_; ++i) {
        const double d = 1.0 + gamma * lambda[i];
        if (!(d > 0.0)) return false;
        if (aCriterion) {
          first -= a[i] * lambda[i] / (d * d);
          second += 2.0 * a[i] * lambda[i] * lambda[i] / (d * d * d);
        } else {
          first -= lambda[i] / d;
          second += lambda[i] * lambda[i] / (d * d);
        }
      }
      return true;
    };
    double first = 0.0, second = 0.0;
    if (derivatives(gammaMax, first, second) && first <= 0.0) return gammaMax;
    double lo = 0.0, hi = gammaMax, gamma = 0.5 * gammaMax;
    for (int iteration = 0; iteration < 200 && hi - lo > 1e-15 * gammaMax; ++iteration) {
      if (!derivatives(gamma, first, second)) {
        hi = gamma;
        gamma = 0.5 * (lo + hi);
        continue;
      }
      if (first < 0.0)
        lo = gamma;
      else
        hi = gamma;
      const double newton = second > 0.0 ? gamma - first / second : -1.0;
      if (std::abs(newton - gamma) <= 1e-14 * gammaMax) break;
      gamma = newton > lo && newton < hi ? newton : 0.5 * (lo + hi);
    }
    return gamma;
  }

  DesignResult summarize(const std::vector<double>& pi, int iterations, bool converged) const {
    DesignResult r;
    r.weights = pi;
    r.iterations = iterations;
    r.converged = converged;
    const Evaluation e = evaluate(information(pi));
    if (!e.positiveDefinite)
      throw InputError("design",
                       "the information matrix M(π) is singular; add a ridge or more levels");
    r.criterion = e.criterion;
    r.sensitivity = sensitivities(e);
    r.sensitivityMax = *std::max_element(r.sensitivity.begin(), r.sensitivity.end());
    for (int g = 0; g < levels_; ++g) {
      r.sensitivityMean += pi[g] * r.sensitivity[g];
      if (pi[g] > 0.0) r.support.push_back(g);
    }
    r.gap = std::max(0.0, r.sensitivityMax - r.sensitivityMean);
    r.relativeGap = r.gap / std::max(std::abs(r.sensitivityMean), 1e-300);
    return r;
  }

  DesignResult solve(const DesignOptions& options) {
    std::vector<double> pi(levels_, 1.0 / levels_);
    if (!options.start.empty()) {
      if (static_cast<int>(options.start.size()) != levels_)
        throw InputError("design", "the starting design needs one weight per level");
      double total = 0.0;
      for (double v : options.start) {
        if (!(v >= 0.0) || !std::isfinite(v))
          throw InputError("design", "starting weights must be ≥ 0");
        total += v;
      }
      if (!(total > 0.0)) throw InputError("design", "starting weights sum to zero");
      for (int g = 0; g < levels_; ++g) pi[g] = options.start[g] / total;
    }
    Eigen::MatrixXd m = information(pi);
    if (!evaluate(m).positiveDefinite)
      throw InputError("design",
                       "the starting design's information matrix is singular; add a ridge");

    // Multiplicative warm start: π_g ← π_g·d_g^λ / Σ π d^λ (λ = 1 for D, ½ for A; both monotone).
    const double power = problem_.criterion == DesignCriterion::D ? 1.0 : 0.5;
    for (int it = 0; it < options.multiplicativeWarmStart; ++it) {
      const std::vector<double> d = sensitivities(evaluate(m));
      double total = 0.0;
      for (int g = 0; g < levels_; ++g) total += pi[g] *= std::pow(std::max(d[g], 0.0), power);
      for (double& v : pi) v /= total;
      m = information(pi);
    }

    int iteration = 0;
    bool converged = false;
    for (; iteration < options.maxIterations; ++iteration) {
      if (iteration % 50 == 0) {
        options.progress.throwIfCancelled();
        m = information(pi);  // refresh against drift of the incremental updates
      }
      const Evaluation e = evaluate(m);
      if (!e.positiveDefinite) throw InputError("design", "M(π) became singular; add a ridge");
      const std::vector<double> d = sensitivities(e);
      double mean = 0.0;
      int toward = 0, away = -1;
      for (int g = 0; g < levels_; ++g) {
        mean += pi[g] * d[g];
        if (d[g] > d[toward]) toward = g;
        if (pi[g] > 0.0 && (away < 0 || d[g] < d[away])) away = g;
      }
      const double fwGap = d[toward] - mean;
      if (fwGap <= options.gapTolerance * std::abs(mean)) {
        converged = true;
        break;
      }
      if (iteration % 20 == 0)
        options.progress.report(std::min(1.0, iteration / double(options.maxIterations)),
                                "design gap " + std::to_string(fwGap / std::abs(mean)));
      const double awayGap = mean - d[away];
      const Eigen::MatrixXd withoutRidge = m - problem_.ridge * Eigen::MatrixXd::Identity(p_, p_);
      Eigen::MatrixXd delta;
      double gammaMax;
      const bool frankWolfe = fwGap >= awayGap || pi[away] >= 1.0;
      if (frankWolfe) {
        delta = weight_[toward] * problem_.information[toward] - withoutRidge;
        gammaMax = 1.0;
      } else {
        delta = withoutRidge - weight_[away] * problem_.information[away];
        gammaMax = pi[away] / (1.0 - pi[away]);
      }
      const double gamma = lineSearch(m, delta, gammaMax);
      if (frankWolfe) {
        for (double& v : pi) v *= 1.0 - gamma;
        pi[toward] += gamma;
      } else {
        for (double& v : pi) v *= 1.0 + gamma;
        pi[away] -= gamma;
        if (gamma >= gammaMax) pi[away] = 0.0;  // a drop step removes the atom exactly
      }
      m += gamma * delta;
    }

    // Prune light atoms and renormalise.
    double total = 0.0;
    for (double& v : pi) {
      if (v < options.pruneWeight) v = 0.0;
      total += v;
    }
    for (double& v : pi) v /= total;
    return summarize(pi, iteration, converged);
  }

 private:
  const DesignProblem& problem_;
  int p_ = 0, levels_ = 0;
  std::vector<double> weight_;
};

}  // namespace

DesignResult solveDesign(const DesignProblem& problem, const DesignOptions& options) {
  problem.validate();
  Solver solver(problem);
  return solver.solve(options);
}

DesignResult evaluateDesign(const DesignProblem& problem, const std::vector<double>& weights) {
  problem.validate();
  if (static_cast<int>(weights.size()) != problem.levels())
    throw InputError("design", "need one weight per level");
  Solver solver(problem);
  return solver.summarize(weights, 0, false);
}

std::vector<std::pair<double, double>> mergeAdjacentAtoms(const std::vector<double>& positions,
                                                          const std::vector<double>& weights,
                                                          double maxSpacing) {
  std::vector<std::pair<double, double>> atoms;
  double sum = 0.0, moment = 0.0;
  auto close = [&] {
    if (sum > 0.0) atoms.emplace_back(moment / sum, sum);
    sum = moment = 0.0;
  };
  for (std::size_t g = 0; g < weights.size(); ++g) {
    if (!(weights[g] > 0.0)) {
      close();
      continue;
    }
    if (sum > 0.0 && std::abs(positions[g] - positions[g - 1]) > maxSpacing) close();
    sum += weights[g];
    moment += weights[g] * positions[g];
  }
  close();
  return atoms;
}

}  // namespace noisescope::schedule
