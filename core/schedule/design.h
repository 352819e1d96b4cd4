#pragma once
// A generic convex optimal-design solver on the simplex (THEORY §7). Given candidate levels
// g = 1..G with information matrices H_g (p×p, symmetric positive semi-definite) and weights w_g,
// the design π on the simplex has information M(π) = Σ_g π_g·w_g·H_g (+ ridge·I). Criteria:
//   A (the excess-risk form):  R(π) = tr(A·M(π)⁻¹),  ∂R/∂π_g = −w_g·tr(M⁻¹AM⁻¹H_g)
//   D (textbook check):        R(π) = −log det M(π), ∂R/∂π_g = −w_g·tr(M⁻¹H_g)
// Solved by Frank–Wolfe with away steps and exact line search (optionally warm-started by
// multiplicative updates). The stopping rule is the Frank–Wolfe duality gap, which for these
// criteria is exactly the equivalence theorem's certificate:
//   A: max_g w_g·tr(M⁻¹AM⁻¹H_g) − tr(AM⁻¹),   D: max_g w_g·tr(M⁻¹H_g) − p,
// zero at the optimum (with equality on the support).
// Cost per iteration: about 20·p³ flops (a Cholesky, an inverse, an eigen-decomposition for the
// exact line search) plus G·p² for the sensitivities — comfortable up to p of a few hundred.
#include <Eigen/Dense>

#include "schedule/design_result.h"

#include <limits>
#include <string>
#include <vector>

#include "util/progress.h"

namespace noisescope::schedule {

enum class DesignCriterion { A, D };
const char* toString(DesignCriterion criterion);

struct DesignProblem {
  std::vector<Eigen::MatrixXd> information;  // H_g
  std::vector<double> weights;               // w_g (> 0); empty means all 1
  Eigen::MatrixXd target;                    // A (A-criterion only), p×p symmetric PSD
  DesignCriterion criterion = DesignCriterion::A;
  double ridge = 0.0;  // added to M(π) as ridge·I (keeps M invertible for rank-deficient H_g)

  // Throws InputError("design", ...) on inconsistent sizes or non-finite entries.
  void validate() const;
  int levels() const { return static_cast<int>(information.size()); }
  int parameters() const {
    return information.empty() ? 0 : static_cast<int>(information[0].rows());
  }
};

struct DesignOptions {
  double gapTolerance = 1e-9;  // stop when the relative gap (gap / |criterion scale|) is below
  int maxIterations = 20000;
  int multiplicativeWarmStart = 0;  // iterations of the multiplicative algorithm before FW
  double pruneWeight = 1e-7;        // atoms lighter than this are dropped after solving
  std::vector<double> start;        // starting design (default: uniform over all levels)
  Progress progress;
};

DesignResult solveDesign(const DesignProblem& problem, const DesignOptions& options = {});

// The criterion and sensitivities of a given design (no optimisation), e.g. to certify a known
// answer.
DesignResult evaluateDesign(const DesignProblem& problem, const std::vector<double>& weights);

// Runs of neighbouring support levels (indices adjacent on the candidate grid, at most
// `maxSpacing` apart in position) become one atom: weight = sum, position = weighted mean of the
// positions (e.g. log σ). A fine grid splits one true atom over two neighbours; on a coarse grid
// neighbours can be distinct atoms, hence the spacing limit. Returns {position, weight} pairs.
std::vector<std::pair<double, double>> mergeAdjacentAtoms(
    const std::vector<double>& positions, const std::vector<double>& weights,
    double maxSpacing = std::numeric_limits<double>::infinity());

}  // namespace noisescope::schedule
