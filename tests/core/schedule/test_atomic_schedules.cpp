// Atomic schedules from information matrices: the random-feature model on small synthetic sets and
// the checkpoint path on a TorchScript model whose last-layer Gauss–Newton factor is known exactly.
#include <QtTest>

#include <torch/script.h>

#include <cmath>

#include "data/dataset.h"
#include "diagnostic/checkpoint_information.h"
#include "schedule/atomic.h"
#include "schedule/families.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {
std::vector<double> logSpaced(double lo, double hi, int n) {
  std::vector<double> out(n);
  for (int i = 0; i < n; ++i)
    out[i] = std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * i / (n - 1));
  return out;
}

Dataset points(const std::vector<std::vector<float>>& rows) {
  Dataset d;
  d.name = d.source = "test points";
  d.kind = SampleKind::Points;
  d.sampleShape = {static_cast<int64_t>(rows[0].size())};
  for (const auto& r : rows) d.values.insert(d.values.end(), r.begin(), r.end());
  d.validate();
  return d;
}

Dataset circle(int n) {
  std::vector<std::vector<float>> rows;
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * 3.14159265358979 * i / n;
    rows.push_back({float(std::cos(t)), float(std::sin(t))});
  }
  return points(rows);
}
}  // namespace

class TestAtomicSchedules : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void randomFeatureInformationIsPsd();
  void diracMixtureGivesFewCertifiedAtoms();
  void proxyRiskIsNotBelowOptimum();
  void checkpointLastLayerFactorIsExact();
  void checkpointBatchedEstimatorIsUnbiased();
  void checkpointRejectsBadInput();
};

void TestAtomicSchedules::randomFeatureInformationIsPsd() {
  RandomFeatureOptions options;
  options.features = 24;
  options.samples = 400;
  const InformationMatrices info =
      randomFeatureInformation(circle(64), logSpaced(0.01, 20, 8), options);
  QCOMPARE(info.information.size(), std::size_t(8));
  for (const auto& h : info.information) {
    QCOMPARE(h.rows(), Eigen::Index(25));
    QVERIFY((h - h.transpose()).norm() < 1e-12 * h.norm());
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(h);
    QVERIFY(eig.eigenvalues().minCoeff() > -1e-10 * eig.eigenvalues().maxCoeff());
  }
  // The constant feature's diagonal entry is c_out² exactly.
  const double s = info.sigma[3], sd = info.parameters[3].second;
  QVERIFY(std::abs(info.information[3](24, 24) - s * s * sd * sd / (s * s + sd * sd)) < 1e-12);
  // Same seed, same matrices.
  const InformationMatrices again =
      randomFeatureInformation(circle(64), logSpaced(0.01, 20, 8), options);
  QVERIFY((again.information[5] - info.information[5]).norm() == 0.0);
}

void TestAtomicSchedules::diracMixtureGivesFewCertifiedAtoms() {
  const Dataset dirac = points({{-0.8f, 0.3f}, {0.5f, 0.9f}, {0.1f, -0.7f}, {0.9f, -0.2f}});
  RandomFeatureOptions rf;
  rf.features = 32;
  rf.samples = 600;
  const InformationMatrices info = randomFeatureInformation(dirac, logSpaced(0.01, 40, 24), rf);
  AtomicOptions options;
  options.solver.gapTolerance = 1e-8;
  options.solver.maxIterations = 50000;
  const AtomicResult r = designAtomicSchedule(info, options);
  QVERIFY(r.design.converged);
  QVERIFY2(r.design.relativeGap <= 1e-6, std::to_string(r.design.relativeGap).c_str());
  // Finite support, far fewer atoms than candidate levels (Carathéodory bounds it by p(p+1)/2 + 1,
  // here the point is that it is small).
  QVERIFY(r.design.support.size() < 24);
  QVERIFY(r.schedule.isAtomic());
  QVERIFY(!r.schedule.atoms().empty());
  QCOMPARE(r.schedule.info.note("model"), std::string("random-features"));
  QVERIFY(r.schedule.info.note("regime").find("fisher") == 0);
  // Equivalence theorem: every supported level attains the maximum sensitivity.
  for (int g : r.design.support)
    QVERIFY(r.design.sensitivity[g] >= r.design.sensitivityMax * (1 - 1e-4) ||
            r.design.weights[g] < 1e-4);
}

void TestAtomicSchedules::proxyRiskIsNotBelowOptimum() {
  RandomFeatureOptions rf;
  rf.features = 16;
  rf.samples = 300;
  const InformationMatrices info =
      randomFeatureInformation(circle(32), logSpaced(0.01, 40, 16), rf);
  AtomicOptions options;
  options.solver.gapTolerance = 1e-9;
  const AtomicResult r = designAtomicSchedule(info, options);
  const double optimum = r.design.criterion;
  for (const char* preset : {"edm", "log-uniform", "sd3"}) {
    const Schedule s = makePresetSchedule(preset, LogSigmaGrid::uniform(0.005, 60, 128));
    QVERIFY(riskOfSchedule(r, s) >= optimum * (1 - 1e-9));
  }
  // The optimum itself, passed back as a schedule, reproduces R (on this coarse grid no neighbours
  // are close enough to merge, so the atoms sit on the candidate levels).
  QCOMPARE(r.schedule.atoms().size(), r.gridAtoms.size());
  QVERIFY(std::abs(riskOfSchedule(r, r.schedule) / optimum - 1.0) < 1e-9);
}

void TestAtomicSchedules::checkpointLastLayerFactorIsExact() {
  // D(y; σ) = c(σ)·(W·h(σ) + b) with h(σ) = (1, σ, σ²): the reduced Gauss–Newton factor of (W, b)
  // is c²·h̃h̃ᵀ with h̃ = (h, 1), whatever the data.
  torch::jit::Module m("Toy");
  m.register_parameter("head_weight", torch::randn({3, 3}), false);
  m.register_parameter("head_bias", torch::randn({3}), false);
  m.define(R"(
    def forward(self, x, sigma):
        h = torch.stack([torch.ones_like(sigma), sigma, sigma * sigma], dim=1)
        c = sigma / (1.0 + sigma)
        out = (torch.matmul(h, self.head_weight.t()) + self.head_bias) * c.unsqueeze(1)
        return out + 0.0 * x
  )");
  const QString path = QDir::temp().filePath("noisescope_test_toy_denoiser.pt");
  m.save(path.toStdString());
  const Dataset data = points({{0.1f, 0.2f, 0.3f}, {-0.3f, 0.0f, 0.4f}});
  CheckpointInformationOptions options;
  options.samples = 5;
  options.device = "cpu";
  const std::vector<double> sigma = {0.1, 1.0, 3.0};
  const InformationMatrices info = checkpointInformation(path.toStdString(), data, sigma, options);
  QCOMPARE(info.model, std::string("checkpoint-last-layer"));
  for (std::size_t g = 0; g < sigma.size(); ++g) {
    const double s = sigma[g], c = s / (1 + s);
    Eigen::Vector4d h(1.0, s, s * s, 1.0);
    const Eigen::MatrixXd expected = c * c * h * h.transpose();
    QVERIFY2((info.information[g] - expected).norm() < 1e-5 * expected.norm(),
             std::to_string(g).c_str());
  }
  QFile::remove(path);
}

void TestAtomicSchedules::checkpointBatchedEstimatorIsUnbiased() {
  // A 64-row last layer: samples are batched 8 per pass, and the cross terms of the Rademacher
  // estimator must average out to the same factor c²·h̃h̃ᵀ.
  torch::jit::Module m("Wide");
  m.register_parameter("out_weight", torch::randn({64, 3}), false);
  m.register_parameter("out_bias", torch::randn({64}), false);
  m.define(R"(
    def forward(self, x, sigma):
        h = torch.stack([torch.ones_like(sigma), torch.log(sigma), 0.5 * sigma], dim=1)
        return torch.matmul(h, self.out_weight.t()) + self.out_bias + 0.0 * x.sum()
  )");
  const QString path = QDir::temp().filePath("noisescope_test_wide_denoiser.pt");
  m.save(path.toStdString());
  const Dataset data = points({{0.1f, 0.2f}, {-0.3f, 0.4f}});
  CheckpointInformationOptions options;
  options.samples = 512;
  options.batch = 16;
  options.device = "cpu";
  const InformationMatrices info =
      checkpointInformation(path.toStdString(), data, {0.5, 2.0}, options);
  QCOMPARE(info.parameters[1].second, 8.0);  // batch capped at rows / 8
  for (std::size_t g = 0; g < 2; ++g) {
    const double s = info.sigma[g];
    Eigen::Vector4d h(1.0, std::log(s), 0.5 * s, 1.0);
    const Eigen::MatrixXd expected = h * h.transpose();
    QVERIFY2((info.information[g] - expected).norm() < 0.1 * expected.norm(),
             std::to_string(g).c_str());
  }
  QFile::remove(path);
}

void TestAtomicSchedules::checkpointRejectsBadInput() {
  const Dataset data = points({{0.1f, 0.2f}, {0.3f, 0.4f}});
  QVERIFY_THROWS_EXCEPTION(InputError, checkpointInformation("/nonexistent/model.pt", data, {1.0}));
  const QString path = QDir::temp().filePath("noisescope_test_garbage.pt");
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write("not a zip archive");
  f.close();
  QVERIFY_THROWS_EXCEPTION(InputError, checkpointInformation(path.toStdString(), data, {1.0}));
  QFile::remove(path);
}

QTEST_APPLESS_MAIN(TestAtomicSchedules)
#include "test_atomic_schedules.moc"
