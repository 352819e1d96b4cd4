// The atomic design's checkpoint information model: the Gauss–Newton factor of a TorchScript
// model's output layer. Toy models whose factor is known exactly, NoiseScope's own U-Net and
// conv1d networks (whose last 2-D weight is a σ-embedding layer, not the output), the ε and v
// prediction adapters, and the refusal when the output layer cannot be identified.
#include <QDir>
#include <QFile>
#include <QIODevice>
#include <QObject>
#include <QString>
#include <QTest>

#include <torch/script.h>
#include <torch/torch.h>

#include <cmath>
#include <random>

#include "data/dataset.h"
#include "diagnostic/checkpoint_information.h"
#include "train/networks.h"
#include "train/torchscript_export.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {

Dataset points(const std::vector<std::vector<float>>& rows) {
  Dataset d;
  d.name = d.source = "test points";
  d.kind = SampleKind::Points;
  d.sampleShape = {static_cast<int64_t>(rows[0].size())};
  for (const auto& r : rows) d.values.insert(d.values.end(), r.begin(), r.end());
  d.validate();
  return d;
}

Dataset randomSamples(std::vector<int64_t> shape, SampleKind kind, int n, uint32_t seed) {
  Dataset d;
  d.name = d.source = "random samples";
  d.kind = kind;
  d.sampleShape = std::move(shape);
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int64_t dim = 1;
  for (int64_t s : d.sampleShape) dim *= s;
  for (int64_t i = 0; i < n * dim; ++i) d.values.push_back(u(engine));
  d.validate();
  return d;
}

std::string save(torch::jit::Module& m, const char* name) {
  const QString path = QDir::temp().filePath(QString("noisescope_test_%1.pt").arg(name));
  m.save(path.toStdString());
  return path.toStdString();
}

// D(y; σ) = c(σ)·(W·h(σ) + b), h(σ) = (1, σ, σ²): the reduced factor of (W, b) is c²·h̃h̃ᵀ with
// h̃ = (h, 1), whatever the data.
std::string toyModel() {
  torch::manual_seed(3);
  torch::jit::Module m("Toy");
  m.register_parameter("head_weight", torch::randn({3, 3}), false);
  m.register_parameter("head_bias", torch::randn({3}), false);
  m.define(R"(
    def forward(self, x, sigma):
        h = torch.stack([torch.ones_like(sigma), sigma, sigma * sigma], dim=1)
        c = sigma / (1.0 + sigma)
        out = torch.linear(h, self.head_weight, self.head_bias) * c.unsqueeze(1)
        return out + 0.0 * x
  )");
  return save(m, "toy_denoiser");
}

// A NoiseScope network as the trainer exports it.
std::string exported(const train::NetworkSpec& spec, const char* name) {
  torch::manual_seed(5);
  train::Denoiser net(spec, c10::Device(c10::kCPU));
  const QString path = QDir::temp().filePath(QString("noisescope_test_%1.pt").arg(name));
  train::exportTorchScriptDenoiser(net, path.toStdString());
  return path.toStdString();
}

// What the old rule picked: the last 2-D parameter whose name ends in "weight".
std::string lastTwoDimensionalWeight(const std::string& path) {
  torch::jit::Module m = torch::jit::load(path);
  std::string name;
  for (const auto& p : m.named_parameters(true))
    if (p.value.dim() == 2 && p.name.size() >= 6 && p.name.substr(p.name.size() - 6) == "weight")
      name = p.name;
  return name;
}

std::string note(const InformationMatrices& info, const std::string& key) {
  for (const auto& [k, v] : info.notes)
    if (k == key) return v;
  return "";
}

std::string refusal(const std::string& path, const Dataset& data,
                    const CheckpointInformationOptions& options) {
  try {
    checkpointInformation(path, data, {0.5, 1.0}, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class TestCheckpointInformation : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { at::set_num_threads(1); }

  void linearFactorIsExact() {
    const std::string path = toyModel();
    const Dataset data = points({{0.1f, 0.2f, 0.3f}, {-0.3f, 0.0f, 0.4f}});
    CheckpointInformationOptions options;
    options.samples = 5;
    options.device = "cpu";
    const std::vector<double> sigma = {0.1, 1.0, 3.0};
    const InformationMatrices info = checkpointInformation(path, data, sigma, options);
    QCOMPARE(info.model, std::string("checkpoint-last-layer"));
    QCOMPARE(note(info, "parameter"), std::string("head_weight"));
    QCOMPARE(note(info, "bias"), std::string("head_bias"));
    for (std::size_t g = 0; g < sigma.size(); ++g) {
      const double s = sigma[g], c = s / (1 + s);
      Eigen::Vector4d h(1.0, s, s * s, 1.0);
      const Eigen::MatrixXd expected = c * c * h * h.transpose();
      QVERIFY2((info.information[g] - expected).norm() < 1e-5 * expected.norm(),
               std::to_string(g).c_str());
    }
    QFile::remove(QString::fromStdString(path));
  }

  void batchedFactorIsExact() {
    // A 64-row output layer, 16 samples per pass: samples never mix, so the factor is exact.
    torch::manual_seed(4);
    torch::jit::Module m("Wide");
    m.register_parameter("out_weight", torch::randn({64, 3}), false);
    m.register_parameter("out_bias", torch::randn({64}), false);
    m.define(R"(
      def forward(self, x, sigma):
          h = torch.stack([torch.ones_like(sigma), torch.log(sigma), 0.5 * sigma], dim=1)
          return torch.linear(h, self.out_weight, self.out_bias) + 0.0 * x
    )");
    const std::string path = save(m, "wide_denoiser");
    const Dataset data = randomSamples({64}, SampleKind::Points, 2, 1);
    CheckpointInformationOptions options;
    options.samples = 48;
    options.batch = 16;
    options.device = "cpu";
    const InformationMatrices info = checkpointInformation(path, data, {0.5, 2.0}, options);
    QCOMPARE(info.parameters[1].second, 16.0);
    for (std::size_t g = 0; g < 2; ++g) {
      const double s = info.sigma[g];
      Eigen::Vector4d h(1.0, std::log(s), 0.5 * s, 1.0);
      const Eigen::MatrixXd expected = h * h.transpose();
      QVERIFY2((info.information[g] - expected).norm() < 1e-5 * expected.norm(),
               std::to_string(g).c_str());
    }
    QFile::remove(QString::fromStdString(path));
  }

  void unetUsesItsOutputConvNotTheEmbedding() {
    train::NetworkSpec spec;
    spec.kind = "unet";
    spec.sampleShape = {1, 8, 8};
    spec.channels = 8;
    spec.embedding = 16;
    spec.sigmaData = 0.5;
    const std::string path = exported(spec, "unet_denoiser");
    // The old rule's pick is a σ-embedding layer.
    const std::string old = lastTwoDimensionalWeight(path);
    QVERIFY2(old.find("emb") != std::string::npos, old.c_str());

    const Dataset data = randomSamples({1, 8, 8}, SampleKind::Image, 6, 2);
    CheckpointInformationOptions options;
    options.samples = 6;
    options.batch = 4;
    options.device = "cpu";
    const std::vector<double> sigma = {0.2, 1.5};
    const InformationMatrices info = checkpointInformation(path, data, sigma, options);
    QCOMPARE(note(info, "parameter"), std::string("net_out_weight"));
    QCOMPARE(note(info, "bias"), std::string("net_out_bias"));
    QCOMPARE(note(info, "layer"), std::string("conv2d 3x3"));
    // Input patches of the 3×3 conv over 8 channels, plus the bias: 73 columns, 64 positions.
    QCOMPARE(info.information[0].rows(), Eigen::Index(8 * 9 + 1));
    QCOMPARE(info.parameters[4].second, 64.0);
    // D = c_skip·y + c_out·conv(h): J_p = c_out·I at every pixel, so the bias entry is exactly
    // c_out² per pixel, summed over the 64 pixels.
    for (std::size_t g = 0; g < sigma.size(); ++g) {
      const double s = sigma[g], sd = spec.sigmaData;
      const double cOut2 = s * s * sd * sd / (s * s + sd * sd);
      const Eigen::MatrixXd& h = info.information[g];
      QVERIFY2(std::abs(h(72, 72) - 64.0 * cOut2) < 1e-5 * 64.0 * cOut2,
               qPrintable(QString("%1 vs %2").arg(h(72, 72)).arg(64.0 * cOut2)));
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(h);
      QVERIFY(eig.eigenvalues().minCoeff() > -1e-9 * eig.eigenvalues().maxCoeff());
    }
    QFile::remove(QString::fromStdString(path));
  }

  void conv1dUsesItsOutputConv() {
    train::NetworkSpec spec;
    spec.kind = "conv1d";
    spec.sampleShape = {16, 4};
    spec.channels = 8;
    spec.blocks = 2;
    spec.embedding = 16;
    spec.sigmaData = 0.4;
    const std::string path = exported(spec, "conv1d_denoiser");
    QVERIFY(lastTwoDimensionalWeight(path).find("emb") != std::string::npos);
    const Dataset data = randomSamples({16, 4}, SampleKind::Sequence, 5, 3);
    CheckpointInformationOptions options;
    options.samples = 5;
    options.device = "cpu";
    const InformationMatrices info = checkpointInformation(path, data, {0.3}, options);
    QCOMPARE(note(info, "parameter"), std::string("net_out_weight"));
    QCOMPARE(note(info, "layer"), std::string("conv1d 1"));
    QCOMPARE(info.information[0].rows(), Eigen::Index(8 + 1));
    // Four output channels per position, J_p = c_out·I: the bias entry is c_out² × 16 positions.
    const double s = 0.3, sd = 0.4, cOut2 = s * s * sd * sd / (s * s + sd * sd);
    QVERIFY(std::abs(info.information[0](8, 8) - 16.0 * cOut2) < 1e-5 * 16.0 * cOut2);
    QFile::remove(QString::fromStdString(path));
  }

  void predictionAdapterIsApplied() {
    // The same network read as ε or v prediction: x̂0 = y − σ·out, or α·y' − σα·out with the input
    // scaled by α = 1/√(σ²+1). The toy's layer input depends on σ only, so the factor of the x0
    // estimate is that of the x0 reading times σ² (ε) or (σα)² (v).
    const std::string path = toyModel();
    const Dataset data = points({{0.1f, 0.2f, 0.3f}, {-0.3f, 0.0f, 0.4f}});
    const std::vector<double> sigma = {0.1, 1.0, 3.0};
    CheckpointInformationOptions options;
    options.samples = 4;
    options.device = "cpu";
    const InformationMatrices x0 = checkpointInformation(path, data, sigma, options);
    options.prediction = Prediction::Epsilon;
    const InformationMatrices eps = checkpointInformation(path, data, sigma, options);
    options.prediction = Prediction::V;
    const InformationMatrices v = checkpointInformation(path, data, sigma, options);
    QCOMPARE(note(eps, "prediction"), std::string("eps"));
    for (std::size_t g = 0; g < sigma.size(); ++g) {
      const double s = sigma[g], alpha = 1.0 / std::sqrt(s * s + 1.0);
      const Eigen::MatrixXd& base = x0.information[g];
      QVERIFY((eps.information[g] - s * s * base).norm() < 1e-5 * s * s * base.norm());
      const double k = s * alpha * s * alpha;
      QVERIFY((v.information[g] - k * base).norm() < 1e-5 * k * base.norm());
    }
    // At σ = 3 the ε reading carries 9× the information of the x0 one, not the same.
    QVERIFY(eps.information[2].norm() > 8.0 * x0.information[2].norm());
    QFile::remove(QString::fromStdString(path));
  }

  void refusesWhenTheOutputLayerIsUnclear() {
    const Dataset data = points({{0.1f, 0.2f}, {0.3f, 0.4f}});
    CheckpointInformationOptions options;
    options.samples = 2;
    options.device = "cpu";
    torch::manual_seed(6);
    // No layer enters affinely: the output goes through tanh.
    torch::jit::Module bent("Bent");
    bent.register_parameter("head_weight", torch::randn({2, 2}), false);
    bent.register_parameter("head_bias", torch::randn({2}), false);
    bent.define(R"(
      def forward(self, x, sigma):
          return torch.tanh(torch.linear(x, self.head_weight, self.head_bias))
    )");
    const std::string bentPath = save(bent, "bent_denoiser");
    const std::string none = refusal(bentPath, data, options);
    QVERIFY2(none.rfind(bentPath + ": cannot identify the output layer", 0) == 0, none.c_str());
    QVERIFY2(none.find("head_weight") != std::string::npos, none.c_str());  // the candidates
    QVERIFY2(none.find("--parameter NAME") != std::string::npos, none.c_str());
    // Named explicitly, the same layer is used.
    options.parameter = "head_weight";
    QCOMPARE(note(checkpointInformation(bentPath, data, {1.0}, options), "parameter"),
             std::string("head_weight"));
    options.parameter = "head_bias";
    QVERIFY(refusal(bentPath, data, options).find("is not the weight of a linear") !=
            std::string::npos);
    options.parameter = "nothing";
    QVERIFY(refusal(bentPath, data, options).find("no parameter named 'nothing'") !=
            std::string::npos);
    options.parameter.clear();

    // Two heads added: the output is affine in both.
    torch::jit::Module twin("Twin");
    twin.register_parameter("a_weight", torch::randn({2, 2}), false);
    twin.register_parameter("b_weight", torch::randn({2, 2}), false);
    twin.define(R"(
      def forward(self, x, sigma):
          h = torch.tanh(x)
          return torch.linear(h, self.a_weight) + torch.linear(h * h, self.b_weight)
    )");
    const std::string twinPath = save(twin, "twin_denoiser");
    const std::string several = refusal(twinPath, data, options);
    QVERIFY2(several.find("affine in several layers (a_weight, b_weight)") != std::string::npos,
             several.c_str());
    QVERIFY(several.find("--parameter NAME") != std::string::npos);
    QFile::remove(QString::fromStdString(bentPath));
    QFile::remove(QString::fromStdString(twinPath));
  }

  void rejectsBadInput() {
    const Dataset data = points({{0.1f, 0.2f}, {0.3f, 0.4f}});
    QVERIFY_THROWS_EXCEPTION(InputError,
                             checkpointInformation("/nonexistent/model.pt", data, {1.0}));
    const QString path = QDir::temp().filePath("noisescope_test_garbage.pt");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a zip archive");
    f.close();
    QVERIFY_THROWS_EXCEPTION(InputError, checkpointInformation(path.toStdString(), data, {1.0}));
    QFile::remove(path);
  }
};

QTEST_APPLESS_MAIN(TestCheckpointInformation)
#include "test_checkpoint_information.moc"
