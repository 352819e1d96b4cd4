// Sample-quality metrics of THEORY §11: the Fréchet distance against Gaussian closed forms, and
// both the Fréchet distance and the k-mer spectrum distance validated on the bundled data —
// held-out data scored against training data is near 0, and the score grows monotonically as
// noise or corruption is added.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTest>

#include <torch/torch.h>

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "data/frechet_distance.h"
#include "data/kmer_spectrum.h"
#include "data/load.h"
#include "data/transforms.h"
#include "io/run_events.h"
#include "test_paths.h"
#include "train/feature_network.h"
#include "train/sample_quality.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::train;

namespace {

std::string sampleFile(const char* rel) {
  return noisescope::test::sourcePath() + "/sample_data/" + rel;
}

// n draws of x = μ + A z (z standard normal) in d dimensions.
std::vector<double> gaussianRows(int64_t n, const std::vector<double>& mu,
                                 const std::vector<double>& a, uint32_t seed) {
  const int64_t d = int64_t(mu.size());
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal;
  std::vector<double> rows;
  std::vector<double> z(static_cast<size_t>(d), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (auto& v : z) v = normal(engine);
    for (int64_t r = 0; r < d; ++r) {
      double x = mu[size_t(r)];
      for (int64_t c = 0; c < d; ++c) x += a[size_t(r * d + c)] * z[size_t(c)];
      rows.push_back(x);
    }
  }
  return rows;
}

GaussianFit exactFit(const std::vector<double>& mu, const std::vector<double>& cov) {
  GaussianFit g;
  g.dimension = int64_t(mu.size());
  g.count = 0;
  g.mean = mu;
  g.covariance = cov;
  return g;
}

at::Tensor rowsOf(const Dataset& d) {
  std::vector<int64_t> shape{d.size()};
  shape.insert(shape.end(), d.sampleShape.begin(), d.sampleShape.end());
  return at::from_blob(const_cast<float*>(d.values.data()), shape, at::kFloat).clone();
}

// Fashion-MNIST images pooled 4×4 → 7×7 = 49 features (a feature space where 500 held-out
// samples give a well-conditioned covariance).
std::vector<double> pooledFeatures(const Dataset& images) {
  std::vector<double> out;
  for (int64_t i = 0; i < images.size(); ++i) {
    const float* x = images.sample(i);
    for (int by = 0; by < 7; ++by)
      for (int bx = 0; bx < 7; ++bx) {
        double s = 0;
        for (int y = 0; y < 4; ++y)
          for (int xx = 0; xx < 4; ++xx) s += x[(by * 4 + y) * 28 + bx * 4 + xx];
        out.push_back(s / 16.0);
      }
  }
  return out;
}

}  // namespace

class TestQualityMetrics : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void frechetClosedForms() {
    // Σ = L Lᵀ, a full (non-diagonal) covariance in 3-D.
    const std::vector<double> mu{0.5, -1.0, 2.0};
    const std::vector<double> cov{2.0, 0.6, 0.2, 0.6, 1.0, -0.3, 0.2, -0.3, 0.5};
    const auto a = exactFit(mu, cov);
    QVERIFY(std::abs(frechetDistance(a, a)) < 1e-10);

    auto shifted = a;
    shifted.mean = {1.5, 1.0, -1.0};  // Δμ = (1, 2, −3): ‖Δμ‖² = 14
    QVERIFY(std::abs(frechetDistance(a, shifted) - 14.0) < 1e-9);

    // Σ₂ = c²Σ₁ commutes with Σ₁: FD = tr Σ₁ (1 − c)².
    auto scaled = a;
    for (auto& v : scaled.covariance) v *= 9.0;  // c = 3
    const double trace = 2.0 + 1.0 + 0.5;
    QVERIFY(std::abs(frechetDistance(a, scaled) - trace * 4.0) < 1e-9);

    // Two diagonal covariances: Σ_k (√λ_k − √ν_k)², plus the mean term.
    auto d1 = exactFit({0, 0}, {4.0, 0, 0, 1.0});
    auto d2 = exactFit({3, 0}, {1.0, 0, 0, 9.0});
    QVERIFY(std::abs(frechetDistance(d1, d2) - (9.0 + 1.0 + 4.0)) < 1e-9);
    // Symmetric in its arguments.
    QVERIFY(std::abs(frechetDistance(d2, d1) - frechetDistance(d1, d2)) < 1e-9);

    // A rank-deficient covariance (what small sample counts give) stays finite and ≥ 0.
    auto singular = exactFit({0, 0}, {1.0, 1.0, 1.0, 1.0});
    const double fd = frechetDistance(singular, singular);
    QVERIFY(std::isfinite(fd) && fd >= 0 && fd < 1e-7);
  }

  void fittedGaussiansConverge() {
    // Fitted from samples, the estimate approaches the closed form as the count grows.
    const std::vector<double> l{1.0, 0, 0, 0.5, 0.8, 0, -0.2, 0.3, 0.6};
    const auto x = gaussianRows(20000, {0, 0, 0}, l, 1);
    const auto y = gaussianRows(20000, {1, 0, 0}, l, 2);
    const double fd = frechetDistance(fitGaussian(x, 3, "x"), fitGaussian(y, 3, "y"));
    QVERIFY2(std::abs(fd - 1.0) < 0.05, qPrintable(QString::number(fd)));
    const auto fx = fitGaussian(x, 3, "x");
    QCOMPARE(fx.count, int64_t(20000));
    QVERIFY(std::abs(fx.covariance[0] - 1.0) < 0.05);
    QVERIFY(std::abs(fx.covariance[1] - 0.5) < 0.05);  // (L Lᵀ)₀₁ = 1·0.5
  }

  void frechetRejectsBadInput() {
    QVERIFY_THROWS_EXCEPTION(InputError, fitGaussian(std::vector<double>{1, 2, 3}, 2, "f"));
    QVERIFY_THROWS_EXCEPTION(InputError, fitGaussian(std::vector<double>{1, 2}, 2, "f"));
    QVERIFY_THROWS_EXCEPTION(InputError,
                             frechetDistance(exactFit({0}, {1}), exactFit({0, 0}, {1, 0, 0, 1})));
  }

  void frechetOnFashionMnistHeldOut() {
    const auto train = loadDataset(sampleFile("fashion-mnist/train-images-idx3-ubyte.gz"));
    const auto test = loadDataset(sampleFile("fashion-mnist/t10k-images-idx3-ubyte.gz"));
    const auto reference = fitGaussian(pooledFeatures(train), 49, "train");
    const double heldOut = frechetDistance(reference, fitGaussian(pooledFeatures(test), 49, "t"));
    // Corruption: each pixel replaced, with probability p, by a uniform value in [−1, 1].
    std::mt19937 engine(3);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<double> scores;
    for (float p : {0.05f, 0.1f, 0.2f, 0.4f, 0.8f}) {
      Dataset noisy = test;
      for (auto& v : noisy.values)
        if (0.5f * (uniform(engine) + 1.0f) < p) v = uniform(engine);
      scores.push_back(frechetDistance(reference, fitGaussian(pooledFeatures(noisy), 49, "n")));
    }
    qInfo("FD held-out %.4f; corrupted 5…80 %%: %.4f %.4f %.4f %.4f %.4f", heldOut, scores[0],
          scores[1], scores[2], scores[3], scores[4]);
    // Near 0: a small fraction of the strongest corruption, and below every corrupted set.
    QVERIFY(heldOut < 0.05 * scores.back());
    QVERIFY(heldOut < scores.front());
    for (size_t i = 1; i < scores.size(); ++i) QVERIFY(scores[i] > scores[i - 1]);
  }

  void kmerClosedForms() {
    // Two windows of 4 bases, one-hot ±1: "ACGT" and "AAAA".
    Dataset a;
    a.kind = SampleKind::Sequence;
    a.sampleShape = {4, 4};
    a.name = "a";
    const int acgt[4] = {0, 1, 2, 3};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) a.values.push_back(j == acgt[i] ? 1.0f : -1.0f);
    QCOMPARE(kmerCounts(a, 1), (std::vector<double>{1, 1, 1, 1}));
    const auto c2 = kmerCounts(a, 2);  // AC = 1, CG = 6, GT = 11 in base 4
    QCOMPARE(c2[1] + c2[6] + c2[11], 3.0);
    QVERIFY(jensenShannonBits({1, 0}, {0, 1}) > 1 - 1e-12);  // disjoint: 1 bit
    QVERIFY(jensenShannonBits({2, 2}, {1, 1}) < 1e-12);      // same distribution
    // JS(½,½ ‖ 1,0) = 1 − ¾·log2(3)/… closed form: H(¼,¾) − ½·H(½,½) = 0.811278 − 0.5.
    QVERIFY(std::abs(jensenShannonBits({1, 1}, {1, 0}) - 0.3112781244591328) < 1e-12);
    const auto same = kmerSpectrumDistance(a, a, 4);
    QCOMPARE(same.jsBits.size(), size_t(4));
    QVERIFY(same.mean < 1e-12);
    // k = 5 has no k-mer in windows of 4 bases: refused by name rather than scored 0.
    QVERIFY_THROWS_EXCEPTION(InputError, kmerSpectrumDistance(a, a, 5));
    Dataset flat = a;
    flat.sampleShape = {16};
    QVERIFY_THROWS_EXCEPTION(InputError, kmerSpectrumDistance(a, flat));
  }

  void kmerOnDnaHeldOut() {
    LoadOptions options;
    options.fasta.window = 64;
    options.fasta.stride = 64;
    const auto all = loadDataset(sampleFile("dna/lambda_phage.fa"), options);
    std::vector<int64_t> trainRows, testRows;
    for (int64_t i = 0; i < all.size(); ++i) (i % 2 == 0 ? testRows : trainRows).push_back(i);
    const auto train = selectRows(all, trainRows);
    const auto test = selectRows(all, testRows);
    const double heldOut = kmerSpectrumDistance(train, test).mean;
    // Corruption: with probability p a base is replaced by a random one. The draws are shared
    // across p (a position corrupted at p is corrupted at every larger p, to the same base), so
    // the scores differ by the corruption and not by the luck of the draw.
    std::mt19937 engine(5);
    std::uniform_real_distribution<double> uniform;
    std::uniform_int_distribution<int> base(0, 3);
    const int64_t positions = test.size() * 64;
    std::vector<double> u(static_cast<size_t>(positions), 0.0);
    std::vector<int> replacement(static_cast<size_t>(positions), 0);
    for (int64_t pos = 0; pos < positions; ++pos) {
      u[size_t(pos)] = uniform(engine);
      replacement[size_t(pos)] = base(engine);
    }
    std::vector<double> scores;
    for (double p : {0.05, 0.1, 0.2, 0.4, 0.8}) {
      Dataset corrupt = test;
      for (int64_t pos = 0; pos < positions; ++pos) {
        if (u[size_t(pos)] >= p) continue;
        for (int j = 0; j < 4; ++j)
          corrupt.values[size_t(4 * pos + j)] = j == replacement[size_t(pos)] ? 1.0f : -1.0f;
      }
      scores.push_back(kmerSpectrumDistance(train, corrupt).mean);
    }
    qInfo("k-mer JS held-out %.4f; substitutions 5…80 %%: %.4f %.4f %.4f %.4f %.4f", heldOut,
          scores[0], scores[1], scores[2], scores[3], scores[4]);
    QVERIFY(heldOut < scores.front());
    QVERIFY(heldOut < 0.5 * scores.back());
    for (size_t i = 1; i < scores.size(); ++i) QVERIFY(scores[i] > scores[i - 1]);
    // Continuous samples are read by their argmax: shrinking the one-hot values keeps the score.
    Dataset soft = test;
    for (auto& v : soft.values) v *= 0.3f;
    QVERIFY(std::abs(kmerSpectrumDistance(train, soft).mean - heldOut) < 1e-12);
  }
  void imageFeatureNetwork() {
    torch::set_num_threads(2);
    const auto train =
        binarize(loadDataset(sampleFile("fashion-mnist/train-images-idx3-ubyte.gz")));
    const auto test = binarize(loadDataset(sampleFile("fashion-mnist/t10k-images-idx3-ubyte.gz")));
    QVERIFY(train.hasLabels() && test.hasLabels());
    const QString path = QDir::tempPath() + "/noisescope_quality_features.pt";
    FeatureNetworkSettings settings;
    settings.epochs = 3;
    QElapsedTimer timer;
    timer.start();
    const auto trained = trainFeatureNetwork(train, test, settings, path.toStdString());
    qInfo("classifier: test accuracy %.3f after %d epochs in %.1f s", trained.testAccuracy,
          int(settings.epochs), timer.elapsed() / 1000.0);
    QVERIFY(trained.testAccuracy > 0.6);  // 10 classes: chance is 0.1

    // The file is reusable on its own: task, accuracy and shape travel with it.
    const FeatureNetwork net(path.toStdString());
    QCOMPARE(QString::fromStdString(net.info().task), QString("classifier"));
    QCOMPARE(net.info().testAccuracy, trained.testAccuracy);
    QCOMPARE(net.info().featureDim, int64_t(64));
    QCOMPARE(net.info().sampleShape, (std::vector<int64_t>{1, 28, 28}));

    const auto reference = net.gaussian(train);
    const double heldOut = frechetDistance(reference, net.gaussian(test));
    // Corruption: each pixel flipped (±1 → ∓1) with probability p, shared draws across p.
    auto gen = at::detail::createCPUGenerator(11);
    const auto x = rowsOf(test);
    const auto u = at::rand(x.sizes(), gen, at::kFloat);
    std::vector<double> scores;
    for (double p : {0.02, 0.05, 0.1, 0.2, 0.4}) {
      const auto flipped = at::where(u < p, -x, x);
      scores.push_back(frechetDistance(reference, net.gaussian(flipped, "flipped")));
    }
    qInfo("feature FD held-out %.3f; flipped 2…40 %%: %.3f %.3f %.3f %.3f %.3f", heldOut, scores[0],
          scores[1], scores[2], scores[3], scores[4]);
    QVERIFY(heldOut < scores.front());
    QVERIFY(heldOut < 0.05 * scores.back());
    for (size_t i = 1; i < scores.size(); ++i) QVERIFY(scores[i] > scores[i - 1]);

    // Images without labels cannot train a classifier; a non-network file is refused by name.
    Dataset unlabelled = train;
    unlabelled.labels.clear();
    QVERIFY_THROWS_EXCEPTION(InputError, trainFeatureNetwork(unlabelled, test, settings, "x.pt"));
    QVERIFY_THROWS_EXCEPTION(InputError, FeatureNetwork(sampleFile("dna/lambda_phage.fa")));
  }

  void dnaFeatureNetwork() {
    torch::set_num_threads(2);
    LoadOptions options;
    options.fasta.window = 64;
    options.fasta.stride = 64;
    const auto all = loadDataset(sampleFile("dna/lambda_phage.fa"), options);
    std::vector<int64_t> trainRows, testRows;
    for (int64_t i = 0; i < all.size(); ++i) (i % 2 == 0 ? testRows : trainRows).push_back(i);
    const auto train = selectRows(all, trainRows);
    const auto test = selectRows(all, testRows);
    const QString path = QDir::tempPath() + "/noisescope_quality_dna_features.pt";
    FeatureNetworkSettings settings;
    settings.epochs = 8;
    settings.batchSize = 32;
    const auto trained = trainFeatureNetwork(train, test, settings, path.toStdString());
    qInfo("masked-base: held-out accuracy %.3f", trained.testAccuracy);
    QVERIFY(trained.testAccuracy > 0.3);  // above the 0.25 of guessing, from context alone
    const FeatureNetwork net(path.toStdString());
    QCOMPARE(QString::fromStdString(net.info().task), QString("masked-base"));

    const auto reference = net.gaussian(train);
    const double heldOut = frechetDistance(reference, net.gaussian(test));
    // Corruption: Gaussian noise on the one-hot values, shared draws across its scale.
    auto gen = at::detail::createCPUGenerator(13);
    const auto x = rowsOf(test);
    const auto eps = at::randn(x.sizes(), gen, at::kFloat);
    std::vector<double> scores;
    for (double s : {0.25, 0.5, 1.0, 2.0})
      scores.push_back(frechetDistance(reference, net.gaussian(x + s * eps, "noisy")));
    qInfo("DNA feature FD held-out %.4f; noise 0.25…2: %.4f %.4f %.4f %.4f", heldOut, scores[0],
          scores[1], scores[2], scores[3]);
    QVERIFY(heldOut < scores.front());
    QVERIFY(heldOut < 0.05 * scores.back());
    for (size_t i = 1; i < scores.size(); ++i) QVERIFY(scores[i] > scores[i - 1]);
  }
  void cliTrainFeaturesAndScore() {
    // The CLI face: train a DNA feature network, then score the held-out windows against
    // themselves (FD and k-mer JS 0) and a missing feature file (exit code 2, file named).
    const QString cli =
        QString::fromStdString(noisescope::test::buildPath()) + "/app/noisescope-cli";
    const QString fasta = QString::fromStdString(sampleFile("dna/lambda_phage.fa"));
    const QString out = QDir::tempPath() + "/noisescope_quality_cli_features.pt";
    QFile::remove(out);
    QProcess train;
    train.start(cli, {"quality", "train-features", fasta, "--window", "64", "--stride", "64",
                      "--epochs", "2", "--threads", "2", "--out", out, "--json"});
    QVERIFY(train.waitForFinished(120000));
    QCOMPARE(train.exitCode(), 0);
    const auto trained = nlohmann::json::parse(train.readAllStandardOutput().toStdString());
    QCOMPARE(trained["task"].get<std::string>(), std::string("masked-base"));
    QCOMPARE(trained["test_samples"].get<int>(), 151);  // a seeded fifth of 757 windows
    QVERIFY(trained["test_accuracy"].get<double>() > 0.25);

    QProcess score;
    score.start(cli, {"quality", "score", fasta, "--window", "64", "--stride", "64", "--features",
                      out, "--samples", fasta, "--json"});
    QVERIFY(score.waitForFinished(120000));
    QCOMPARE(score.exitCode(), 0);
    const auto q = nlohmann::json::parse(score.readAllStandardOutput().toStdString());
    QVERIFY(q["fd"].get<double>() < 1e-9);
    QVERIFY(q["kmer_js"].get<double>() < 1e-12);
    QCOMPARE(q["kmer_js_per_k"].size(), size_t(6));
    QCOMPARE(q["feature_network"].get<std::string>(), out.toStdString());

    QProcess bad;
    bad.start(cli, {"quality", "score", fasta, "--features", out + ".missing", "--samples", fasta});
    QVERIFY(bad.waitForFinished(60000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains(".missing"));
  }
  void realAgainstRealFloor() {
    // The floor: real windows scored as generated ones. Seeded, one subset per draw, positive at
    // small counts and growing with k (the count bias), 0 for a set against itself.
    LoadOptions options;
    options.fasta.window = 64;
    options.fasta.stride = 64;
    const auto all = loadDataset(sampleFile("dna/lambda_phage.fa"), options);
    std::vector<int64_t> trainRows, testRows;
    for (int64_t i = 0; i < all.size(); ++i) (i % 2 == 0 ? testRows : trainRows).push_back(i);
    const auto train = selectRows(all, trainRows);
    const auto test = selectRows(all, testRows);
    const auto draws = realAgainstReal(train, test, 100, 3, 7, true, nullptr);
    QCOMPARE(draws.size(), size_t(3));
    for (const auto& q : draws) {
      QCOMPARE(q.samples, int64_t(100));
      QCOMPARE(q.reference, test.size());
      QVERIFY(std::isnan(q.fd));
      QCOMPARE(q.kmerJsPerK.size(), size_t(6));
      QVERIFY(q.kmerJs > 0.01);
      for (size_t k = 1; k < 6; ++k) QVERIFY(q.kmerJsPerK[k] > q.kmerJsPerK[k - 1]);
    }
    QVERIFY(draws[0].kmerJs != draws[1].kmerJs);  // different subsets
    QCOMPARE(realAgainstReal(train, test, 100, 1, 8, true, nullptr)[0].kmerJs, draws[1].kmerJs);
    QCOMPARE(realAgainstReal(test, test, test.size(), 1, 1, true, nullptr)[0].kmerJs, 0.0);
    QVERIFY_THROWS_EXCEPTION(InputError,
                             realAgainstReal(train, test, train.size() + 1, 1, 1, true, nullptr));
  }
  void cliFloorAtARunsCounts() {
    // quality floor --config: the run's own split (757 windows, 15 % held out), its
    // quality_samples real windows per draw; too many asked for is exit code 2.
    const QString cli =
        QString::fromStdString(noisescope::test::buildPath()) + "/app/noisescope-cli";
    const QString config = QDir::tempPath() + "/noisescope_quality_floor.json";
    {
      std::ofstream f(config.toStdString());
      f << nlohmann::json{{"dataset",
                           {{"path", sampleFile("dna/lambda_phage.fa")},
                            {"fasta_window", 64},
                            {"fasta_stride", 64},
                            {"test_fraction", 0.15}}},
                          {"optim", {{"seed", 2}}},
                          {"eval", {{"quality_samples", 256}}}}
               .dump();
    }
    QProcess floor;
    floor.start(cli, {"quality", "floor", "--config", config, "--repeats", "2", "--json"});
    QVERIFY(floor.waitForFinished(120000));
    QCOMPARE(floor.exitCode(), 0);
    const auto q = nlohmann::json::parse(floor.readAllStandardOutput().toStdString());
    QCOMPARE(q["count"].get<int>(), 256);
    QCOMPARE(q["reference"].get<int>(), 114);
    QCOMPARE(q["train_samples"].get<int>(), 643);
    QCOMPARE(q["seed"].get<int>(), 2000);
    QCOMPARE(q["kmer_js"].size(), size_t(2));
    QCOMPARE(q["kmer_js_per_k"][0].size(), size_t(6));
    QVERIFY(q["kmer_js"][0].get<double>() > 0.01 && q["kmer_js"][0].get<double>() < 0.2);
    QVERIFY(!q.contains("fd"));

    QProcess tooMany;
    tooMany.start(cli, {"quality", "floor", "--config", config, "--count", "644"});
    QVERIFY(tooMany.waitForFinished(60000));
    QCOMPARE(tooMany.exitCode(), 2);
    QVERIFY(tooMany.readAllStandardError().contains("643"));
  }
  void trainerRecordsSampleQuality() {
    // A short DNA run with a feature network: every eval event carries fd, kmer_js, the feature
    // network and the sample count, and the GUI's reader parses them back.
    torch::set_num_threads(2);
    const QString features = QDir::tempPath() + "/noisescope_quality_dna_features.pt";
    QVERIFY2(QFile::exists(features), "dnaFeatureNetwork writes it first");
    const QString dir = QDir::tempPath() + "/noisescope_quality_trainer_run";
    QDir(dir).removeRecursively();
    const auto config = parseTrainConfig(
        nlohmann::json{
            {"dataset",
             {{"path", sampleFile("dna/lambda_phage.fa")},
              {"fasta_window", 64},
              {"fasta_stride", 64},
              {"test_fraction", 0.2}}},
            {"model", {{"channels", 8}, {"blocks", 1}, {"embedding", 16}}},
            {"optim", {{"steps", 20}, {"batch_size", 16}, {"seed", 3}, {"device", "cpu"}}},
            {"noise", {{"sampler", "static"}}},
            {"eval",
             {{"every", 10},
              {"samples", 32},
              {"levels", 6},
              {"heun_steps", 4},
              {"quality_samples", 48},
              {"feature_network", features.toStdString()}}},
            {"checkpoint", {{"every", 20}}}},
        "test config");
    QCOMPARE(QString::fromStdString(config.eval.featureNetwork), features);
    TrainerOptions options;
    options.runDir = dir.toStdString();
    Trainer trainer(config, loadTrainingData(config), options);
    trainer.run();
    std::ifstream in((dir + "/events.jsonl").toStdString());
    int evals = 0;
    int64_t line = 0;
    for (std::string text; std::getline(in, text);) {
      const auto parsed = parseRunEvent(text, "events.jsonl", ++line);
      QVERIFY2(parsed.event, parsed.note.c_str());
      if (parsed.event->kind != RunEvent::Kind::Eval) continue;
      ++evals;
      const auto& e = *parsed.event;
      QVERIFY(std::isfinite(e.fd) && e.fd >= 0);
      QVERIFY(std::isfinite(e.kmerJs) && e.kmerJs > 0 && e.kmerJs <= 1);
      QCOMPARE(e.qualitySamples, int64_t(48));
      QCOMPARE(e.heunSteps, int64_t(4));
      QCOMPARE(QString::fromStdString(e.featureNetwork), features);
      QVERIFY(e.featureAccuracy > 0.25);
    }
    QCOMPARE(evals, 2);

    // Older events without the fields still parse (NaN / empty); a score without its sample
    // count is refused.
    const std::string old =
        R"({"event":"eval","step":5,"sigma":[1,2],"error":[0.1,0.2],"elbo":1,"edm":1,)"
        R"("quality":1,"reference":"elbo","time":1})";
    const auto parsedOld = parseRunEvent(old, "old.jsonl", 1);
    QVERIFY(parsedOld.event);
    QVERIFY(std::isnan(parsedOld.event->fd) && std::isnan(parsedOld.event->kmerJs));
    QVERIFY(parsedOld.event->featureNetwork.empty());
    std::string bad = old;
    bad.insert(bad.size() - 1, R"(,"fd":1.5)");
    QVERIFY(!parseRunEvent(bad, "bad.jsonl", 1).event);

    // A feature network for another shape is refused by name.
    auto wrong = config;
    wrong.eval.featureNetwork =
        (QDir::tempPath() + "/noisescope_quality_features.pt").toStdString();
    QVERIFY(QFile::exists(QString::fromStdString(wrong.eval.featureNetwork)));
    const auto data = loadTrainingData(wrong);
    QVERIFY_THROWS_EXCEPTION(InputError, Evaluator(data.test, wrong.eval, 0.002, 80, 0.9, 1,
                                                   c10::Device(c10::kCPU), true));
  }
};

QTEST_GUILESS_MAIN(TestQualityMetrics)
#include "test_quality_metrics.moc"
