// The population bounds of THEORY §10 against closed forms: the Gaussian (Wiener) profile on data
// whose sample covariance is known exactly, its randomised path, and both bounds on two-point data.
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <Eigen/Dense>

#include <cmath>
#include <random>

#include "data/dataset.h"
#include "data/load.h"
#include "diagnostic/empirical_diagnostic.h"
#include "diagnostic/gaussian_profile.h"
#include "hadamard_rows.h"
#include "io/profile_io.h"
#include "schedule/entropic.h"
#include "tensor/device.h"
#include "test_paths.h"
#include "util/error.h"
#include "util/seeded_split.h"
#include "vector_dataset.h"

using namespace noisescope;

namespace {

Dataset gaussianSample(int64_t n, int64_t d, double s, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, s);
  std::vector<float> v(static_cast<size_t>(n * d));
  for (float& x : v) x = static_cast<float>(normal(rng));
  return makeDataset(n, d, std::move(v));
}

// Independent route to the sample covariance spectrum: singular values of the centred data
// matrix, squared, over N.
std::vector<double> spectrumBySvd(const Dataset& data) {
  const int64_t n = data.size(), d = data.dim();
  Eigen::MatrixXd x(n, d);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < d; ++k) x(i, k) = data.sample(i)[k];
  x.rowwise() -= x.colwise().mean();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(x);
  std::vector<double> out;
  for (int64_t k = 0; k < svd.singularValues().size(); ++k)
    out.push_back(svd.singularValues()[k] * svd.singularValues()[k] / static_cast<double>(n));
  return out;
}

DiagnosticOptions grid() {
  DiagnosticOptions o;
  o.levels = 24;
  o.sigmaMin = 0.002;
  o.sigmaMax = 80.0;
  return o;
}

void expectRelative(double got, double want, double tolerance, const char* what) {
  if (std::abs(got - want) > tolerance * std::max(1.0, std::abs(want)))
    QFAIL(qPrintable(
        QString("%1: got %2, want %3").arg(what).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
}

}  // namespace

class TestBracketProfiles : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { initTorchThreads(1); }

  void isotropicSampleMatchesClosedForm() {
    const int64_t d = 64;
    const double s = 0.5;
    const Dataset data = hadamardRows(d, 0.5f);
    for (bool randomised : {false, true}) {
      GaussianSpectrumOptions spectrum;
      spectrum.bootstrap = 0;  // the curve itself; its bootstrap interval is checked below
      if (randomised) {        // a flat spectrum: the averaged tail is exact
        spectrum.exactDimLimit = 0;
        spectrum.rank = 8;
      }
      const Profile p = computeGaussianProfile(data, grid(), spectrum);
      QCOMPARE(p.kind, std::string("gaussian"));
      QCOMPARE(p.provenance["parameters"]["method"].get<std::string>(),
               std::string(randomised ? "randomised" : "exact"));
      for (int l = 0; l < p.levels(); ++l) {
        const double s2 = p.sigma[l] * p.sigma[l];
        expectRelative(p.primary().mean[l], d * s * s * s2 / (s * s + s2), 1e-9, "MMSE_G");
        QCOMPARE(p.primary().standardError[l], 0.0);
        expectRelative(p.rate("log_sigma")->value[l], p.primary().mean[l] / s2, 1e-12, "rate");
      }
    }
    // With replicates, resampled rows spread the curve, and the file says it is an estimate.
    const Profile withBootstrap = computeGaussianProfile(data, grid());
    QVERIFY(withBootstrap.primary().standardError.back() > 0.0);
    QVERIFY(withBootstrap.primary().interval.find("bootstrap") != std::string::npos);
    QVERIFY(withBootstrap.primary().description.find("ESTIMATE") != std::string::npos);
  }

  void gaussianSampleMatchesItsSpectrum() {
    const int64_t n = 3000, d = 16;
    const double s = 0.6;
    const Dataset data = gaussianSample(n, d, s, 7);
    const Profile p = computeGaussianProfile(data, grid());
    const std::vector<double> exact = wienerMmse(spectrumBySvd(data), p.sigma);
    for (int l = 0; l < p.levels(); ++l) {
      expectRelative(p.primary().mean[l], exact[l], 1e-9, "against the SVD spectrum");
      // And the sample covariance is near s²I: within a few 1/√N of the population curve.
      const double s2 = p.sigma[l] * p.sigma[l];
      expectRelative(p.primary().mean[l], d * s * s * s2 / (s * s + s2), 0.05, "population");
    }
  }

  void randomisedPathIsAnUpperBound() {
    // Decaying spectrum: coordinate k has standard deviation 0.9^k.
    const int64_t n = 800, d = 120;
    std::mt19937 rng(3);
    std::normal_distribution<double> normal;
    std::vector<float> v(static_cast<size_t>(n * d));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < d; ++k)
        v[static_cast<size_t>(i * d + k)] = static_cast<float>(std::pow(0.9, k) * normal(rng));
    const Dataset data = makeDataset(n, d, std::move(v));
    const Profile exact = computeGaussianProfile(data, grid());
    GaussianSpectrumOptions options;
    options.exactDimLimit = 0;
    options.rank = 30;
    const Profile approx = computeGaussianProfile(data, grid(), options);
    bool someGap = false;
    for (int l = 0; l < exact.levels(); ++l) {
      QVERIFY(approx.primary().mean[l] >= exact.primary().mean[l] * (1.0 - 1e-9));
      // Beyond the top 30 directions lies ~0.2 % of the variance, and at large σ MMSE_G ≈ tr Σ
      // (exact on both paths) minus Σλ²/σ²: the two agree closely there.
      if (exact.sigma[l] > 1.0)
        expectRelative(approx.primary().mean[l], exact.primary().mean[l], 1e-4, "large sigma");
      if (approx.primary().mean[l] > exact.primary().mean[l] * (1.0 + 1e-6)) someGap = true;
    }
    QVERIFY(someGap);  // the averaged tail does raise the small-σ end
    QVERIFY(approx.provenance["spectrum"]["tail_total"].get<double>() > 0.0);
  }

  void twoPointGaussianBoundIsAboveExact() {
    const double a = 0.8;
    const Dataset data = makeDataset(2, 1, {static_cast<float>(-a), static_cast<float>(a)});
    const Profile p = computeGaussianProfile(data, grid());
    for (int l = 0; l < p.levels(); ++l) {
      const double exact = schedule::twoPointMmse(a, p.sigma[l]);
      QVERIFY2(
          p.primary().mean[l] >= exact - 1e-9,
          qPrintable(QString("σ=%1: %2 < %3").arg(p.sigma[l]).arg(p.primary().mean[l]).arg(exact)));
    }
    // At small σ the bound is ≈ σ² (rank 1) while the two points are recovered almost surely.
    QVERIFY(p.primary().mean.front() > 100.0 * schedule::twoPointMmse(a, p.sigma.front()));
  }

  void profileFilesRecordTheKind() {
    const Profile p = computeGaussianProfile(hadamardRows(8, 0.5f), grid());
    QTemporaryDir dir;
    const std::string json = dir.filePath("g.json").toStdString();
    const std::string csv = dir.filePath("g.csv").toStdString();
    writeProfile(json, p);
    writeProfileCsv(csv, p);
    for (const std::string& path : {json, csv}) {
      const Profile back = readProfile(path);
      QCOMPARE(back.kind, std::string("gaussian"));
      QCOMPARE(back.primary().mean, p.primary().mean);
      QCOMPARE(back.primary().standardError, p.primary().standardError);
    }
  }

  void heldOutAboveEmpiricalOnFashionMnist() {
    const std::string root = noisescope::test::sourcePath() + "/sample_data/fashion-mnist/";
    const Dataset train = loadDataset(root + "train-images-idx3-ubyte.gz");
    const Dataset test = loadDataset(root + "t10k-images-idx3-ubyte.gz");
    DiagnosticOptions o;
    o.levels = 10;
    o.sigmaMin = 0.01;
    o.sigmaMax = 80.0;
    o.queries = 64;
    const Profile empirical = computeEmpiricalProfile(train, o);
    const Profile heldOut = computeHeldOutProfile(train, test, o);
    QCOMPARE(heldOut.kind, std::string("held-out"));
    QCOMPARE(heldOut.primary().name, std::string("held_out_risk"));
    QCOMPARE(heldOut.provenance["queries_from"]["source"].get<std::string>(),
             root + "t10k-images-idx3-ubyte.gz");
    QCOMPARE(static_cast<int>(heldOut.posterior.maxWeight.size()), o.levels);
    // σ ≤ 0.1: the training queries are memorised (MMSE ~ 0); held-out ones pay about the
    // squared nearest-neighbour distance.
    for (int l = 0; l < 3; ++l) {
      QVERIFY(heldOut.sigma[l] <= 0.1);
      QVERIFY2(heldOut.primary().ciLow[l] > 100.0 * empirical.primary().ciHigh[l] + 1.0,
               qPrintable(QString("σ=%1: held-out %2, empirical %3")
                              .arg(heldOut.sigma[l])
                              .arg(heldOut.primary().mean[l])
                              .arg(empirical.primary().mean[l])));
      QVERIFY(heldOut.posterior.maxWeight[l] > 0.99);  // one-hot on the nearest neighbour
    }
  }

  void twoPointHeldOutMatchesExact() {
    // The prior holds the population's two points, so its posterior is the Bayes one: the
    // held-out risk estimates the exact MMSE without bias and may not fall below it.
    const double a = 0.8;
    const Dataset prior = makeDataset(2, 1, {static_cast<float>(-a), static_cast<float>(a)});
    const Dataset held = makeDataset(4, 1,
                                     {static_cast<float>(a), static_cast<float>(-a),
                                      static_cast<float>(-a), static_cast<float>(a)});
    DiagnosticOptions o = grid();
    o.queries = 4000;
    o.seed = 5;
    const Profile p = computeHeldOutProfile(prior, held, o);
    for (int l = 0; l < p.levels(); ++l) {
      const double exact = schedule::twoPointMmse(a, p.sigma[l]);
      // Where an error is a rare event (fewer than ~10 expected among the queries, each costing
      // about (2a)²), Monte Carlo sees none and its interval says nothing; compare elsewhere.
      if (exact * static_cast<double>(o.queries) < 10.0 * 4.0 * a * a) continue;
      const double se = p.primary().standardError[l];
      QVERIFY2(std::abs(p.primary().mean[l] - exact) <= 4.0 * se + 1e-9,
               qPrintable(QString("σ=%1: %2 vs %3 (se %4)")
                              .arg(p.sigma[l])
                              .arg(p.primary().mean[l])
                              .arg(exact)
                              .arg(se)));
      QVERIFY(p.primary().ciHigh[l] >= exact - 1e-9);
    }
  }

  void heldOutApproachesGaussianPopulation() {
    // Population N(0, s²I_2), true MMSE 2s²σ²/(s²+σ²). The held-out risk bounds it from above
    // (within its interval) and closes in on it as the prior grows.
    const double s = 0.5;
    DiagnosticOptions o;
    o.levels = 8;
    o.sigmaMin = 0.1;
    o.sigmaMax = 10.0;
    o.queries = 2000;
    const Dataset held = gaussianSample(4000, 2, s, 11);
    double gapSmall = 0.0, gapLarge = 0.0;
    for (int64_t n : {int64_t{20}, int64_t{4000}}) {
      const Profile p = computeHeldOutProfile(gaussianSample(n, 2, s, 12), held, o);
      for (int l = 0; l < p.levels(); ++l) {
        const double s2 = p.sigma[l] * p.sigma[l];
        const double truth = 2.0 * s * s * s2 / (s * s + s2);
        QVERIFY2(p.primary().ciHigh[l] >= truth, qPrintable(QString("N=%1 σ=%2: %3 < %4")
                                                                .arg(n)
                                                                .arg(p.sigma[l])
                                                                .arg(p.primary().ciHigh[l])
                                                                .arg(truth)));
        const double gap = (p.primary().mean[l] - truth) / truth;
        (n == 20 ? gapSmall : gapLarge) += gap / p.levels();
        if (n == 4000) QVERIFY(truth >= p.primary().ciLow[l] - 0.05 * truth);
      }
    }
    QVERIFY2(
        gapLarge < 0.5 * gapSmall,
        qPrintable(QString("mean relative gap N=20: %1, N=4000: %2").arg(gapSmall).arg(gapLarge)));
  }

  void levelsAreReportedAsTheyComplete() {
    // 300 queries in a small memory budget: several query chunks, each level reported once,
    // when its last chunk is done, with the value the finished profile gives it.
    const Dataset prior = gaussianSample(400, 6, 0.7, 21);
    const Dataset held = gaussianSample(100, 6, 0.7, 22);
    DiagnosticOptions o = grid();
    o.levels = 9;
    o.queries = 300;
    o.memoryBytes = int64_t{2} << 20;
    for (bool heldOut : {false, true}) {
      std::vector<LevelEstimate> seen;
      const LevelObserver observe = [&seen](const LevelEstimate& e) { seen.push_back(e); };
      const Profile p = heldOut ? computeHeldOutProfile(prior, held, o, {}, observe)
                                : computeEmpiricalProfile(prior, o, {}, observe);
      QVERIFY(p.provenance["execution"]["query_chunk"].get<int64_t>() < o.queries);
      QCOMPARE(static_cast<int>(seen.size()), o.levels);
      std::vector<int> count(static_cast<size_t>(o.levels), 0);
      for (const LevelEstimate& e : seen) {
        ++count[static_cast<size_t>(e.level)];
        QCOMPARE(e.kind, p.kind);
        QCOMPARE(e.sigma, p.sigma[e.level]);
        expectRelative(e.mmse, p.primary().mean[e.level], 1e-12, "level estimate");
        expectRelative(e.standardError, p.primary().standardError[e.level], 1e-12, "level se");
        expectRelative(e.maxWeight, p.posterior.maxWeight[e.level], 1e-12, "level max weight");
      }
      for (int c : count) QCOMPARE(c, 1);
    }
  }

  void heldOutSplitIsSeededAndDisjoint() {
    const Dataset data = gaussianSample(100, 3, 1.0, 2);
    const HeldOutSplit a = splitHeldOut(data, 0.2, 9);
    const HeldOutSplit b = splitHeldOut(data, 0.2, 9);
    QCOMPARE(a.heldOut.size(), int64_t{20});
    QCOMPARE(a.prior.size(), int64_t{80});
    QCOMPARE(a.heldOut.values, b.heldOut.values);
    // The parts are the engine's one seeded split (util/seeded_split.h), row for row.
    const RowSplit rows = seededSplit(100, 20, 9);
    QCOMPARE(a.heldOut.values, selectRows(data, rows.held).values);
    QCOMPARE(a.prior.values, selectRows(data, rows.kept).values);
    for (int64_t i = 0; i < a.heldOut.size(); ++i)
      for (int64_t j = 0; j < a.prior.size(); ++j)
        QVERIFY(!std::equal(a.heldOut.sample(i), a.heldOut.sample(i) + 3, a.prior.sample(j)));
    QVERIFY_THROWS_EXCEPTION(InputError, splitHeldOut(data, 1.0, 0));
    QVERIFY_THROWS_EXCEPTION(InputError,
                             computeHeldOutProfile(data, gaussianSample(5, 4, 1.0, 1), grid()));
  }

  void tooFewSamplesIsAnInputError() {
    const Dataset one = makeDataset(1, 3, {0.f, 1.f, 2.f});
    QVERIFY_THROWS_EXCEPTION(InputError, computeGaussianProfile(one, grid()));
  }
};

QTEST_APPLESS_MAIN(TestBracketProfiles)
#include "test_bracket_profiles.moc"
