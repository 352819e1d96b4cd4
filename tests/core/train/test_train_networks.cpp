// EDM preconditioning formulas, the networks sized to the data, and the TorchScript export: the
// exported module computes what the C++ denoiser computes (THEORY §4 calling convention), and the
// networks, the export and the random-feature information model all run the one preconditioning
// of schedule/preconditioning.h.
#include <QDir>
#include <QObject>
#include <QString>
#include <QTest>

#include <torch/script.h>

#include <cmath>
#include <fstream>

#include "data/statistics.h"
#include "data/synthetic.h"
#include "diagnostic/random_feature_information.h"
#include "schedule/loss_weight.h"
#include "schedule/preconditioning.h"
#include "train/checkpoint.h"
#include "train/dataset_tensor.h"
#include "train/networks.h"
#include "train/torchscript_export.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::train;

namespace {

NetworkSpec specFor(const std::vector<int64_t>& shape, SampleKind kind,
                    const std::string& net = "auto") {
  ModelSettings m;
  m.kind = net;
  m.width = 32;
  m.depth = 2;
  m.channels = 8;
  m.blocks = 3;
  m.embedding = 16;
  return resolveNetworkSpec(m, shape, kind, 0.6, "test");
}

at::Tensor batchOf(const std::vector<int64_t>& shape, int64_t b) {
  std::vector<int64_t> full{b};
  full.insert(full.end(), shape.begin(), shape.end());
  return torch::randn(full);
}

}  // namespace

class TestTrainNetworks : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void preconditioningFormulas() {
    const schedule::EdmPreconditioning p{0.5};
    const schedule::LossWeight edm = schedule::makeLossWeight("edm", 0.5);
    const double sigma = 2.0, sd = 0.5;
    QCOMPARE(p.cSkip(sigma), sd * sd / (sigma * sigma + sd * sd));
    QCOMPARE(p.cOut(sigma), sigma * sd / std::sqrt(sigma * sigma + sd * sd));
    QCOMPARE(p.cIn(sigma), 1.0 / std::sqrt(sigma * sigma + sd * sd));
    QCOMPARE(p.cNoise(sigma), 0.25 * std::log(sigma));
    for (double s : {0.002, 0.1, 1.0, 10.0, 80.0}) {
      // The EDM weight makes the effective target weight one: λ·c_out² = 1.
      QVERIFY(std::abs(edm.at(s) * p.cOut(s) * p.cOut(s) - 1.0) < 1e-12);
      // Unit-variance input: c_in²·(σ² + σ_d²) = 1.
      QVERIFY(std::abs(p.cIn(s) * p.cIn(s) * (s * s + sd * sd) - 1.0) < 1e-12);
      // Unit-variance target: c_skip²σ_d²... the training target (x0 − c_skip·y)/c_out has
      // variance (σ_d²(1−c_skip)² + c_skip²σ²)/c_out² = 1.
      const double cs = p.cSkip(s), co = p.cOut(s);
      QVERIFY(std::abs((sd * sd * (1 - cs) * (1 - cs) + cs * cs * s * s) / (co * co) - 1.0) < 1e-9);
    }
    QCOMPARE(p.cNoise(1.0), 0.0);
  }

  void preconditioningIsOneImplementation() {
    // The code that runs, against the header's coefficients evaluated in double:
    // (a) the network's forward is c_skip·x + c_out·F(c_in·x, c_noise) with F its raw network;
    // (b) the TorchScript export's coefficients and forward are the same;
    // (c) the random-feature information model scales its features by the same c_out.
    torch::manual_seed(11);
    const QString dir = QDir::tempPath() + "/noisescope_train_networks_test";
    QDir().mkpath(dir);
    const std::vector<double> sigmas = {0.002, 0.05, 0.6, 3.0, 80.0};
    for (const auto& [shape, kind] :
         std::vector<std::pair<std::vector<int64_t>, SampleKind>>{{{1, 8, 8}, SampleKind::Image},
                                                                  {{12, 4}, SampleKind::Sequence},
                                                                  {{3}, SampleKind::Points}}) {
      Denoiser d(specFor(shape, kind), c10::Device(c10::kCPU));
      const schedule::EdmPreconditioning& pre = d.preconditioning();
      QCOMPARE(pre.sigmaData, 0.6);
      const int64_t b = int64_t(sigmas.size());
      const auto x = batchOf(shape, b);
      const auto sigma = torch::tensor(std::vector<float>(sigmas.begin(), sigmas.end()));
      std::vector<int64_t> view(x.dim(), 1);
      view[0] = b;
      std::vector<float> skip, out, in, noise;
      for (float s : std::vector<float>(sigmas.begin(), sigmas.end())) {
        skip.push_back(float(pre.cSkip(double(s))));
        out.push_back(float(pre.cOut(double(s))));
        in.push_back(float(pre.cIn(double(s))));
        noise.push_back(float(pre.cNoise(double(s))));
      }
      const auto cSkip = torch::tensor(skip).view(view), cOut = torch::tensor(out).view(view),
                 cIn = torch::tensor(in).view(view), cNoise = torch::tensor(noise);
      torch::NoGradGuard noGrad;
      const auto expected = cSkip * x + cOut * d.network(cIn * x, cNoise);
      const auto got = d.forward(x, sigma);
      const double scale = expected.abs().max().item<double>();
      QVERIFY2((got - expected).abs().max().item<double>() < 1e-5 * scale,
               qPrintable(QString::fromStdString(d.spec().kind)));

      // The export: its c_skip, c_out, c_in, c_noise methods are the header's formulas (compare
      // in double to 1e-15), its raw network is F, and its forward composes them the same way.
      const std::string path = (dir + "/one.pt").toStdString();
      exportTorchScriptDenoiser(d, path);
      auto module = torch::jit::load(path);
      const auto sigma64 = torch::tensor(sigmas, torch::kDouble);
      const std::pair<const char*, double (*)(const schedule::EdmPreconditioning&, double)>
          methods[] = {
              {"c_skip",
               [](const schedule::EdmPreconditioning& p, double s) { return p.cSkip(s); }},
              {"c_out", [](const schedule::EdmPreconditioning& p, double s) { return p.cOut(s); }},
              {"c_in", [](const schedule::EdmPreconditioning& p, double s) { return p.cIn(s); }},
              {"c_noise",
               [](const schedule::EdmPreconditioning& p, double s) { return p.cNoise(s); }}};
      for (const auto& [name, formula] : methods) {
        const auto values = module.run_method(name, sigma64).toTensor();
        for (int64_t i = 0; i < b; ++i) {
          const double want = formula(pre, sigmas[size_t(i)]);
          QVERIFY2(
              std::abs(values[i].item<double>() - want) <= 1e-15 * std::max(1.0, std::abs(want)),
              name);
        }
      }
      const auto rawExported = module.run_method("raw", cIn * x, cNoise).toTensor();
      QVERIFY((rawExported - d.network(cIn * x, cNoise)).abs().max().item<double>() < 1e-5 * scale);
      const auto exported = module.forward({x, sigma}).toTensor();
      QVERIFY((exported - expected).abs().max().item<double>() < 1e-5 * scale);
    }

    // (c) H_g of the random-feature model: its constant feature φ_F = 1 gives
    // H_g[F, F] = c_out(σ_g)², with c_out of the header at the data's measured σ_data.
    const Dataset data =
        makeSynthetic(parseSyntheticSpec("synthetic:gaussian?n=400&d=3&scale=0.7"));
    schedule::RandomFeatureOptions options;
    options.features = 8;
    options.samples = 64;
    const auto h = schedule::randomFeatureInformation(data, sigmas, options);
    const schedule::EdmPreconditioning measured{measureSigmaData(data)};
    for (size_t g = 0; g < sigmas.size(); ++g) {
      const double want = measured.cOut(sigmas[g]) * measured.cOut(sigmas[g]);
      QVERIFY(std::abs(h.information[g](8, 8) - want) < 1e-12 * want);
    }
    options.sigmaData = 0.25;  // a given σ_d is used as given
    const auto given = schedule::randomFeatureInformation(data, sigmas, options);
    const schedule::EdmPreconditioning fixed{0.25};
    for (size_t g = 0; g < sigmas.size(); ++g)
      QVERIFY(std::abs(given.information[g](8, 8) - fixed.cOut(sigmas[g]) * fixed.cOut(sigmas[g])) <
              1e-12 * fixed.cOut(sigmas[g]) * fixed.cOut(sigmas[g]));
  }

  void networksFitTheData() {
    QCOMPARE(specFor({1, 28, 28}, SampleKind::Image).kind, std::string("unet"));
    QCOMPARE(specFor({3, 32, 32}, SampleKind::Image).kind, std::string("unet"));
    QCOMPARE(specFor({200, 4}, SampleKind::Sequence).kind, std::string("conv1d"));
    QCOMPARE(specFor({2}, SampleKind::Points).kind, std::string("mlp"));
    QCOMPARE(specFor({1, 27, 27}, SampleKind::Image).kind, std::string("mlp"));
    QVERIFY_THROWS_EXCEPTION(InputError, specFor({1, 27, 27}, SampleKind::Image, "unet"));
    QVERIFY_THROWS_EXCEPTION(InputError, specFor({5}, SampleKind::Vector, "conv1d"));
    try {
      specFor({1, 27, 27}, SampleKind::Image, "unet");
    } catch (const InputError& e) {
      QVERIFY(std::string(e.what()).find("samples of shape 1×27×27") != std::string::npos);
    }
    // GroupNorm groups: at most 8, and always a divisor of the channel count.
    QCOMPARE(groupNormGroups(64), int64_t{8});
    QCOMPARE(groupNormGroups(12), int64_t{4});
    QCOMPARE(groupNormGroups(3), int64_t{1});
    torch::manual_seed(3);
    for (const auto& [shape, kind] :
         std::vector<std::pair<std::vector<int64_t>, SampleKind>>{{{1, 28, 28}, SampleKind::Image},
                                                                  {{40, 4}, SampleKind::Sequence},
                                                                  {{3}, SampleKind::Points}}) {
      Denoiser d(specFor(shape, kind), c10::Device(c10::kCPU));
      const auto x = batchOf(shape, 4);
      const auto sigma = torch::tensor({0.01f, 0.3f, 2.0f, 50.0f});
      const auto out = d.forward(x, sigma);
      QCOMPARE(out.sizes().vec(), x.sizes().vec());
      QVERIFY(torch::isfinite(out).all().item<bool>());
      // As σ → 0, c_skip → 1 and c_out → 0: the denoiser returns its input.
      const auto tiny = d.forward(x, torch::full({4}, 1e-6f));
      QVERIFY((tiny - x).abs().max().item<double>() < 1e-4);
      QVERIFY(d.parameterCount() > 0);
    }
  }

  void datasetTensorIsACopyInTheSampleShape() {
    Dataset d;
    d.sampleShape = {1, 2, 2};
    d.values = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const at::Tensor all = datasetTensor(d);
    QCOMPARE(all.sizes().vec(), (std::vector<int64_t>{3, 1, 2, 2}));
    QCOMPARE(all[2][0][1][1].item<float>(), 11.0f);
    const at::Tensor first = datasetTensor(d, 2);
    QCOMPARE(first.sizes().vec(), (std::vector<int64_t>{2, 1, 2, 2}));
    d.values[0] = 100.0f;  // the tensor owns its memory
    QCOMPARE(all[0][0][0][0].item<float>(), 0.0f);
  }

  void torchScriptExportMatches() {
    torch::manual_seed(5);
    const QString dir = QDir::tempPath() + "/noisescope_train_networks_test";
    QDir().mkpath(dir);
    for (const auto& [shape, kind] :
         std::vector<std::pair<std::vector<int64_t>, SampleKind>>{{{1, 28, 28}, SampleKind::Image},
                                                                  {{3, 32, 32}, SampleKind::Image},
                                                                  {{40, 4}, SampleKind::Sequence},
                                                                  {{3}, SampleKind::Points}}) {
      Denoiser d(specFor(shape, kind), c10::Device(c10::kCPU));
      const std::string path = (dir + "/exported.pt").toStdString();
      exportTorchScriptDenoiser(d, path);
      auto module = torch::jit::load(path);
      const auto x = batchOf(shape, 3);
      const auto sigma = torch::tensor({0.05f, 1.0f, 20.0f});
      const auto expected = d.forward(x, sigma).detach();
      const auto got = module.forward({x, sigma}).toTensor();
      const double diff = (got - expected).abs().max().item<double>();
      QVERIFY2(diff < 1e-5, qPrintable(QString::fromStdString(d.spec().kind) + " differs by " +
                                       QString::number(diff)));
      QCOMPARE(module.attr("sigma_data").toDouble(), 0.6);
    }
  }

  void checkpointLoaderRejectsOtherFiles() {
    const QString dir = QDir::tempPath() + "/noisescope_train_networks_test";
    QDir().mkpath(dir);
    const std::string junk = (dir + "/junk.ckpt").toStdString();
    std::ofstream(junk) << "not a checkpoint";
    QVERIFY_THROWS_EXCEPTION(InputError, loadCheckpointDenoiser(junk, c10::Device(c10::kCPU)));
    QVERIFY_THROWS_EXCEPTION(InputError,
                             loadCheckpointDenoiser(junk + ".missing", c10::Device(c10::kCPU)));
    // A TorchScript file is a valid archive but not a training checkpoint.
    Denoiser d(specFor({2}, SampleKind::Points), c10::Device(c10::kCPU));
    const std::string ts = (dir + "/model.pt").toStdString();
    exportTorchScriptDenoiser(d, ts);
    QVERIFY_THROWS_EXCEPTION(InputError, loadCheckpointDenoiser(ts, c10::Device(c10::kCPU)));
    // The export records the sample shape it was trained on (checkCheckpoint compares it).
    QCOMPARE(torch::jit::load(ts).attr("sample_shape").toIntVector(), (std::vector<int64_t>{2}));
  }
};

QTEST_APPLESS_MAIN(TestTrainNetworks)
#include "test_train_networks.moc"
