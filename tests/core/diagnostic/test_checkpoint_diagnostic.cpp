// The checkpoint diagnostic: a TorchScript model that is exactly the Gaussian posterior mean must
// give MMSE = D·s²σ²/(s²+σ²) (THEORY §3) through each adapter, and every kind of bad model must be
// refused with an InputError naming the file and the problem. Models are written here with
// torch::jit::Module::define; the ones exported by integrations/python/noisescope/export.py come
// from the Python fixture test (ctest runs it first).
#include <torch/script.h>
#include <QFile>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <random>

#include "data/dataset.h"
#include "diagnostic/checkpoint_diagnostic.h"
#include "tensor/device.h"
#include "test_paths.h"
#include "util/error.h"

using namespace noisescope;

namespace {

constexpr double kScale = 0.5;  // s: the data are N(0, s² I_D)
constexpr int64_t kDim = 8;

Dataset gaussianData(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, static_cast<float>(kScale));
  Dataset data;
  data.name = "gaussian";
  data.source = "test:gaussian";
  data.sampleShape = {kDim};
  data.values.resize(static_cast<size_t>(n * kDim));
  for (float& v : data.values) v = normal(rng);
  return data;
}

QString scratchPath(const QString& name) {
  static QTemporaryDir dir;
  return dir.filePath(name);
}

std::string saveModel(const QString& name, const std::string& source) {
  torch::jit::Module module("__torch__.Fixture");
  module.define(source);
  const std::string path = scratchPath(name).toStdString();
  module.save(path);
  return path;
}

// E[x0 | y] = y·s²/(s²+σ²) written as an x0, ε and v predictor (the last reads z = y/√(1+σ²)).
const char* kPosteriorX0 = R"(
def forward(self, x, sigma):
    s2 = 0.25
    return x * (s2 / (s2 + sigma.view(-1, 1) ** 2))
)";
const char* kPosteriorEps = R"(
def forward(self, x, sigma):
    s2 = 0.25
    sg = sigma.view(-1, 1)
    return x * (sg / (s2 + sg ** 2))
)";
const char* kPosteriorV = R"(
def forward(self, x, sigma):
    s2 = 0.25
    sg = sigma.view(-1, 1)
    alpha = 1.0 / torch.sqrt(1.0 + sg ** 2)
    y = x / alpha
    x0 = y * (s2 / (s2 + sg ** 2))
    return (alpha * x - x0) / (sg * alpha)
)";

double gaussianMmse(double sigma) {
  const double s2 = kScale * kScale;
  return kDim * s2 * sigma * sigma / (s2 + sigma * sigma);
}

void expectGaussianProfile(const std::string& path, Prediction prediction) {
  const Dataset data = gaussianData(20000, 1);
  CheckpointOptions options;
  options.path = path;
  options.prediction = prediction;
  options.grid.levels = 16;
  options.grid.queries = 2000;
  options.grid.seed = 2;
  options.grid.device = "cpu";
  const Profile profile = computeCheckpointProfile(data, options);
  QCOMPARE(profile.kind, std::string("checkpoint"));
  QCOMPARE(profile.primary().name, std::string("x0_error"));
  for (int l = 0; l < profile.levels(); ++l) {
    const double exact = gaussianMmse(profile.sigma[l]);
    const double se = profile.primary().standardError[l];
    // 3.3 se (99.9 %), plus 1 % for the finite evaluation set's own second moment.
    QVERIFY2(std::abs(profile.primary().mean[l] - exact) <= 3.3 * se + 0.01 * exact,
             qPrintable(QString("%1 at sigma %2: %3 vs %4 (se %5)")
                            .arg(toString(prediction))
                            .arg(profile.sigma[l])
                            .arg(profile.primary().mean[l])
                            .arg(exact)
                            .arg(se)));
  }
  const RateSeries* perLogSigma = profile.rate("log_sigma");
  QVERIFY(perLogSigma);
  QVERIFY(std::abs(perLogSigma->value[0] - profile.primary().mean[0] / std::pow(0.002, 2)) <
          1e-9 * perLogSigma->value[0]);
}

void expectRefused(const std::string& path, const QString& problem,
                   Prediction prediction = Prediction::X0) {
  const Dataset data = gaussianData(16, 3);
  CheckpointOptions options;
  options.path = path;
  options.prediction = prediction;
  options.grid.levels = 4;
  options.grid.queries = 8;
  options.grid.device = "cpu";
  try {
    computeCheckpointProfile(data, options);
    QFAIL(qPrintable("accepted a bad model: " + problem));
  } catch (const InputError& e) {
    QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(path));
    QVERIFY2(QString::fromStdString(e.problem()).contains(problem, Qt::CaseInsensitive),
             qPrintable(QString::fromStdString(e.what())));
  }
}

}  // namespace

class TestCheckpointDiagnostic : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // One torch thread: the cases are small, and on a busy machine thread barriers cost more than
  // the arithmetic.
  void initTestCase() { initTorchThreads(1); }

  void gaussianPosteriorMeanGivesTheMmse() {
    expectGaussianProfile(saveModel("x0.pt", kPosteriorX0), Prediction::X0);
  }
  void epsilonAdapter() {
    expectGaussianProfile(saveModel("eps.pt", kPosteriorEps), Prediction::Epsilon);
  }
  void vAdapter() { expectGaussianProfile(saveModel("v.pt", kPosteriorV), Prediction::V); }

  // The same model read through the wrong adapter is not the posterior mean any more.
  void wrongAdapterIsVisible() {
    const Dataset data = gaussianData(2000, 4);
    CheckpointOptions options;
    options.path = saveModel("x0b.pt", kPosteriorX0);
    options.prediction = Prediction::Epsilon;
    options.grid.levels = 4;
    options.grid.queries = 500;
    options.grid.device = "cpu";
    const Profile profile = computeCheckpointProfile(data, options);
    QVERIFY(profile.primary().mean[2] > 1.5 * gaussianMmse(profile.sigma[2]));
  }

  // Produced by tests/python/test_export.py through the Python export helper.
  void pythonExportedModels() {
    const QString dir =
        QString::fromStdString(noisescope::test::buildPath()) + "/tests/fixtures/diagnostic/";
    for (const char* kind : {"x0", "eps", "v"}) {
      const QString path = dir + QString("gaussian_posterior_%1.pt").arg(kind);
      if (!QFile::exists(path))
        QFAIL(qPrintable(path +
                         " is missing: the Python fixture test "
                         "(test_python_noisescope_export) writes it; run the tests with ctest"));
      // The helper wrapped every kind into the x0 convention, so no adapter is needed.
      expectGaussianProfile(path.toStdString(), Prediction::X0);
    }
  }

  void missingFile() {
    expectRefused(scratchPath("nothing-here.pt").toStdString(), "no such file");
  }

  void notTorchScript() {
    const std::string path = scratchPath("garbage.pt").toStdString();
    std::ofstream(path) << "this is not a model";
    expectRefused(path, "not a TorchScript model");
  }

  void wrongArity() {
    expectRefused(saveModel("arity.pt", "def forward(self, x):\n    return x\n"),
                  "forward takes 1");
    expectRefused(saveModel("arity3.pt", "def forward(self, x, sigma, t):\n    return x\n"),
                  "forward takes 3");
  }

  void wrongOutputShape() {
    // Both shapes named: what came back and the dataset's batch.
    expectRefused(saveModel("shape.pt", "def forward(self, x, sigma):\n    return x.sum(1)\n"),
                  "returned shape [2] for the dataset's samples, a batch of shape [2, 8]");
  }

  // A model made for other data: the sample shape it records is not the dataset's, and the
  // message names both before the model runs at all.
  void recordedShapeDiffersFromTheDataset() {
    torch::jit::Module module("__torch__.Fixture");
    module.register_attribute("sample_shape", c10::ListType::ofInts(),
                              c10::IValue(std::vector<int64_t>{1, 28, 28}));
    module.define("def forward(self, x, sigma):\n    return x.view(-1, 1, 28, 28)\n");
    const std::string path = scratchPath("mnist-shaped.pt").toStdString();
    module.save(path);
    expectRefused(path,
                  "made for samples of shape [1, 28, 28], but the dataset's samples have "
                  "shape [8]");
  }

  // The network NoiseScope's trainer exports records its sample shape.
  void failureInsideTheModelNamesTheShapes() {
    torch::jit::Module module("__torch__.Fixture");
    module.register_attribute("sample_shape", c10::ListType::ofInts(),
                              c10::IValue(std::vector<int64_t>{8}));
    module.define("def forward(self, x, sigma):\n    return x.view(-1, 3, 5)\n");
    const std::string path = scratchPath("fails.pt").toStdString();
    module.save(path);
    expectRefused(path,
                  "failed on samples of shape [8] (a batch of shape [2, 8]); the model "
                  "records sample shape [8]");
  }

  void notATensor() {
    expectRefused(saveModel("tuple.pt", "def forward(self, x, sigma):\n    return (x, x)\n"),
                  "expected a Tensor");
  }

  void modelThrows() {
    // A reshape that cannot work for this input: the error is raised inside the model at run time.
    expectRefused(saveModel("throws.pt", R"(
def forward(self, x, sigma):
    return x + x.view(-1, 7, 13).sum()
)"),
                  "failed on samples of shape [8] (a batch of shape [2, 8]); the model records "
                  "no sample shape of its own");
  }

  void nanOutput() {
    expectRefused(
        saveModel("nan.pt", "def forward(self, x, sigma):\n    return x * float('nan')\n"), "NaN");
    // NaN only at large σ: caught by the per-batch check, not only by the first probe.
    expectRefused(saveModel("nanlate.pt", R"(
def forward(self, x, sigma):
    return x / (sigma.view(-1, 1) < 10.0).float()
)"),
                  "NaN or infinity");
  }

  void badPredictionName() {
    QVERIFY_THROWS_EXCEPTION(InputError, predictionFromString("score"));
    QCOMPARE(predictionFromString("eps"), Prediction::Epsilon);
  }
};

QTEST_APPLESS_MAIN(TestCheckpointDiagnostic)
#include "test_checkpoint_diagnostic.moc"
