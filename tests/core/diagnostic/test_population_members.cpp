// The members of the population bound (THEORY §10) against closed forms: the held-out Wiener
// risk against a direct computation of its linear denoiser, the patch Wiener filter on data whose
// patch statistics are known exactly, the selection/evaluation rule, Student-t intervals over
// held-out points and the held-out query design (each point once per level).
#include <QObject>
#include <QString>
#include <QTest>

#include <Eigen/Dense>

#include <cmath>
#include <random>

#include "data/dataset.h"
#include "diagnostic/held_out_wiener.h"
#include "diagnostic/patch_wiener.h"
#include "diagnostic/population_bound.h"
#include "diagnostic/queries.h"
#include "hadamard_rows.h"
#include "util/error.h"
#include "util/student_t.h"

using namespace noisescope;

namespace {

Dataset randomRows(int64_t n, std::vector<int64_t> shape, SampleKind kind, uint64_t seed) {
  Dataset d;
  d.name = d.source = "rows" + std::to_string(seed);
  d.kind = kind;
  d.sampleShape = std::move(shape);
  std::mt19937_64 engine(seed);
  d.values.resize(static_cast<size_t>(n * d.dim()));
  for (size_t i = 0; i < d.values.size(); ++i) {
    const double u = static_cast<double>(engine() >> 11) * 0x1.0p-53;
    // correlated, non-centred rows: a running sum along the row plus an offset
    d.values[i] = static_cast<float>((i % d.dim() == 0 ? 0.0 : 0.6 * d.values[i - 1]) + u - 0.3);
  }
  return d;
}

// 1×4×4 images from a 16×16 Hadamard matrix: mean 0 and second moment s²·I exactly, so every
// patch filter is the scalar s²/(s² + σ²) at its centre.
Dataset hadamardImages(float s) {
  return hadamardRows(16, s, {1, 4, 4}, SampleKind::Image);
}

HeldOutColumns allColumns(int64_t n) {
  return leadingColumns(heldOutOrder(n, 3), n);
}

}  // namespace

class TestPopulationMembers : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void studentQuantiles() {
    QVERIFY(std::abs(studentTQuantile(0.975, 2) - 4.302653) < 1e-5);
    QVERIFY(std::abs(studentTQuantile(0.975, 5) - 2.570582) < 1e-5);
    QVERIFY(std::abs(studentTQuantile(0.95, 23) - 1.713872) < 1e-5);
    QVERIFY(std::abs(studentTQuantile(0.975, 1e9) - 1.959964) < 1e-5);
    QVERIFY(std::abs(studentTCdf(studentTQuantile(0.3, 3.5), 3.5) - 0.3) < 1e-9);
  }

  void heldOutWienerMatchesItsLinearDenoiser() {
    const Dataset prior = randomRows(40, {6}, SampleKind::Vector, 1);
    const Dataset held = randomRows(12, {6}, SampleKind::Vector, 2);
    const std::vector<double> sigma = {0.01, 0.3, 1.0, 7.0};
    const HeldOutColumns cols = allColumns(held.size());
    const PointRisks r = heldOutWienerRisks(prior, held, cols, sigma);
    // Direct: μ̂, Σ̂ (1/N), A = Σ̂(Σ̂ + σ²I)⁻¹, ‖(I − A)(x − μ̂)‖² + σ²‖A‖²_F.
    Eigen::MatrixXd x(prior.size(), 6);
    for (int64_t i = 0; i < prior.size(); ++i)
      for (int j = 0; j < 6; ++j) x(i, j) = prior.sample(i)[j];
    const Eigen::RowVectorXd mu = x.colwise().mean();
    const Eigen::MatrixXd c = x.rowwise() - mu;
    const Eigen::MatrixXd cov = c.transpose() * c / static_cast<double>(prior.size());
    for (size_t l = 0; l < sigma.size(); ++l) {
      const Eigen::MatrixXd eye = Eigen::MatrixXd::Identity(6, 6);
      const Eigen::MatrixXd a = cov * (cov + sigma[l] * sigma[l] * eye).inverse();
      for (int64_t k = 0; k < r.columns(); ++k) {
        Eigen::VectorXd v(6);
        for (int j = 0; j < 6; ++j) v[j] = held.sample(cols.rows[k])[j] - mu[j];
        const double want = ((eye - a) * v).squaredNorm() + sigma[l] * sigma[l] * a.squaredNorm();
        QVERIFY2(std::abs(r.values[l * r.columns() + k] - want) <= 1e-9 * std::max(1.0, want),
                 qPrintable(QString("level %1 point %2").arg(l).arg(k)));
      }
    }
  }

  void rankKWienerIsTheTopKLinearDenoiser() {
    // D = 20 with three strong directions and a weak isotropic rest; the randomised path keeps
    // the top 3 Ritz pairs. Its risk is that of A_k = V_k diag(λ/(λ+σ²)) V_kᵀ, with the rest of
    // x − μ̂ unshrunk, computed here from the exact top-3 eigenvectors.
    const int64_t d = 20, n = 300;
    Dataset prior = randomRows(n, {d}, SampleKind::Vector, 6);
    Dataset held = randomRows(10, {d}, SampleKind::Vector, 7);
    for (Dataset* set : {&prior, &held})
      for (int64_t i = 0; i < set->size(); ++i)
        for (int64_t j = 0; j < d; ++j)
          set->sample(i)[j] = 0.05f * set->sample(i)[j] +
                              (j < 3 ? static_cast<float>((j + 1) * std::sin(1.3 * i + j)) : 0.0f);
    GaussianSpectrumOptions randomised;
    randomised.exactDimLimit = 0;
    randomised.rank = 3;
    randomised.powerIterations = 6;
    const std::vector<double> sigma = {0.01, 0.5, 4.0};
    const HeldOutColumns cols = allColumns(held.size());
    const PointRisks r = heldOutWienerRisks(prior, held, cols, sigma, randomised);
    Eigen::MatrixXd x(n, d);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < d; ++j) x(i, j) = prior.sample(i)[j];
    const Eigen::RowVectorXd mu = x.colwise().mean();
    const Eigen::MatrixXd c = x.rowwise() - mu;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(c.transpose() * c / double(n));
    const Eigen::MatrixXd v = solver.eigenvectors().rightCols(3);
    const Eigen::VectorXd lambda = solver.eigenvalues().tail(3);
    for (size_t l = 0; l < sigma.size(); ++l) {
      const Eigen::VectorXd keep = lambda.array() / (lambda.array() + sigma[l] * sigma[l]);
      const Eigen::MatrixXd a = v * keep.asDiagonal() * v.transpose();
      const Eigen::MatrixXd eye = Eigen::MatrixXd::Identity(d, d);
      for (int64_t k = 0; k < r.columns(); ++k) {
        Eigen::VectorXd e(d);
        for (int64_t j = 0; j < d; ++j) e[j] = held.sample(cols.rows[k])[j] - mu[j];
        const double want = ((eye - a) * e).squaredNorm() + sigma[l] * sigma[l] * a.squaredNorm();
        QVERIFY2(std::abs(r.values[l * r.columns() + k] - want) <= 1e-6 * std::max(1.0, want),
                 qPrintable(QString("level %1 point %2: %3 vs %4")
                                .arg(l)
                                .arg(k)
                                .arg(r.values[l * r.columns() + k])
                                .arg(want)));
      }
    }
  }

  void rankDeficientPriorCountsItsNullSpace() {
    // 3 prior rows in D = 8 (rank 2): directions the prior does not span are not shrunk, so at
    // tiny σ the risk is the part of x − μ̂ outside the prior's span, not ~0.
    const Dataset prior = randomRows(3, {8}, SampleKind::Vector, 4);
    const Dataset held = randomRows(6, {8}, SampleKind::Vector, 5);
    const HeldOutColumns cols = allColumns(held.size());
    const PointRisks r = heldOutWienerRisks(prior, held, cols, {1e-4, 1e4});
    for (int64_t k = 0; k < r.columns(); ++k) {
      QVERIFY(r.values[k] > 1e-3);                       // small σ: the unseen directions remain
      QVERIFY(r.values[r.columns() + k] > r.values[k]);  // large σ: ‖x − μ̂‖², more still
    }
  }

  void patchFiltersOnIsotropicImagesAreTheScalarWiener() {
    const float s = 0.5f;
    const Dataset data = hadamardImages(s);
    const HeldOutColumns cols = allColumns(data.size());
    const std::vector<double> sigma = {0.05, 0.5, 5.0};
    PatchWienerOptions o;
    o.sizes = {1, 3, 5};
    o.fitRows = data.size();
    const std::vector<PointRisks> patch = patchWienerRisks(data, data, cols, sigma, o);
    QCOMPARE(patch.size(), size_t{3});
    QCOMPARE(patch[1].member, std::string("patch-k3"));
    for (const PointRisks& r : patch)
      for (size_t l = 0; l < sigma.size(); ++l) {
        const double s2 = s * s, v2 = sigma[l] * sigma[l], keep = s2 / (s2 + v2);
        for (int64_t k = 0; k < r.columns(); ++k) {
          // ‖x‖² = 16 s²; the filter keeps s²/(s²+σ²) of every value and adds that much noise.
          const double want = (1 - keep) * (1 - keep) * 16 * s2 + 16 * v2 * keep * keep;
          QVERIFY2(std::abs(r.values[l * r.columns() + k] - want) < 1e-9,
                   qPrintable(QString("%1 level %2").arg(r.member.c_str()).arg(l)));
        }
      }
  }

  void patchSizesFollowTheLayout() {
    Dataset grey = hadamardImages(1.0f);
    grey.sampleShape = {1, 28, 28};
    QCOMPARE(patchSizesFor(grey), (std::vector<int>{3, 5, 7, 9}));
    Dataset dna;
    dna.kind = SampleKind::Sequence;
    dna.sampleShape = {200, 4};
    QCOMPARE(patchSizesFor(dna), (std::vector<int>{3, 9, 17, 33}));
    Dataset vec;
    vec.sampleShape = {10};
    QVERIFY(!hasPatchLayout(vec));
    QVERIFY(patchSizesFor(vec).empty());
    PatchWienerOptions even;
    even.sizes = {4};
    const Dataset d = hadamardImages(1.0f);
    QVERIFY_THROWS_EXCEPTION(InputError, patchWienerRisks(d, d, allColumns(d.size()), {1.0}, even));
  }

  void boundIsCrossFitted() {
    // "a" is best on the even half (positions 0, 2, 4), "b" on the odd half. Each is scored on
    // the half that did not choose it: a's odd values and b's even values, pooled.
    PointRisks a{"a", 1, {0, 1, 2, 3, 4, 5}, {1.0, 9.0, 1.2, 9.5, 0.8, 8.5}};
    PointRisks b{"b", 1, {0, 1, 2, 3, 4, 5}, {2.0, 2.0, 2.1, 1.9, 2.2, 2.0}};
    Profile grid;
    grid.sigma = {1.0};
    grid.dim = 1;
    const Profile bound = selectPopulationBound({a, b}, grid);
    QCOMPARE(bound.provenance["source"][0].get<std::string>(), std::string("a|b"));
    const std::vector<double> pooled = {9.0, 9.5, 8.5, 2.0, 2.1, 2.2};
    double mean = 0.0, squares = 0.0;
    for (double v : pooled) mean += v / 6.0;
    for (double v : pooled) squares += (v - mean) * (v - mean);
    const double se = std::sqrt(squares / 5.0 / 6.0);
    QVERIFY(std::abs(bound.primary().mean[0] - mean) < 1e-12);
    QVERIFY(std::abs(bound.primary().standardError[0] - se) < 1e-12);
    // Student t ends, raised (never lowered) by the skewness correction.
    QVERIFY(bound.primary().upper95[0] >= mean + studentTQuantile(0.95, 5) * se - 1e-12);
    QVERIFY(bound.primary().ciHigh[0] >= mean + studentTQuantile(0.975, 5) * se - 1e-12);
    QVERIFY(std::abs(bound.primary().ciLow[0] - (mean - studentTQuantile(0.975, 5) * se)) < 1e-9);
    // When one member wins on both halves, the bound is that member's mean over all points.
    PointRisks c{"c", 1, {0, 1, 2, 3}, {0.5, 0.6, 0.7, 0.4}};
    const Profile single = selectPopulationBound({a, c}, grid);
    QCOMPARE(single.provenance["source"][0].get<std::string>(), std::string("c"));
    QVERIFY(std::abs(single.primary().mean[0] - 0.55) < 1e-12);
    PointRisks tiny{"t", 1, {0, 1, 2}, {1, 2, 3}};  // one odd point: a half cannot be scored
    QVERIFY_THROWS_EXCEPTION(InputError, selectPopulationBound({tiny}, grid));
  }

  // Per-point errors with a tail heavier than the tail term covers (Pareto index 0.7: no mean)
  // at one level, light ones at the other: the bound's file names that σ in a warning, and only
  // that one; the light level's upper95 is not flagged.
  void heavyTailedLevelsAreNamed() {
    std::mt19937_64 engine(3);
    PointRisks m{"m", 2, {}, {}};
    const int n = 1000;
    for (int c = 0; c < n; ++c) m.position.push_back(c);
    m.values.resize(2 * n);
    for (int c = 0; c < n; ++c) {
      const double u = (static_cast<double>(engine() >> 11) + 0.5) * 0x1.0p-53;
      m.values[c] = 1.0 + 0.01 * (c % 7);         // σ = 0.1: light
      m.values[n + c] = std::pow(u, -1.0 / 0.7);  // σ = 10: heavy
    }
    Profile grid;
    grid.sigma = {0.1, 10.0};
    grid.dim = 1;
    const Profile bound = selectPopulationBound({m}, grid);
    QVERIFY(bound.provenance.contains("upper95_tail_term"));
    QVERIFY(bound.provenance.contains("warnings"));
    QCOMPARE(bound.provenance["warnings"].size(), size_t{1});
    const std::string text = bound.provenance["warnings"][0].get<std::string>();
    QVERIFY2(text.find("sigma = 10:") != std::string::npos, text.c_str());
    QVERIFY2(text.find("0.1") == std::string::npos, text.c_str());
    // Without a heavy level, no warning at all.
    m.values.resize(n);
    m.levels = 1;
    grid.sigma = {0.1};
    QVERIFY(!selectPopulationBound({m}, grid).provenance.contains("warnings"));
  }

  void skewedPointsRaiseTheUpperEnd() {
    // Right-skewed values: the upper ends move up from the plain t ends; symmetric ones do not.
    const std::vector<double> skewed = {0.1, 0.1, 0.2, 0.1, 0.3, 0.2, 0.1, 5.0};
    const std::vector<double> even = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0};
    const MmseEstimate s = summarizeOverPoints("s", "", skewed, 1, 8);
    const MmseEstimate e = summarizeOverPoints("e", "", even, 1, 8);
    const double t95 = studentTQuantile(0.95, 7);
    QVERIFY(s.upper95[0] > s.mean[0] + t95 * s.standardError[0] + 1e-6);
    // Symmetric values get only the tail term (profile/tail_term.h): 5 (max − min) / n.
    QVERIFY(std::abs(e.upper95[0] - (e.mean[0] + t95 * e.standardError[0] + 5.0 * 7.0 / 8.0)) <
            1e-9);
  }

  void heldOutQueriesUseEachPointOncePerRound() {
    const std::vector<int64_t> order = heldOutOrder(5, 9);
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(sorted, (std::vector<int64_t>{0, 1, 2, 3, 4}));
    QCOMPARE(heldOutOrder(5, 9), order);  // seeded
    const QuerySet many = drawHeldOutQueries(order, 2, 12, 1);
    for (int64_t j = 0; j < 12; ++j) QCOMPARE(many.index[j], order[j % 5]);
    const QuerySet few = drawHeldOutQueries(order, 2, 3, 1);
    QCOMPARE(few.index, (std::vector<int64_t>{order[0], order[1], order[2]}));
  }
};

QTEST_GUILESS_MAIN(TestPopulationMembers)
#include "test_population_members.moc"
