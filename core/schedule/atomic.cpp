#include "schedule/atomic.h"

#include <cmath>

#include "schedule/allocation.h"
#include "util/error.h"

namespace noisescope::schedule {

namespace {
// Log-σ edges of bins centred on the candidate levels (half-way between neighbours in log σ).
LogSigmaGrid levelBins(const std::vector<double>& sigma) {
  LogSigmaGrid grid;
  const std::size_t n = sigma.size();
  if (n == 1) {
    grid.edges = {std::log(sigma[0]) - 0.5, std::log(sigma[0]) + 0.5};
    return grid;
  }
  grid.edges.resize(n + 1);
  for (std::size_t i = 1; i < n; ++i)
    grid.edges[i] = 0.5 * (std::log(sigma[i - 1]) + std::log(sigma[i]));
  grid.edges[0] = 2.0 * std::log(sigma[0]) - grid.edges[1];
  grid.edges[n] = 2.0 * std::log(sigma[n - 1]) - grid.edges[n - 1];
  return grid;
}
}  // namespace

std::vector<double> targetLevelWeights(const std::vector<double>& sigma, const LossWeight& target) {
  const LogSigmaGrid bins = levelBins(sigma);
  std::vector<double> nu(sigma.size());
  double total = 0.0;
  for (std::size_t g = 0; g < sigma.size(); ++g) {
    const double perLogSigma =
        target.kind == LossWeight::Kind::Elbo ? 1.0 / (sigma[g] * sigma[g]) : target.at(sigma[g]);
    total += nu[g] = perLogSigma * bins.width(static_cast<int>(g));
  }
  for (double& v : nu) v /= total;
  return nu;
}

namespace {

// Which regime R(π) = tr(A·M(π)⁻¹) describes under this training weight (THEORY §7): it is the
// excess risk only when w_g·V_g ∝ H_g, i.e. the weight evens out the per-level residual variance.
// EDM's weight 1/c_out(σ)² does that for the preconditioned model (approximately: exactly for
// Gaussian data of variance σ_d²); any other weight leaves the sandwich form, where this
// criterion only ranks allocations.
std::string regimeNote(const LossWeight& weight) {
  if (weight.kind == LossWeight::Kind::Edm)
    return "fisher (well-specified, approximately: the EDM weight 1/c_out(σ)² evens the per-level "
           "residual variance, as w·V ∝ H asks): R(π) = tr(A·M(π)⁻¹)";
  return "fisher criterion as a proxy: the training weight " + weight.name() +
         " does not even the per-level residual variance (w·V ∝ H fails), so tr(A·M(π)⁻¹) ranks "
         "allocations but is not this training's excess risk (the sandwich form of THEORY §7 is)";
}

}  // namespace

AtomicResult designAtomicSchedule(const InformationMatrices& info, const AtomicOptions& options) {
  if (info.information.size() != info.sigma.size() || info.sigma.empty())
    throw InputError("atomic schedule", "need one information matrix per σ level");
  if (options.trainingWeight.kind == LossWeight::Kind::Elbo)
    throw InputError("atomic schedule",
                     "the ELBO weight depends on π; pick a fixed training weight");
  AtomicResult result;
  result.gridSigma = info.sigma;
  DesignProblem& problem = result.problem;
  problem.information = info.information;
  problem.criterion = options.criterion;
  const int p = static_cast<int>(info.information[0].rows());
  double meanTrace = 0.0;
  for (std::size_t g = 0; g < info.sigma.size(); ++g) {
    problem.weights.push_back(options.trainingWeight.at(info.sigma[g]));
    meanTrace += info.information[g].trace() / info.sigma.size();
  }
  // Scale the weights to mean 1: R changes by a constant factor only, conditioning improves.
  double meanWeight = 0.0;
  for (double w : problem.weights) meanWeight += w / problem.weights.size();
  for (double& w : problem.weights) w /= meanWeight;
  problem.ridge = options.relativeRidge * meanTrace / p;
  const std::vector<double> nu = targetLevelWeights(info.sigma, options.targetWeight);
  problem.target = Eigen::MatrixXd::Zero(p, p);
  for (std::size_t g = 0; g < nu.size(); ++g) problem.target += nu[g] * info.information[g];

  result.design = solveDesign(problem, options.solver);

  std::vector<double> logSigma;
  for (double s : info.sigma) logSigma.push_back(std::log(s));
  std::vector<Atom> atoms;
  for (const auto& [position, weight] :
       mergeAdjacentAtoms(logSigma, result.design.weights, std::max(0.0, options.mergeSpacing)))
    atoms.push_back({std::exp(position), weight});
  for (int g : result.design.support)
    result.gridAtoms.push_back({info.sigma[g], result.design.weights[g]});
  const double lo = options.sigmaMin > 0 ? options.sigmaMin : info.sigma.front();
  const double hi = options.sigmaMax > 0 ? options.sigmaMax : info.sigma.back();
  Schedule s = Schedule::fromAtoms(std::move(atoms), lo, hi);
  s.lossWeight = options.trainingWeight;
  s.info.kind = "atomic";
  s.info.label = "atomic optimum (" + info.model + ")";
  s.info.setNote("regime", regimeNote(options.trainingWeight));
  s.info.setNote("model", info.model);
  s.info.setNote("model-description", info.description);
  for (const auto& [key, value] : info.notes) s.info.setNote("model-" + key, value);
  for (const auto& [key, value] : info.parameters) s.info.setParameter("model_" + key, value);
  s.info.setNote("criterion", toString(options.criterion));
  s.info.setNote("target-weight", options.targetWeight.name());
  s.info.setParameter("risk", result.design.criterion);
  s.info.setParameter("certificate_gap", result.design.gap);
  s.info.setParameter("certificate_relative_gap", result.design.relativeGap);
  s.info.setParameter("sensitivity_max", result.design.sensitivityMax);
  s.info.setParameter("sensitivity_mean", result.design.sensitivityMean);
  s.info.setParameter("iterations", result.design.iterations);
  s.info.setParameter("converged", result.design.converged ? 1.0 : 0.0);
  s.info.setParameter("grid_levels", static_cast<double>(info.sigma.size()));
  s.info.setParameter("grid_support", static_cast<double>(result.design.support.size()));
  s.info.setParameter("ridge", problem.ridge);
  s.info.setParameter("merge_spacing", options.mergeSpacing);
  s.info.setNote("atoms-note",
                 "R and the certificate are for the grid design; merged atoms sit at "
                 "the weighted mean log σ of neighbouring support levels");
  result.schedule = std::move(s);
  return result;
}

double riskOfSchedule(const AtomicResult& atomic, const Schedule& schedule) {
  // Compare at equal effective allocation: φ = π·w of the schedule, realised in the design's own
  // training weight as π_g ∝ φ_g / w_g.
  const LogSigmaGrid bins = levelBins(atomic.gridSigma);
  std::vector<double> pi = effectiveAllocation(schedule).massesOn(bins);
  double total = 0.0;
  for (std::size_t g = 0; g < pi.size(); ++g) total += pi[g] /= atomic.problem.weights[g];
  if (!(total > 0.0))
    throw InputError("risk", "the schedule has no mass near the candidate levels");
  for (double& v : pi) v /= total;
  return evaluateDesign(atomic.problem, pi).criterion;
}

}  // namespace noisescope::schedule
