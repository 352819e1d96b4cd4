// The optimal-design solver on textbook designs with known optima, certified by the equivalence
// theorem's gap.
#include <QObject>
#include <QTest>

#include <cmath>
#include <random>

#include "schedule/design.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {
// Polynomial regression of the given degree on an odd grid over [−1, 1]: H_x = f(x)f(x)ᵀ.
DesignProblem polynomialProblem(int degree, int points, DesignCriterion criterion) {
  DesignProblem problem;
  problem.criterion = criterion;
  for (int i = 0; i < points; ++i) {
    const double x = -1.0 + 2.0 * i / (points - 1);
    Eigen::VectorXd f(degree + 1);
    for (int k = 0; k <= degree; ++k) f[k] = std::pow(x, k);
    problem.information.push_back(f * f.transpose());
  }
  problem.target = Eigen::MatrixXd::Identity(degree + 1, degree + 1);
  return problem;
}

double weightAt(const DesignResult& r, int index) {
  return r.weights[index];
}
}  // namespace

class TestDesignSolver : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void dOptimalQuadratic();
  void aOptimalQuadratic();
  void aOptimalLinearWithWeights();
  void certificateOfSuboptimalDesign();
  void mergeAdjacent();
  void rejectsBadProblems();
};

void TestDesignSolver::dOptimalQuadratic() {
  // Quadratic regression on [−1, 1]: the D-optimal design is {−1, 0, 1} with weights 1/3 each,
  // and at the optimum max_x f(x)ᵀM⁻¹f(x) = p = 3 (Kiefer–Wolfowitz).
  const DesignProblem problem = polynomialProblem(2, 101, DesignCriterion::D);
  DesignOptions options;
  options.gapTolerance = 1e-10;
  const DesignResult r = solveDesign(problem, options);
  QVERIFY(r.converged);
  QCOMPARE(r.support, (std::vector<int>{0, 50, 100}));
  for (int g : {0, 50, 100}) QVERIFY(std::abs(weightAt(r, g) - 1.0 / 3.0) < 1e-6);
  QVERIFY2(r.gap <= 1e-6, std::to_string(r.gap).c_str());
  QVERIFY(std::abs(r.sensitivityMax - 3.0) < 1e-6);
  // det M = 4/27 at the optimum.
  QVERIFY(std::abs(r.criterion + std::log(4.0 / 27.0)) < 1e-8);
}

void TestDesignSolver::aOptimalQuadratic() {
  // A-optimal (A = I) for quadratic regression: weights 1/4, 1/2, 1/4 on {−1, 0, 1}, tr M⁻¹ = 8.
  const DesignProblem problem = polynomialProblem(2, 41, DesignCriterion::A);
  DesignOptions options;
  options.gapTolerance = 1e-10;
  options.multiplicativeWarmStart = 20;
  const DesignResult r = solveDesign(problem, options);
  QVERIFY(r.converged);
  QCOMPARE(r.support, (std::vector<int>{0, 20, 40}));
  QVERIFY(std::abs(weightAt(r, 0) - 0.25) < 1e-6);
  QVERIFY(std::abs(weightAt(r, 20) - 0.5) < 1e-6);
  QVERIFY(std::abs(weightAt(r, 40) - 0.25) < 1e-6);
  QVERIFY(std::abs(r.criterion - 8.0) < 1e-8);
  QVERIFY2(r.gap <= 1e-6, std::to_string(r.gap).c_str());
  // The certificate holds with equality on the support.
  for (int g : r.support) QVERIFY(std::abs(r.sensitivity[g] - r.sensitivityMax) < 1e-6);
}

void TestDesignSolver::aOptimalLinearWithWeights() {
  // Straight-line regression with A = diag(1, a²): the optimum puts equal weight on ±1, where
  // M = I and R = 1 + a² (every other design has a smaller E[x²] and a larger R).
  DesignProblem problem = polynomialProblem(1, 21, DesignCriterion::A);
  const double a = 3.0;
  problem.target = Eigen::Vector2d(1.0, a * a).asDiagonal();
  DesignOptions options;
  options.gapTolerance = 1e-12;
  const DesignResult r = solveDesign(problem, options);
  QCOMPARE(r.support, (std::vector<int>{0, 20}));
  QVERIFY(std::abs(r.criterion - (1.0 + a * a)) < 1e-8);
  QVERIFY(r.gap <= 1e-6);
  // Weights w_g scale the information: doubling every w halves R.
  problem.weights.assign(21, 2.0);
  const DesignResult doubled = solveDesign(problem, options);
  QVERIFY(std::abs(doubled.criterion - 0.5 * (1.0 + a * a)) < 1e-8);
}

void TestDesignSolver::certificateOfSuboptimalDesign() {
  const DesignProblem problem = polynomialProblem(2, 41, DesignCriterion::D);
  std::vector<double> uniform(41, 1.0 / 41);
  const DesignResult r = evaluateDesign(problem, uniform);
  QVERIFY(r.gap > 0.1);  // the uniform design is far from D-optimal
  // Σ π_g·d_g = p for the D-criterion without ridge.
  QVERIFY(std::abs(r.sensitivityMean - 3.0) < 1e-9);
}

void TestDesignSolver::mergeAdjacent() {
  const auto atoms = mergeAdjacentAtoms({0, 1, 2, 3, 4, 5}, {0.25, 0.25, 0, 0, 0.5, 0});
  QCOMPARE(atoms.size(), std::size_t(2));
  QVERIFY(std::abs(atoms[0].first - 0.5) < 1e-15 && std::abs(atoms[0].second - 0.5) < 1e-15);
  QVERIFY(std::abs(atoms[1].first - 4.0) < 1e-15);
}

void TestDesignSolver::rejectsBadProblems() {
  DesignProblem empty;
  QVERIFY_THROWS_EXCEPTION(InputError, solveDesign(empty));
  DesignProblem mismatched = polynomialProblem(2, 5, DesignCriterion::A);
  mismatched.target = Eigen::MatrixXd::Identity(2, 2);
  QVERIFY_THROWS_EXCEPTION(InputError, solveDesign(mismatched));
  DesignProblem singular = polynomialProblem(2, 2, DesignCriterion::D);  // 2 points, 3 parameters
  QVERIFY_THROWS_EXCEPTION(InputError, solveDesign(singular));
  singular.ridge = 1e-3;
  QVERIFY(solveDesign(singular).weights.size() == 2);
}

QTEST_APPLESS_MAIN(TestDesignSolver)
#include "test_design_solver.moc"
