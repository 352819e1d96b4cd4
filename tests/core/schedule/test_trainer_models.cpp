// The effective allocation φ each (tool, model, family) trains, checked against the tool's own
// code: draws made by a few-line transcription of the tool's draw (file and function named per
// case), each weighted by the tool's loss weight times its prediction's x0 factor, histogrammed on
// 16 coarse log-σ bins and compared with the φ `fit` reports for the same knobs (TV within 0.03).
#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>

#include "schedule/trainer_fit.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kDraws = 400000;
constexpr int kCoarseBins = 16;
const double kLow = std::log(0.002), kHigh = std::log(80.0);

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// SD's scaled-linear table: σ_k and SNR_k = 1/σ_k² (diffusers DDPMScheduler, beta_schedule
// "scaled_linear", 0.00085 … 0.012, 1000 steps).
double ddpmSigma2(int k) {
  static const std::vector<double> table = [] {
    std::vector<double> t;
    double alphaBar = 1.0;
    for (int i = 0; i < 1000; ++i) {
      const double r = std::sqrt(0.00085) + (std::sqrt(0.012) - std::sqrt(0.00085)) * i / 999.0;
      alphaBar *= 1.0 - r * r;
      t.push_back((1.0 - alphaBar) / alphaBar);
    }
    return t;
  }();
  return table[std::clamp(k, 0, 999)];
}

double shift(double t, double a) {
  return a * t / (1.0 + (a - 1.0) * t);
}
// training_utils.py compute_density_for_timestep_sampling, "mode".
double modeDraw(double u, double s) {
  return 1.0 - u - s * (std::pow(std::cos(kPi * u / 2.0), 2.0) - 1.0 + u);
}

// One weighted draw: σ and the weight on x0-space error the tool's loss gives it.
struct Draw {
  double sigma, weight;
};
Draw flowDraw(double t, double x0Weight) {
  return {t / (1.0 - t), x0Weight};
}

struct Case {
  std::string tool, model, weighting, family;
  std::vector<double> params;
  std::function<Draw(std::mt19937_64&)> draw;
};

std::vector<Case> cases() {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  auto randint = [](std::mt19937_64& g, int lo, int hi) {  // torch.randint(lo, hi)
    return std::uniform_int_distribution<int>(lo, hi - 1)(g);
  };
  std::vector<Case> c;

  // diffusers SD3 (examples/dreambooth/train_dreambooth_lora_sd3.py, main's loop): idx =
  // (u·1000).long() into the scheduler's sigmas, linspace(1, 1000)[::-1]/1000 shifted by 3;
  // --precondition_outputs 1: x0 loss, times compute_loss_weighting_for_sd3.
  auto sd3Table = [](double u) {
    const int idx = std::min(static_cast<int>(u * 1000.0), 999);
    return shift((1000.0 - idx) / 1000.0, 3.0);
  };
  c.push_back({"diffusers", "sd3", "", "logit_normal", {0.3, 1.1}, [=](auto& g) mutable {
                 return flowDraw(sd3Table(sigmoid(0.3 + 1.1 * normal(g))), 1.0);
               }});
  c.push_back({"diffusers", "sd3", "", "mode", {0.8}, [=](auto& g) mutable {
                 return flowDraw(sd3Table(modeDraw(uniform(g), 0.8)), 1.0);
               }});
  c.push_back({"diffusers", "sd3", "", "cosmap", {}, [=](auto& g) mutable {
                 const double t = sd3Table(uniform(g));
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)));
               }});
  c.push_back({"diffusers", "sd3", "", "sigma_sqrt", {}, [=](auto& g) mutable {
                 const double t = sd3Table(uniform(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // diffusers Flux (train_dreambooth_lora_flux.py): the same indexing into an unshifted table,
  // velocity target noise − x0 (x0 factor 1/t²).
  auto fluxTable = [](double u) {
    return (1000.0 - std::min(static_cast<int>(u * 1000.0), 999)) / 1000.0;
  };
  c.push_back({"diffusers", "flux", "", "none", {}, [=](auto& g) mutable {
                 const double t = fluxTable(uniform(g));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"diffusers", "flux", "", "logit_normal", {-0.5, 0.8}, [=](auto& g) mutable {
                 const double t = fluxTable(sigmoid(-0.5 + 0.8 * normal(g)));
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // diffusers SD 1.x/SDXL (examples/text_to_image/train_text_to_image.py, main's loop): k =
  // randint(0, 1000); --snr_gamma: min(SNR, γ)/SNR for ε, /(SNR + 1) for v; the ε loss's x0
  // factor is SNR, v's SNR + 1.
  c.push_back({"diffusers", "sd15", "", "uniform", {}, [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000));
                 return Draw{std::sqrt(s2), 1.0 / s2};
               }});
  c.push_back({"diffusers", "sdxl", "snr_gamma", "uniform + snr_gamma", {3.0}, [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), std::min(snr, 3.0) / snr * snr};
               }});
  c.push_back({"diffusers", "sd2-v", "snr_gamma", "uniform + snr_gamma", {5.0}, [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), std::min(snr, 5.0) / (snr + 1.0) * (snr + 1.0)};
               }});

  // sd-scripts SD3 (library/sd3_train_utils.py get_noisy_model_input_and_timesteps): u from the
  // scheme, u = shift(u, training_shift), indices = (u·(t_max − t_min) + t_min).long(), t =
  // indices/1000; sd3_train_network.py get_noise_pred_and_target: x0 loss.
  auto sd3Kohya = [](double u, double a) { return std::floor(shift(u, a) * 1000.0) / 1000.0; };
  c.push_back({"sd-scripts", "sd3", "", "logit_normal", {0.2, 0.9}, [=](auto& g) mutable {
                 return flowDraw(sd3Kohya(sigmoid(0.2 + 0.9 * normal(g)), 1.0), 1.0);
               }});
  c.push_back({"sd-scripts", "sd3", "", "uniform", {3.0}, [=](auto& g) mutable {
                 return flowDraw(sd3Kohya(uniform(g), 3.0), 1.0);
               }});
  c.push_back({"sd-scripts", "sd3", "", "mode", {0.8, 2.0}, [=](auto& g) mutable {
                 return flowDraw(sd3Kohya(modeDraw(uniform(g), 0.8), 2.0), 1.0);
               }});
  c.push_back({"sd-scripts", "sd3", "", "cosmap", {2.0}, [=](auto& g) mutable {
                 const double t = sd3Kohya(uniform(g), 2.0);
                 return flowDraw(t, 2.0 / (kPi * (1.0 - 2.0 * t + 2.0 * t * t)));
               }});
  // sd-scripts Flux (library/flux_train_utils.py get_noisy_model_input_and_timesteps, "shift"):
  // t = shift(sigmoid(s·z), a), continuous; --model_prediction_type raw: velocity.
  c.push_back({"sd-scripts", "flux", "", "shift", {1.0, 3.0}, [=](auto& g) mutable {
                 const double t = shift(sigmoid(normal(g)), 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // sd-scripts SD 1.x/SDXL (library/train_util.py get_noise_noisy_latents_and_timesteps: randint
  // (min_timestep, max_timestep); library/custom_train_functions.py apply_snr_weight,
  // apply_debiased_estimation, scale_v_prediction_loss_like_noise_prediction, SNR capped at 1000
  // in the last two).
  c.push_back({"sd-scripts", "sdxl", "", "timestep_window", {200, 800}, [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 200, 800));
                 return Draw{std::sqrt(s2), 1.0 / s2};
               }});
  c.push_back(
      {"sd-scripts", "sdxl", "min_snr_gamma", "uniform + min_snr_gamma", {2.0}, [=](auto& g) {
         const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
         return Draw{std::sqrt(s2), std::min(snr, 2.0) / snr * snr};
       }});
  c.push_back({"sd-scripts",
               "sd15",
               "debiased_estimation_loss",
               "uniform + debiased_estimation_loss",
               {},
               [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), snr / std::sqrt(std::min(snr, 1000.0))};
               }});
  c.push_back({"sd-scripts",
               "sd2-v",
               "debiased_estimation_loss",
               "uniform + debiased_estimation_loss",
               {},
               [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), (snr + 1.0) / (std::min(snr, 1000.0) + 1.0)};
               }});
  c.push_back({"sd-scripts",
               "sdxl-v",
               "scale_v_pred_loss_like_noise_pred",
               "uniform + scale_v_pred_loss_like_noise_pred",
               {},
               [=](auto& g) {
                 const double s2 = ddpmSigma2(randint(g, 0, 1000)), snr = 1.0 / s2;
                 const double capped = std::min(snr, 1000.0);
                 return Draw{std::sqrt(s2), capped / (capped + 1.0) * (snr + 1.0)};
               }});

  // OneTrainer (modules/modelSetup/mixin/ModelSetupNoiseMixin.py _get_timestep_discrete: x·1000
  // shifted to 1000·a·x/((a − 1)·x + 1000), .int(); ModelSetupFlowMatchingMixin.py
  // _add_noise_discrete: t = (k + 1)/1000, velocity target, x0 factor 1/t²).
  auto oneTrainerFlow = [](double x, double a) {
    const double scaled = 1000.0 * x;
    const int k = static_cast<int>(1000.0 * a * scaled / ((a - 1.0) * scaled + 1000.0));
    return (k + 1) / 1000.0;
  };
  // Flux's dynamic shift at 1024×1024: (1024/8/2)² = 4096 tokens, μ on the line through
  // (256, 0.5) and (4096, 1.15) (FluxModel.calculate_timestep_shift).
  const double fluxShift = std::exp(1.15);
  c.push_back({"onetrainer", "flux", "", "LOGIT_NORMAL", {-0.3, 0.2}, [=](auto& g) mutable {
                 const double t = oneTrainerFlow(sigmoid(-0.3 + 1.2 * normal(g)), fluxShift);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"onetrainer", "sd3", "", "UNIFORM", {3.0}, [=](auto& g) mutable {
                 const double t = oneTrainerFlow(uniform(g), 3.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back({"onetrainer", "chroma", "", "HEAVY_TAIL", {0.5, 2.0}, [=](auto& g) mutable {
                 const double t = oneTrainerFlow(modeDraw(uniform(g), 0.5), 2.0);
                 return flowDraw(t, 1.0 / (t * t));
               }});
  c.push_back(
      {"onetrainer", "qwen", "SIGMA", "LOGIT_NORMAL + SIGMA", {0.4, -0.3}, [=](auto& g) mutable {
         const double t = oneTrainerFlow(sigmoid(0.4 + 0.7 * normal(g)), 1.0);
         return flowDraw(t, 1.0 / (t * t) * t);
       }});
  c.push_back({"onetrainer", "sd3", "", "BETA", {3.0, 1.5}, [](auto& g) {
                 std::gamma_distribution<double> a(3.0, 1.0), b(1.5, 1.0);
                 const double x = a(g), y = b(g);
                 const double t = (static_cast<int>(1000.0 * x / (x + y)) + 1) / 1000.0;
                 return flowDraw(t, 1.0 / (t * t));
               }});
  // DDPM models (ModelSetupDiffusionLossMixin.py: __min_snr_weight, __debiased_estimation_weight).
  c.push_back({"onetrainer",
               "sdxl",
               "MIN_SNR_GAMMA",
               "UNIFORM + MIN_SNR_GAMMA",
               {1.0, 4.0},
               [=](auto& g) mutable {
                 const double s2 = ddpmSigma2(static_cast<int>(1000.0 * uniform(g))),
                              snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), std::min(snr, 4.0) / snr * snr};
               }});
  c.push_back({"onetrainer", "sd15", "P2", "UNIFORM + P2", {1.0, 1.0}, [=](auto& g) mutable {
                 const double s2 = ddpmSigma2(static_cast<int>(1000.0 * uniform(g))),
                              snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), snr / (1.0 + snr)};
               }});
  c.push_back({"onetrainer", "sd2-v", "", "LOGIT_NORMAL", {0.5, 0.0}, [=](auto& g) mutable {
                 const double s2 = ddpmSigma2(static_cast<int>(1000.0 * sigmoid(0.5 + normal(g)))),
                              snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), snr + 1.0};
               }});
  c.push_back({"onetrainer",
               "sdxl-v",
               "DEBIASED_ESTIMATION",
               "UNIFORM + DEBIASED_ESTIMATION",
               {1.0},
               [=](auto& g) mutable {
                 const double s2 = ddpmSigma2(static_cast<int>(1000.0 * uniform(g))),
                              snr = 1.0 / s2;
                 return Draw{std::sqrt(s2), (snr + 1.0) / std::sqrt(snr + 1.0)};
               }});
  return c;
}

const TrainerFamily& familyOf(const TrainerTool& tool, const std::string& name) {
  for (const auto& f : tool.families)
    if (f.name == name) return f;
  throw std::runtime_error("no family '" + name + "' in " + tool.name + " " + tool.model);
}

int coarseBin(double logSigma) {
  return std::clamp(static_cast<int>((logSigma - kLow) / (kHigh - kLow) * kCoarseBins), 0,
                    kCoarseBins - 1);
}

// φ per coarse bin from the tool's own draws (inside 0.002 … 80), normalised.
std::vector<double> realisedPhi(const Case& c) {
  std::mt19937_64 generator(31);
  std::vector<double> phi(kCoarseBins, 0.0);
  double total = 0.0;
  for (int i = 0; i < kDraws; ++i) {
    const Draw d = c.draw(generator);
    if (!(d.sigma > 0.0)) continue;
    const double l = std::log(d.sigma);
    if (l < kLow || l >= kHigh) continue;
    phi[coarseBin(l)] += d.weight;
    total += d.weight;
  }
  for (auto& p : phi) p /= total;
  return phi;
}

// φ the fit reports for the same knobs, on fit's 256-bin grid, gathered into the coarse bins.
std::vector<double> reportedPhi(const Case& c) {
  TrainerSettings settings;
  settings.model = c.model;
  settings.lossWeighting = c.weighting;
  const TrainerTool tool = trainerTool(c.tool, settings);
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
  const auto masses = familyAllocationMasses(tool, familyOf(tool, c.family), c.params, grid);
  std::vector<double> phi(kCoarseBins, 0.0);
  for (int b = 0; b < grid.bins(); ++b) phi[coarseBin(grid.center(b))] += masses[b];
  return phi;
}

}  // namespace

class TestTrainerModels : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void realisedPhiMatchesTheReportedPhi() {
    for (const auto& c : cases()) {
      const auto realised = realisedPhi(c), reported = reportedPhi(c);
      double tv = 0.0;
      for (int b = 0; b < kCoarseBins; ++b) tv += 0.5 * std::abs(realised[b] - reported[b]);
      const QByteArray name = QByteArray::fromStdString(c.tool + " " + c.model + " " + c.family);
      qInfo("%s: TV %.4f", name.constData(), tv);
      QVERIFY2(tv < 0.03, name + " TV " + QByteArray::number(tv));
    }
  }

  void everyModelIsCoveredAndNamed() {
    std::set<std::string> pairs;
    for (const auto& c : cases()) pairs.insert(c.tool + " " + c.model);
    for (const std::string tool : {"diffusers", "sd-scripts", "onetrainer"})
      for (const auto& model : trainerModelNames(tool)) {
        TrainerSettings s;
        s.model = model;
        const TrainerTool t = trainerTool(tool, s);
        QCOMPARE(QString::fromStdString(t.model), QString::fromStdString(model));
        QVERIFY(!t.modelNote.empty());
        QVERIFY2(pairs.count(tool + " " + model),
                 QByteArray::fromStdString(tool + " " + model + " has no realised-φ case"));
      }
  }

  void defaultModelIsTheFirstAndSaid() {
    QCOMPARE(QString::fromStdString(trainerTool("diffusers").model), QString("flux"));
    QCOMPARE(QString::fromStdString(trainerTool("onetrainer").model), QString("flux"));
    QCOMPARE(QString::fromStdString(trainerTool("edm").model), QString("edm"));
  }

  void sd3InDiffusersHasNoNoneAndTrainsX0() {
    TrainerSettings s;
    s.model = "sd3";
    const TrainerTool t = trainerTool("diffusers", s);
    for (const auto& f : t.families) QVERIFY(f.name != "none");
    QCOMPARE(t.lossToX0(0.1), 1.0);
    QVERIFY(QString::fromStdString(familyOf(t, "logit_normal").snippet({0.0, 1.0}))
                .contains("--precondition_outputs 1"));
  }

  void lossWeightingSelectsTheToolsOption() {
    TrainerSettings s;
    s.model = "sdxl";
    s.lossWeighting = "min_snr_gamma";
    const TrainerTool t = trainerTool("sd-scripts", s);
    QVERIFY(!t.families.empty());
    for (const auto& f : t.families)
      QCOMPARE(QString::fromStdString(f.weighting), QString("min_snr_gamma"));
    // Fitting γ recovers a member: min(SNR, 2) on the uniform draw.
    const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
    const TrainerFamily& f = familyOf(t, "uniform + min_snr_gamma");
    const auto target = familyAllocationMasses(t, f, {2.0}, grid);
    const auto fit = fitTrainerFamily(t, f, grid, target);
    QVERIFY2(std::abs(fit.parameters.front().second - 2.0) < 0.02,
             QByteArray::number(fit.parameters.front().second));
    QVERIFY(QString::fromStdString(fit.snippet).contains("--min_snr_gamma 2"));
  }

  void unknownModelAndWeightingNameTheirFlags() {
    TrainerSettings s;
    s.model = "sd3";
    try {
      trainerTool("musubi-tuner", s);
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString("--model"));
      QVERIFY(QString(e.what()).contains("flux"));
    }
    s.model = "sdxl";
    s.lossWeighting = "soft-min-snr";
    try {
      trainerTool("sd-scripts", s);
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString("--loss-weighting"));
      QVERIFY(QString(e.what()).contains("min_snr_gamma"));
    }
  }
};

QTEST_APPLESS_MAIN(TestTrainerModels)
#include "test_trainer_models.moc"
