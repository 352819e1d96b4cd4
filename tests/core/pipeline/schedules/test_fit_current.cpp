// fit --current: a real-shaped settings file per tool (OneTrainer and SimpleTuner JSON, ai-toolkit
// YAML, k-diffusion JSON, an sd-scripts TOML, diffusers and musubi-tuner command lines) is read,
// matched to the family it trains with its knobs, measured against a target, and answered with
// the knobs that move; bad files name themselves.
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <tuple>

#include "io/tool_fit_io.h"
#include "pipeline/schedules/fit_current.h"
#include "schedule/trainer_fit.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::io;
using namespace noisescope::pipeline;
using namespace noisescope::schedule;

namespace {

std::string write(const QTemporaryDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
  std::ofstream(path) << text;
  return path;
}

// An ai-toolkit Wan 2.2 14B job on the linear grid with these model_kwargs lines.
std::string wanJob(const QTemporaryDir& dir, const std::string& name,
                   const std::string& modelKwargs) {
  return write(dir, name, R"(config:
  process:
    - train:
        timestep_type: linear
      model:
        arch: wan22_14b
        model_kwargs:
)" + modelKwargs);
}

// A target that one family of the tool realises exactly: the fit must find the way back to it.
FitTarget targetOf(const std::string& tool, const TrainerSettings& settings,
                   const std::string& family, const std::vector<double>& p) {
  const TrainerTool t = trainerTool(tool, settings);
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
  for (const auto& f : t.families)
    if (f.name == family)
      return fitTargetFromSchedule(
          Schedule::fromBinMasses(grid, familyAllocationMasses(t, f, p, grid)),
          tool + " " + family);
  throw std::runtime_error("no family " + family);
}

const CurrentKnobChange* changeOf(const CurrentFit& fit, const std::string& key) {
  for (const auto& c : fit.changes)
    if (c.key == key) return &c;
  return nullptr;
}

}  // namespace

class TestFitCurrent : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private Q_SLOTS:
  void oneTrainerChromaPresetMovesTheParabolaWeight() {
    TrainerSettings s;
    s.model = "chroma";
    const std::string path = write(dir_, "chroma.json", R"({
  "__version": 10,
  "training_method": "LORA",
  "model_type": "CHROMA_1",
  "learning_rate": 0.0003,
  "epochs": 100,
  "timestep_distribution": "INVERTED_PARABOLA",
  "min_noising_strength": 0.0,
  "max_noising_strength": 1.0,
  "noising_weight": 7.7,
  "noising_bias": 0.0,
  "timestep_shift": 1.0,
  "dynamic_timestep_shifting": false,
  "loss_weight_fn": "CONSTANT",
  "loss_weight_strength": 5.0
})");
    const FitTarget target = targetOf("onetrainer", s, "INVERTED_PARABOLA", {0.1, 3.0, 1.5});
    const CurrentFit fit = fitCurrentSettingsFile(target, path, "onetrainer", s);
    QCOMPARE(QString::fromStdString(fit.family), QString("INVERTED_PARABOLA"));
    QCOMPARE(QString::fromStdString(fit.settingsFormat), QString("json"));
    QVERIFY(fit.assumedDefaults.empty());
    QVERIFY(fit.current.tv > 0.05);
    QVERIFY2(fit.bestInFamily.tv < 0.02, QByteArray::number(fit.bestInFamily.tv));
    const auto* weight = changeOf(fit, "noising_weight");
    QVERIFY(weight);
    QCOMPARE(QString::fromStdString(weight->from), QString("7.7"));  // the preset's value
    // Keys that set no draw or loss weight are named, not guessed.
    QVERIFY(std::count(fit.unreadKeys.begin(), fit.unreadKeys.end(), "learning_rate"));
    const QString text = QString::fromStdString(formatCurrentFit(fit));
    QVERIFY2(text.contains("noising_weight: 7.7 -> "), qPrintable(text));
    QVERIFY(text.contains("learning_rate"));
  }

  // A config that keeps part of the 1000 timesteps: the window is read, held and printed back,
  // so the family is recognised and the best fit stays inside the same window.
  void oneTrainerNoisingStrengthWindowIsHeld() {
    TrainerSettings windowed;
    windowed.model = "sdxl";
    windowed.noisingStrengthMin = 0.2;
    windowed.noisingStrengthMax = 0.9;
    const std::string path = write(dir_, "sdxl-window.json", R"({
  "model_type": "STABLE_DIFFUSION_XL_10_BASE",
  "timestep_distribution": "UNIFORM",
  "min_noising_strength": 0.2,
  "max_noising_strength": 0.9,
  "timestep_shift": 1.0,
  "dynamic_timestep_shifting": false
})");
    const FitTarget target = targetOf("onetrainer", windowed, "UNIFORM", {2.5});
    const CurrentFit fit = fitCurrentSettingsFile(target, path, "onetrainer", {});
    QCOMPARE(QString::fromStdString(fit.family), QString("UNIFORM"));
    QVERIFY2(fit.bestInFamily.tv < 0.02, QByteArray::number(fit.bestInFamily.tv));
    QVERIFY(changeOf(fit, "timestep_shift"));
    QVERIFY(!changeOf(fit, "min_noising_strength"));  // held, never a change
    const QString snippet = QString::fromStdString(fit.bestInFamily.snippet);
    QVERIFY2(snippet.contains("\"min_noising_strength\": 0.2"), qPrintable(snippet));
    QVERIFY(snippet.contains("\"max_noising_strength\": 0.9"));
    // The same target read as the whole range is another φ: the window matters.
    const CurrentFit whole = fitCurrentSettingsFile(
        target, write(dir_, "sdxl-whole.json", R"({"model_type": "STABLE_DIFFUSION_XL_10_BASE",
"timestep_distribution": "UNIFORM", "timestep_shift": 2.5})"),
        "onetrainer", {});
    QVERIFY2(whole.current.tv > 0.1, QByteArray::number(whole.current.tv));
    QVERIFY2(fit.current.tv < whole.current.tv, QByteArray::number(fit.current.tv));
    // A window that keeps fewer than two timesteps is the file's error.
    const std::string narrow = write(dir_, "narrow.json", R"({"model_type": "STABLE_DIFFUSION_15",
"timestep_distribution": "UNIFORM", "min_noising_strength": 0.5, "max_noising_strength": 0.5})");
    try {
      fitCurrentSettingsFile(target, narrow, "onetrainer", {});
      QFAIL("a window of no timesteps was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(narrow));
      QVERIFY2(QString(e.what()).contains("min_noising_strength"), e.what());
    }
    // A value that is not a number is the file's error too, naming the key.
    const std::string text = write(dir_, "text.json", R"({"model_type": "STABLE_DIFFUSION_15",
"timestep_distribution": "UNIFORM", "max_noising_strength": "most"})");
    try {
      fitCurrentSettingsFile(target, text, "onetrainer", {});
      QFAIL("a window of text was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(text));
      QVERIFY2(QString(e.what()).contains("max_noising_strength = 'most'"), e.what());
    }
  }

  void simpleTunerDashKeysAndDefaults() {
    const std::string path = write(dir_, "config.json", R"({
  "--model_family": "flux",
  "--model_type": "lora",
  "--learning_rate": 1e-4,
  "--flow_sigmoid_scale": 1.0,
  "--flow_schedule_shift": 3
})");
    const FitTarget target = targetOf("simpletuner", {}, "sigmoid", {0.8, 1.5});
    const CurrentFit fit = fitCurrentSettingsFile(target, path, "simpletuner", {});
    QCOMPARE(QString::fromStdString(fit.family), QString("sigmoid"));
    QVERIFY(changeOf(fit, "flow_schedule_shift"));
    QCOMPARE(QString::fromStdString(changeOf(fit, "flow_schedule_shift")->from), QString("3"));
  }

  // Ideogram 4 in SimpleTuner draws its own schedule: the model from model_family, its two keys.
  void simpleTunerIdeogramSchedule() {
    TrainerSettings ideogram;
    ideogram.model = "ideogram";
    const std::string path = write(dir_, "ideogram.json", R"({
  "model_family": "ideogram",
  "ideogram_schedule_mu": 0.0,
  "ideogram_schedule_std": 1.5
})");
    const CurrentFit fit =
        fitCurrentSettingsFile(targetOf("simpletuner", ideogram, "ideogram_schedule", {-0.4, 1.1}),
                               path, "simpletuner", {});
    QCOMPARE(QString::fromStdString(fit.model), QString("ideogram"));
    QCOMPARE(QString::fromStdString(fit.family), QString("ideogram_schedule"));
    QVERIFY2(std::abs(std::stod(changeOf(fit, "ideogram_schedule_mu")->to) + 0.4) < 0.05,
             changeOf(fit, "ideogram_schedule_mu")->to.c_str());
  }

  // OmniGen in SimpleTuner draws sigmoid(N(0, 1)) itself: a config with no draw key trains it.
  void simpleTunerOmniGenOwnDraw() {
    TrainerSettings omnigen;
    omnigen.model = "omnigen";
    const std::string path = write(dir_, "omnigen.json", R"({
  "model_family": "omnigen",
  "model_type": "lora",
  "learning_rate": 1e-4
})");
    const CurrentFit fit = fitCurrentSettingsFile(targetOf("simpletuner", omnigen, "sigmoid", {}),
                                                  path, "simpletuner", {});
    QCOMPARE(QString::fromStdString(fit.model), QString("omnigen"));
    QCOMPARE(QString::fromStdString(fit.family), QString("sigmoid"));
    QVERIFY2(fit.current.tv < 0.02, std::to_string(fit.current.tv).c_str());
    QVERIFY(fit.changes.empty());
  }

  // Sana (and SanaVideo) in SimpleTuner index their own table: no draw key is its uniform draw,
  // and flow_cubic_schedule_weights is read as its cubic family.
  void simpleTunerSanaOwnTable() {
    TrainerSettings sana;
    sana.model = "sana";
    const std::string plain =
        write(dir_, "sanavideo.json", R"({"model_family": "sanavideo", "flow_schedule_shift": 3})");
    const FitTarget target = targetOf("simpletuner", sana, "uniform", {});
    const CurrentFit fit = fitCurrentSettingsFile(target, plain, "simpletuner", {});
    QCOMPARE(QString::fromStdString(fit.model), QString("sana"));
    QCOMPARE(QString::fromStdString(fit.family), QString("uniform"));
    QVERIFY2(fit.current.tv < 0.01, std::to_string(fit.current.tv).c_str());
    // Sana ignores flow_schedule_shift: the key is named as unread, not fitted.
    QVERIFY(std::find(fit.unreadKeys.begin(), fit.unreadKeys.end(), "flow_schedule_shift") !=
            fit.unreadKeys.end());
    const std::string cubic = write(dir_, "sana_cubic.json",
                                    R"({"model_family": "sana",
  "flow_cubic_schedule_weights": [0.2, 1.0, 0.5, 0.1]})");
    QCOMPARE(
        QString::fromStdString(fitCurrentSettingsFile(target, cubic, "simpletuner", {}).family),
        QString("cubic"));
    // Knots that are all zero are no density (SimpleTuner refuses them): the file's error.
    const std::string zeros = write(dir_, "sana_zeros.json",
                                    R"({"model_family": "sana",
  "flow_cubic_schedule_weights": [0, 0, 0]})");
    try {
      fitCurrentSettingsFile(target, zeros, "simpletuner", {});
      QFAIL("all-zero knots were accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(zeros));
      QVERIFY2(QString(e.what()).contains("all zeros"), e.what());
    }
  }

  void aiToolkitJobReadsTheTrainSection() {
    TrainerSettings s;
    s.model = "qwen";
    const std::string path = write(dir_, "job.yaml", R"(job: extension
config:
  name: my_qwen_lora
  process:
    - type: sd_trainer
      training_folder: output
      network:
        type: lora
        linear: 16
      train:
        batch_size: 1
        steps: 3000
        lr: 0.0001
        timestep_type: weighted
        content_or_style: balanced
        optimizer: adamw8bit
      model:
        name_or_path: Qwen/Qwen-Image
        arch: qwen_image
)");
    const FitTarget target = targetOf("ai-toolkit", s, "sigmoid + content", {});
    const CurrentFit fit = fitCurrentSettingsFile(target, path, "ai-toolkit", s);
    QCOMPARE(QString::fromStdString(fit.settingsFormat), QString("yaml"));
    QCOMPARE(QString::fromStdString(fit.family), QString("weighted"));
    QVERIFY(fit.changes.empty());  // weighted has no knob: the answer is another family
    QCOMPARE(QString::fromStdString(fit.bestOverall.family), QString("sigmoid + content"));
    QVERIFY(
        std::count(fit.unreadKeys.begin(), fit.unreadKeys.end(), "config.process.0.model.arch"));
    QVERIFY(QString::fromStdString(formatCurrentFit(fit)).contains("content_or_style: content"));

    // A window under content: the shift grid's U³ index mapped onto [100, 600], both steps read.
    const std::string windowed = write(dir_, "job_window.yaml", R"(config:
  process:
    - type: sd_trainer
      train:
        timestep_type: shift
        content_or_style: content
        min_denoising_steps: 100
        max_denoising_steps: 600
)");
    const CurrentFit w = fitCurrentSettingsFile(target, windowed, "ai-toolkit", s);
    QCOMPARE(QString::fromStdString(w.family), QString("shift + content + window"));
    QVERIFY(w.assumedDefaults.empty());
  }

  // A window whose ends are the wrong way round is the file's error, naming both keys.
  void aiToolkitReversedWindowIsAnError() {
    TrainerSettings flux;
    flux.model = "flux";
    const std::string job = write(dir_, "reversed.yaml", R"(config:
  process:
    - train:
        timestep_type: lognorm_blend
        min_denoising_steps: 800
        max_denoising_steps: 100
      model:
        arch: flux
)");
    try {
      fitCurrentSettingsFile(targetOf("ai-toolkit", flux, "sigmoid", {}), job, "ai-toolkit", {});
      QFAIL("a reversed window was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(job));
      QVERIFY2(QString(e.what()).contains("min_denoising_steps = 800 is above max_denoising_steps"),
               e.what());
    }
  }

  // Wan 2.2 14B: the arch names the model, model_kwargs the expert trained alone.
  void aiToolkitWanExpertIsReadFromModelKwargs() {
    const std::string job = write(dir_, "wan22.yaml", R"(config:
  process:
    - type: sd_trainer
      train:
        timestep_type: linear
        content_or_style: balanced
      model:
        arch: wan22_14b
        model_kwargs:
          train_high_noise: true
          train_low_noise: false
)");
    TrainerSettings high;
    high.model = "wan22-14b-high";
    const CurrentFit fit =
        fitCurrentSettingsFile(targetOf("ai-toolkit", high, "linear", {}), job, "ai-toolkit", {});
    QCOMPARE(QString::fromStdString(fit.model), QString("wan22-14b-high"));
    QVERIFY2(QString::fromStdString(fit.modelSource).contains("train_low_noise false"),
             fit.modelSource.c_str());
    QCOMPARE(QString::fromStdString(fit.family), QString("linear"));
    QVERIFY2(fit.current.tv < 1e-6, QByteArray::number(fit.current.tv));
    for (const auto& key : fit.unreadKeys)  // the expert's keys were read (type is not)
      QVERIFY2(key.find("model_kwargs") == std::string::npos, key.c_str());
    // Both experts off is the file's error.
    const std::string none =
        wanJob(dir_, "wan22_none.yaml",
               "          train_high_noise: false\n          train_low_noise: false\n");
    try {
      fitCurrentSettingsFile(targetOf("ai-toolkit", high, "linear", {}), none, "ai-toolkit", {});
      QFAIL("no expert was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(none));
    }
    // PyYAML reads no/off as false; a word that is not a boolean is the file's error, named.
    const std::string no = wanJob(dir_, "wan22_no.yaml", "          train_low_noise: no\n");
    QCOMPARE(
        QString::fromStdString(
            fitCurrentSettingsFile(targetOf("ai-toolkit", high, "linear", {}), no, "ai-toolkit", {})
                .model),
        QString("wan22-14b-high"));
    const std::string maybe =
        wanJob(dir_, "wan22_maybe.yaml", "          train_high_noise: maybe\n");
    try {
      fitCurrentSettingsFile(targetOf("ai-toolkit", high, "linear", {}), maybe, "ai-toolkit", {});
      QFAIL("a non-boolean model_kwargs value was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(maybe));
      QVERIFY2(QString(e.what()).contains("model_kwargs.train_high_noise"), e.what());
      QVERIFY2(QString(e.what()).contains("not true or false"), e.what());
    }
  }

  void kDiffusionShippedConfig() {
    TrainerSettings s;
    s.width = s.height = 32;
    const std::string path = write(dir_, "config_cifar10.json", R"({
  "model": {
    "type": "image_v1",
    "input_channels": 3,
    "input_size": [32, 32],
    "loss_config": "karras",
    "loss_weighting": "soft-min-snr",
    "sigma_data": 0.5,
    "sigma_min": 1e-2,
    "sigma_max": 80,
    "sigma_sample_density": {"type": "cosine-interpolated"}
  },
  "dataset": {"type": "cifar10", "location": "data"},
  "optimizer": {"type": "adamw", "lr": 1e-4}
})");
    const FitTarget target = targetOf("k-diffusion", s, "lognormal + soft-min-snr", {-0.8, 1.0});
    const CurrentFit fit = fitCurrentSettingsFile(target, path, "k-diffusion", s);
    QCOMPARE(QString::fromStdString(fit.family), QString("cosine-interpolated + soft-min-snr"));
    // noise_d_low and noise_d_high are not in the file: the tool's defaults (32, image_d).
    QCOMPARE(static_cast<int>(fit.assumedDefaults.size()), 2);
    // The target's own draw (or split-lognormal, which holds it) is the tool's best.
    QVERIFY(QString::fromStdString(fit.bestOverall.family).contains("lognormal + soft-min-snr"));
    QVERIFY2(fit.bestOverall.tv < 0.01, QByteArray::number(fit.bestOverall.tv));
    // A σ_d the fit does not assume is named with its flag.
    s.sigmaData = 0.6162;
    try {
      fitCurrentSettingsFile(target, path, "k-diffusion", s);
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(path));
      QVERIFY2(QString(e.what()).contains("sigma_data"), e.what());
    }
  }

  void sdScriptsAdditiveAndUniformReadAsTheirTwins() {
    // --model_prediction_type additive trains raw's velocity error (apply_model_prediction_type),
    // and --weighting_scheme uniform is none: the raw shift family, its knobs read.
    const std::string line = write(dir_, "flux_additive.sh",
                                   "accelerate launch flux_train_network.py --timestep_sampling "
                                   "shift --discrete_flow_shift 2.0 --sigmoid_scale 1.2 "
                                   "--model_prediction_type additive --weighting_scheme uniform\n");
    const FitTarget target = targetOf("sd-scripts", {}, "shift", {1.4, 1.8});
    const CurrentFit fit = fitCurrentSettingsFile(target, line, "sd-scripts", {});
    QCOMPARE(QString::fromStdString(fit.family), QString("shift"));
    QVERIFY(fit.assumedDefaults.empty());
    QCOMPARE(QString::fromStdString(changeOf(fit, "discrete_flow_shift")->from), QString("2"));
    // Another value is not widened: sigma_scaled trains an x0-space loss, its own family.
    const std::string scaled = write(dir_, "flux_scaled.sh",
                                     "flux_train_network.py --timestep_sampling shift "
                                     "--model_prediction_type sigma_scaled\n");
    const CurrentFit s = fitCurrentSettingsFile(target, scaled, "sd-scripts", {});
    QCOMPARE(QString::fromStdString(s.family), QString("shift + sigma_scaled"));
    QVERIFY(s.current.tv > fit.current.tv + 0.1);
  }

  // musubi-tuner's --min_timestep/--max_timestep confine every mode: read, held and printed
  // back, so a windowed sigmoid line is the sigmoid family under that window.
  void musubiTimestepWindowIsHeld() {
    TrainerSettings windowed;
    windowed.timestepMin = 100;
    windowed.timestepMax = 900;
    const FitTarget target = targetOf("musubi-tuner", windowed, "sigmoid", {0.7});
    const std::string line = write(dir_, "musubi_window.txt",
                                   "python src/musubi_tuner/qwen_image_train_network.py "
                                   "--timestep_sampling sigmoid --sigmoid_scale 1.4 "
                                   "--min_timestep 100 --max_timestep 900\n");
    const CurrentFit fit = fitCurrentSettingsFile(target, line, "musubi-tuner", {});
    QCOMPARE(QString::fromStdString(fit.family), QString("sigmoid"));
    QCOMPARE(static_cast<int>(fit.unreadKeys.size()), 0);
    QVERIFY(changeOf(fit, "sigmoid_scale"));
    QVERIFY(!changeOf(fit, "min_timestep"));  // held, never a change
    QVERIFY2(fit.bestInFamily.tv < 0.01, QByteArray::number(fit.bestInFamily.tv));
    const QString snippet = QString::fromStdString(fit.bestInFamily.snippet);
    QVERIFY2(snippet.contains("--min_timestep 100 --max_timestep 900"), qPrintable(snippet));
    // Read as the whole range, the same knobs are another φ.
    const CurrentFit whole = fitCurrentSettingsFile(
        target,
        write(dir_, "musubi_whole.txt", "--timestep_sampling sigmoid --sigmoid_scale 0.7\n"),
        "musubi-tuner", {});
    QVERIFY2(whole.current.tv > fit.bestInFamily.tv + 0.05, QByteArray::number(whole.current.tv));
    // --preserve_distribution_shape is read too; a window the other way round is the file's
    // error, naming the flags.
    const CurrentFit kept = fitCurrentSettingsFile(
        target,
        write(dir_, "musubi_kept.txt",
              "--timestep_sampling sigmoid --min_timestep 100 --max_timestep 900 "
              "--preserve_distribution_shape\n"),
        "musubi-tuner", {});
    QVERIFY(kept.unreadKeys.empty());
    QVERIFY(QString::fromStdString(kept.current.snippet).contains("--preserve_distribution_shape"));
    const std::string reversed = write(dir_, "musubi_reversed.txt",
                                       "--timestep_sampling sigmoid --min_timestep 900 "
                                       "--max_timestep 100\n");
    try {
      fitCurrentSettingsFile(target, reversed, "musubi-tuner", {});
      QFAIL("a reversed window was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(reversed));
      QVERIFY2(QString(e.what()).contains("--min_timestep 900"), e.what());
    }
    // A step that is not an integer, and a flag that is not true or false, name the key.
    for (const auto& [name, text, key] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"musubi_half.toml", "timestep_sampling = \"sigmoid\"\nmin_timestep = 12.5\n",
              "min_timestep"},
             {"musubi_flag.toml",
              "timestep_sampling = \"sigmoid\"\npreserve_distribution_shape = \"maybe\"\n",
              "preserve_distribution_shape"}}) {
      const std::string bad = write(dir_, name, text);
      try {
        fitCurrentSettingsFile(target, bad, "musubi-tuner", {});
        QFAIL(qPrintable(QString::fromStdString(name + " was accepted")));
      } catch (const InputError& e) {
        QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(bad));
        QVERIFY2(QString(e.what()).contains(QString::fromStdString(key)), e.what());
      }
    }
  }

  // sd-scripts' Anima weighs every mode by --weighting_scheme, and its parser defaults to the
  // sigmoid mode; HunyuanImage's to the sigma mode under raw.
  void sdScriptsAnimaAndHunyuanImageLines() {
    TrainerSettings anima;
    anima.model = "anima";
    const FitTarget target = targetOf("sd-scripts", {}, "shift", {1.4, 1.8});
    const std::string weighted = write(dir_, "anima.sh",
                                       "accelerate launch anima_train_network.py "
                                       "--timestep_sampling shift --discrete_flow_shift 3.0 "
                                       "--sigmoid_scale 1.0 --weighting_scheme cosmap\n");
    QCOMPARE(QString::fromStdString(
                 fitCurrentSettingsFile(target, weighted, "sd-scripts", anima).family),
             QString("shift + cosmap"));
    const std::string scale = write(dir_, "anima_scale.sh", "--sigmoid_scale 1.3\n");
    QCOMPARE(
        QString::fromStdString(fitCurrentSettingsFile(target, scale, "sd-scripts", anima).family),
        QString("sigmoid"));
    TrainerSettings hunyuan;
    hunyuan.model = "hunyuan-image";
    const std::string shiftOnly = write(dir_, "hunyuan.sh", "--discrete_flow_shift 4.0\n");
    const CurrentFit h = fitCurrentSettingsFile(target, shiftOnly, "sd-scripts", hunyuan);
    QCOMPARE(QString::fromStdString(h.family), QString("sigma"));
    QVERIFY2(h.current.snippet.find("--model_prediction_type raw") != std::string::npos,
             h.current.snippet.c_str());
  }

  void sdScriptsLeftOutOptionsAreTheParsersDefaults() {
    // flux_train_network.py's parser defaults --model_prediction_type to sigma_scaled and
    // --weighting_scheme to uniform: a line that leaves them out trains the scaled family (an
    // x0-space loss), not raw's velocity, whatever order the families are listed in.
    const FitTarget target = targetOf("sd-scripts", {}, "shift", {1.4, 1.8});
    const std::string line = write(dir_, "flux_defaults.sh",
                                   "accelerate launch flux_train_network.py --timestep_sampling "
                                   "shift --discrete_flow_shift 2.0 --sigmoid_scale 1.2\n");
    const CurrentFit fit = fitCurrentSettingsFile(target, line, "sd-scripts", {});
    QCOMPARE(QString::fromStdString(fit.family), QString("shift + sigma_scaled"));
    QCOMPARE(QString::fromStdString(changeOf(fit, "discrete_flow_shift")->from), QString("2"));
    // The same line with a scheme: its weight on the shift draw.
    const std::string cosmap = write(dir_, "flux_cosmap.sh",
                                     "flux_train_network.py --timestep_sampling shift "
                                     "--discrete_flow_shift 2.0 --sigmoid_scale 1.2 "
                                     "--weighting_scheme cosmap\n");
    QCOMPARE(
        QString::fromStdString(fitCurrentSettingsFile(target, cosmap, "sd-scripts", {}).family),
        QString("shift + sigma_scaled + cosmap"));
    // A line naming no mode trains the parser's sigma mode, under sigma_scaled.
    const std::string sigma =
        write(dir_, "flux_sigma.sh", "flux_train_network.py --discrete_flow_shift 3.1582\n");
    const CurrentFit d = fitCurrentSettingsFile(target, sigma, "sd-scripts", {});
    QCOMPARE(QString::fromStdString(d.family), QString("sigma"));
    QVERIFY2(d.current.snippet.find("--model_prediction_type sigma_scaled") != std::string::npos,
             d.current.snippet.c_str());
    // The sigma mode under raw, or additive (read alike), is its own family: the velocity loss.
    for (const char* prediction : {"raw", "additive"}) {
      const std::string raw =
          write(dir_, std::string("flux_sigma_") + prediction + ".sh",
                std::string("flux_train_network.py --timestep_sampling sigma "
                            "--discrete_flow_shift 3.1582 --model_prediction_type ") +
                    prediction + "\n");
      const CurrentFit r = fitCurrentSettingsFile(target, raw, "sd-scripts", {});
      QCOMPARE(QString::fromStdString(r.family), QString("sigma + raw"));
      QVERIFY(std::abs(r.current.tv - d.current.tv) > 0.05);  // not sigma_scaled's φ
    }
  }

  void sdScriptsTomlAndCommandLines() {
    const std::string toml =
        write(dir_, "flux_lora.toml", R"(pretrained_model_name_or_path = "flux1-dev.safetensors"
network_module = "networks.lora_flux"
learning_rate = 1e-4
timestep_sampling = "shift"
discrete_flow_shift = 3.1582
sigmoid_scale = 1.0
model_prediction_type = "raw"
guidance_scale = 1.0
)");
    const FitTarget target = targetOf("sd-scripts", {}, "shift", {1.4, 1.8});
    const CurrentFit fit = fitCurrentSettingsFile(target, toml, "sd-scripts", {});
    QCOMPARE(QString::fromStdString(fit.settingsFormat), QString("toml"));
    QCOMPARE(QString::fromStdString(fit.family), QString("shift"));
    QCOMPARE(QString::fromStdString(changeOf(fit, "discrete_flow_shift")->from), QString("3.158"));

    // diffusers' SDXL LoRA script with --snr_gamma: the min-SNR family, γ read from the line.
    TrainerSettings sdxl;
    sdxl.model = "sdxl";
    const std::string line =
        write(dir_, "diffusers_sdxl.sh", R"(accelerate launch train_text_to_image_lora_sdxl.py \
  --pretrained_model_name_or_path="stabilityai/stable-diffusion-xl-base-1.0" \
  --resolution=1024 --train_batch_size=1 \
  --snr_gamma=5.0 \
  --learning_rate=1e-04 --lr_scheduler="constant" # a comment
)");
    sdxl.lossWeighting = "snr_gamma";
    const FitTarget sdxlTarget = targetOf("diffusers", sdxl, "uniform + snr_gamma", {2.0});
    sdxl.lossWeighting.clear();
    const CurrentFit d = fitCurrentSettingsFile(sdxlTarget, line, "diffusers", sdxl);
    QCOMPARE(QString::fromStdString(d.settingsFormat), QString("command-line"));
    QCOMPARE(QString::fromStdString(d.family), QString("uniform + snr_gamma"));
    QCOMPARE(QString::fromStdString(changeOf(d, "snr_gamma")->from), QString("5"));
    QVERIFY2(std::abs(std::stod(changeOf(d, "snr_gamma")->to) - 2.0) < 0.1,
             changeOf(d, "snr_gamma")->to.c_str());

    // musubi-tuner: qwen_shift, no knob left out.
    const std::string musubi = write(dir_, "musubi.txt",
                                     "python src/musubi_tuner/qwen_image_train_network.py "
                                     "--timestep_sampling qwen_shift --sigmoid_scale 1.5 "
                                     "--weighting_scheme none --network_dim 32\n");
    const CurrentFit m = fitCurrentSettingsFile(target, musubi, "musubi-tuner", {});
    QCOMPARE(QString::fromStdString(m.family), QString("qwen_shift"));
    QVERIFY(m.assumedDefaults.empty());
    // ... and a shift mode with --weighting_scheme sigma_sqrt: that weight on the shift draw
    // (NetworkTrainer.compute_loss applies it in every mode).
    const std::string weighted = write(dir_, "musubi_sqrt.txt",
                                       "python src/musubi_tuner/wan_train_network.py "
                                       "--timestep_sampling shift --discrete_flow_shift 3.0 "
                                       "--sigmoid_scale 1.0 --weighting_scheme sigma_sqrt\n");
    const CurrentFit w = fitCurrentSettingsFile(target, weighted, "musubi-tuner", {});
    QCOMPARE(QString::fromStdString(w.family), QString("shift + sigma_sqrt"));
    QVERIFY(w.assumedDefaults.empty());
  }

  void theModelIsReadFromTheFileThatNamesIt() {
    // No --model: OneTrainer's model_type and ai-toolkit's model.arch say what is trained.
    TrainerSettings chroma;
    chroma.model = "chroma";
    const FitTarget chromaTarget =
        targetOf("onetrainer", chroma, "INVERTED_PARABOLA", {0.1, 3.0, 1.5});
    const std::string oneTrainer = write(dir_, "chroma_named.json", R"({
  "model_type": "CHROMA_1",
  "timestep_distribution": "INVERTED_PARABOLA",
  "noising_weight": 7.7,
  "noising_bias": 0.0,
  "timestep_shift": 1.0
})");
    const CurrentFit o = fitCurrentSettingsFile(chromaTarget, oneTrainer, "onetrainer", {});
    QCOMPARE(QString::fromStdString(o.model), QString("chroma"));
    QVERIFY2(QString::fromStdString(o.modelSource).contains("model_type = CHROMA_1"),
             o.modelSource.c_str());
    QVERIFY2(QString::fromStdString(formatCurrentFit(o))
                 .contains("onetrainer training chroma (inferred from the file's model_type"),
             formatCurrentFit(o).c_str());
    QCOMPARE(QString::fromStdString(toJson(o).at("model_source").get<std::string>()),
             QString::fromStdString(o.modelSource));

    TrainerSettings qwen;
    qwen.model = "qwen";
    const std::string job = write(dir_, "qwen_named.yaml", R"(config:
  process:
    - type: sd_trainer
      train:
        timestep_type: lognorm_blend
        content_or_style: balanced
      model:
        name_or_path: Qwen/Qwen-Image
        arch: "qwen_image:edit"
)");
    const CurrentFit a =
        fitCurrentSettingsFile(targetOf("ai-toolkit", qwen, "shift", {}), job, "ai-toolkit", {});
    QCOMPARE(QString::fromStdString(a.model), QString("qwen"));
    QCOMPARE(QString::fromStdString(a.family), QString("lognorm_blend"));
    QVERIFY(QString::fromStdString(a.modelSource).contains("model.arch = qwen_image:edit"));
    QVERIFY(!std::count(a.unreadKeys.begin(), a.unreadKeys.end(), "config.process.0.model.arch"));

    // SimpleTuner's model_family: qwen_image trains Qwen-Image's auto shift; SD3 keeps Flux's.
    TrainerSettings qwenSt;
    qwenSt.model = "qwen";
    const FitTarget qwenStTarget = targetOf("simpletuner", qwenSt, "auto_shift", {1.2});
    const std::string stQwen = write(dir_, "qwen_config.json", R"({
  "--model_family": "qwen_image",
  "--model_type": "lora",
  "--flow_schedule_shift": 0,
  "--flow_schedule_auto_shift": true,
  "--flow_sigmoid_scale": 1.0
})");
    const CurrentFit st = fitCurrentSettingsFile(qwenStTarget, stQwen, "simpletuner", {});
    QCOMPARE(QString::fromStdString(st.model), QString("qwen"));
    QCOMPARE(QString::fromStdString(st.family), QString("auto_shift"));
    QVERIFY2(QString::fromStdString(st.modelSource).contains("model_family = qwen_image"),
             st.modelSource.c_str());
    QVERIFY(!std::count(st.unreadKeys.begin(), st.unreadKeys.end(), "model_family"));
    QVERIFY2(st.bestInFamily.tv < 0.01, QByteArray::number(st.bestInFamily.tv));
    const std::string stSd3 =
        write(dir_, "sd3_config.json", R"({"model_family": "sd3", "flow_sigmoid_scale": 1.0})");
    QCOMPARE(QString::fromStdString(
                 fitCurrentSettingsFile(qwenStTarget, stSd3, "simpletuner", {}).model),
             QString("flux"));
    // A family NoiseScope does not model for SimpleTuner: an error naming the file and the value.
    // (Cosmos 2 Image trains an EDM loss in SimpleTuner, cosmos/model.py.)
    const std::string stCosmos =
        write(dir_, "cosmos_config.json",
              R"({"model_family": "cosmos2image", "flow_sigmoid_scale": 1.0})");
    try {
      fitCurrentSettingsFile(qwenStTarget, stCosmos, "simpletuner", {});
      QFAIL("an unknown model_family must not be guessed");
    } catch (const InputError& e) {
      const QString what = e.what();
      QVERIFY2(what.contains("cosmos_config.json") &&
                   what.contains("model_family = cosmos2image") && what.contains("qwen_image"),
               e.what());
    }
    // Wan keeps the common draw: its model_family is read.
    const std::string stWan =
        write(dir_, "wan_config.json", R"({"model_family": "wan", "flow_sigmoid_scale": 1.0})");
    QCOMPARE(QString::fromStdString(
                 fitCurrentSettingsFile(qwenStTarget, stWan, "simpletuner", {}).model),
             QString("wan"));

    // Given, --model wins; a file that names no model is the tool's default, and said.
    QCOMPARE(
        QString::fromStdString(
            fitCurrentSettingsFile(chromaTarget, oneTrainer, "onetrainer", chroma).modelSource),
        QString("as given (--model, or the Export dialog's Model)"));
    const std::string unnamed = write(
        dir_, "unnamed.json", R"({"timestep_distribution": "LOGIT_NORMAL", "noising_bias": 0.2})");
    const CurrentFit u = fitCurrentSettingsFile(chromaTarget, unnamed, "onetrainer", {});
    QCOMPARE(QString::fromStdString(u.model), QString("flux"));
    QVERIFY(QString::fromStdString(u.modelSource).contains("default"));

    // A model NoiseScope does not model is named in the error, not guessed.
    const std::string video =
        write(dir_, "hunyuan.json", R"({"model_type": "HUNYUAN_VIDEO", "timestep_shift": 1.0})");
    try {
      fitCurrentSettingsFile(chromaTarget, video, "onetrainer", {});
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(video));
      QVERIFY2(QString(e.what()).contains("model_type = HUNYUAN_VIDEO"), e.what());
      QVERIFY2(QString(e.what()).contains("--model"), e.what());
    }
    // A file that names its model and no draw option still sets nothing the fit can read.
    const std::string modelOnly = write(dir_, "model_only.json", R"({"model_type": "FLUX_DEV_1"})");
    try {
      fitCurrentSettingsFile(chromaTarget, modelOnly, "onetrainer", {});
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("sets none of"), e.what());
    }
  }

  void diffusersSdxlTimestepBiasRange() {
    // train_text_to_image_sdxl.py with --timestep_bias_strategy range: its integer begin/end are
    // read and moved to the target's.
    TrainerSettings sdxl;
    sdxl.model = "sdxl";
    const std::string line =
        write(dir_, "sdxl_bias.sh", R"(accelerate launch train_text_to_image_sdxl.py \
  --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 \
  --timestep_bias_strategy=range --timestep_bias_multiplier=2.0 \
  --timestep_bias_begin=0 --timestep_bias_end=500
)");
    const FitTarget target = targetOf("diffusers", sdxl, "range", {6.0, 150, 480});
    const CurrentFit d = fitCurrentSettingsFile(target, line, "diffusers", sdxl);
    QCOMPARE(QString::fromStdString(d.family), QString("range"));
    QVERIFY(d.assumedDefaults.empty());
    QVERIFY(d.current.tv > 0.05);
    QVERIFY2(d.bestInFamily.tv < 0.01, QByteArray::number(d.bestInFamily.tv));
    QVERIFY(changeOf(d, "timestep_bias_multiplier"));
    QCOMPARE(QString::fromStdString(changeOf(d, "timestep_bias_multiplier")->from), QString("2"));
    QVERIFY(changeOf(d, "timestep_bias_begin"));
    QCOMPARE(QString::fromStdString(changeOf(d, "timestep_bias_begin")->from), QString("0"));
  }

  void badFilesNameThemselves() {
    const FitTarget target = targetOf("sd-scripts", {}, "shift", {1.4, 1.8});
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"broken.json", "{\"timestep_distribution\": "},
        {"broken.yaml", "train:\n  timestep_type: [unclosed\n"},
        {"broken.toml", "timestep_sampling = \n"},
        {"empty.toml", "# nothing\n"},
        {"quote.txt", "--timestep_sampling 'shift\n"},
        {"other_tool.json", "{\"timestep_distribution\": \"LOGIT_NORMAL\", \"noising_bias\": 0}"},
        {"not_a_number.toml", "timestep_sampling = \"shift\"\ndiscrete_flow_shift = \"three\"\n"},
    };
    for (const auto& [name, text] : bad) {
      const std::string path = write(dir_, name, text);
      try {
        fitCurrentSettingsFile(target, path, "sd-scripts", {});
        QFAIL(qPrintable(QString::fromStdString(name + " was accepted")));
      } catch (const InputError& e) {
        QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(path));
      }
    }
    try {
      fitCurrentSettingsFile(target, dir_.filePath("missing.json").toStdString(), "sd-scripts", {});
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY(QString(e.what()).contains("cannot open"));
    }
  }
};

QTEST_APPLESS_MAIN(TestFitCurrent)
#include "test_fit_current.moc"
