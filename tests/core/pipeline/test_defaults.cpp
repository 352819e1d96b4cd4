// The table of defaults (pipeline/defaults.h): its JSON says what the constants say, the gate rules
// decide as THEORY §6 does, and every lower library's own struct default (they cannot include the
// table) is the table's value, so a default changed in one place only fails here.
#include <QObject>
#include <QTest>

#include <string>

#include "diagnostic/diagnostic_options.h"
#include "pipeline/defaults.h"
#include "pipeline/diagnose/held_out_queries.h"
#include "pipeline/report.h"
#include "pipeline/schedules/atomic_design.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "schedule/compare.h"
#include "schedule/entropic.h"
#include "schedule/families.h"
#include "schedule/loss_weight.h"
#include "schedule/sampling_grid.h"
#include "schedule/trainer_families.h"
#include "train/noise_sampler.h"
#include "train/train_config.h"
#include "train/trainer.h"

using namespace noisescope;
namespace d = noisescope::pipeline::defaults;

class TestDefaults : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void jsonRendersTheTable() {
    const nlohmann::json j = d::defaultsJson();
    QCOMPARE(j["format"].get<std::string>(), std::string("noisescope.defaults/1"));
    QCOMPARE(j["grid"]["sigma_min"].get<double>(), d::kSigmaMin);
    QCOMPARE(j["grid"]["sigma_max"].get<double>(), d::kSigmaMax);
    QCOMPARE(j["grid"]["bins"].get<int>(), d::kBins);
    QCOMPARE(j["diagnostic"]["levels"].get<int>(), d::kDiagnosticLevels);
    QCOMPARE(j["diagnostic"]["queries"].get<int64_t>(), d::kDiagnosticQueries);
    QCOMPARE(j["gate"]["c"].get<double>(), d::kGateC);
    QCOMPARE(j["gate"]["n"].get<double>(), d::kGateN);
    QCOMPARE(j["gate"]["auto"]["continuous"].get<double>(), 0.15);
    QCOMPARE(j["gate"]["auto"]["discrete"].get<double>(), 0.2);
    QCOMPARE(j["gate"]["comparison_band"]["empirical"].get<double>(), 0.0);
    QCOMPARE(j["gate"]["comparison_band"]["other"].get<double>(), d::kGateC);
    QCOMPARE(j["sigma_data_fallback"].get<double>(), d::kSigmaDataFallback);
    QCOMPARE(j["min_snr_gamma"].get<double>(), 5.0);
    QCOMPARE(j["trainer_resolution"]["width"].get<int>(), d::kTrainerWidth);
    QCOMPARE(j["held_out"]["share"].get<double>(), d::kHeldOutShare);
    QCOMPARE(j["sampling_grid"]["spec"].get<std::string>(), std::string(d::kSamplingGrid));
    QCOMPARE(j["sampling_grid"]["steps"].get<int>(), d::kSamplingSteps);
    QCOMPARE(j["sampling_grid"]["ratio_margin"].get<double>(), d::kSamplingRatioMargin);
    // The grid library's own defaults are this table's.
    const schedule::SamplingGridSpec grid = schedule::parseSamplingGridSpec(d::kSamplingGrid);
    QCOMPARE(grid.margin, d::kSamplingRatioMargin);
    QCOMPARE(grid.sigmaMin, d::kSigmaMin);
    QCOMPARE(grid.sigmaMax, d::kSigmaMax);
    // Every preset of the schedule library, with its family, all its parameters and its weight.
    const auto& presets = schedule::presets();
    QCOMPARE(j["presets"].size(), presets.size());
    for (size_t i = 0; i < presets.size(); ++i) {
      const nlohmann::json& p = j["presets"][i];
      QCOMPARE(p["name"].get<std::string>(), presets[i].name);
      QCOMPARE(p["family"].get<std::string>(), presets[i].family);
      const schedule::ParameterValues complete =
          schedule::completeParameters(schedule::family(presets[i].family), presets[i].parameters);
      QVERIFY(p["parameters"].get<schedule::ParameterValues>() == complete);
      QCOMPARE(p["loss_weight"].get<std::string>(),
               schedule::presetLossWeight(presets[i].name).name());
    }
    // The trainer's noise section and its base schedule's bins (the Python OnlineSampler's).
    QCOMPARE(j["training"]["noise"].dump(), train::toJson(train::TrainConfig())["noise"].dump());
    QCOMPARE(j["training"]["noise"]["gate_c"].get<std::string>(), std::string("auto"));
    QCOMPARE(j["training"]["base_schedule_bins"].get<int>(), train::kBaseScheduleBins);
    QCOMPARE(d::defaultsJson().dump(), j.dump());  // the same bytes every time
  }

  void gateRules() {
    QCOMPARE(d::autoGateC(false), d::kGateC);
    QCOMPARE(d::autoGateC(true), d::kGateCDiscrete);
    // The trainer resolves gate_c "auto" by the same rule: a config without gate_c gets it.
    for (bool discrete : {false, true}) {
      train::TrainConfig config;
      QVERIFY(!config.noise.gateC.has_value());
      train::resolveNoiseSampler(config, discrete, d::kSigmaDataFallback);
      QCOMPARE(*config.noise.gateC, d::autoGateC(discrete));
    }
    // The empirical prior's MMSE vanishes at small σ by itself: its band needs no gate.
    QCOMPARE(d::comparisonBandGateC("empirical"), 0.0);
    for (const char* kind : {"held-out", "gaussian", "bound", "checkpoint", "table"})
      QCOMPARE(d::comparisonBandGateC(kind), d::kGateC);
  }

  void lowerLibrariesAgreeWithTheTable() {
    const schedule::LogSigmaGrid grid = schedule::LogSigmaGrid::uniform();
    QCOMPARE(grid.sigmaMin(), d::kSigmaMin);
    QCOMPARE(grid.sigmaMax(), d::kSigmaMax);
    QCOMPARE(grid.bins(), d::kBins);
    const schedule::ComparisonOptions compare;
    QCOMPARE(compare.grid.sigmaMin(), d::kSigmaMin);
    QCOMPARE(compare.grid.sigmaMax(), d::kSigmaMax);
    QCOMPARE(compare.bandGateC, d::kGateC);

    const DiagnosticOptions diagnostic;
    QCOMPARE(diagnostic.sigmaMin, d::kSigmaMin);
    QCOMPARE(diagnostic.sigmaMax, d::kSigmaMax);
    QCOMPARE(diagnostic.levels, d::kDiagnosticLevels);
    QCOMPARE(diagnostic.queries, d::kDiagnosticQueries);

    const schedule::InfoNoiseOptions info;
    QCOMPARE(info.gateC, d::kGateC);
    QCOMPARE(info.gateN, d::kGateN);
    QCOMPARE(info.weight.sigmaData, d::kSigmaDataFallback);
    const schedule::SqrtEntropyOptions sqrt;
    QCOMPARE(sqrt.gateN, d::kGateN);
    const schedule::LossWeight weight;
    QCOMPARE(weight.sigmaData, d::kSigmaDataFallback);
    QCOMPARE(weight.gamma, train::NoiseSettings().minSnrGamma);

    const train::TrainConfig config;
    QCOMPARE(config.noise.sigmaMin, d::kSigmaMin);
    QCOMPARE(config.noise.sigmaMax, d::kSigmaMax);
    QCOMPARE(config.noise.gateN, d::kGateN);
    QCOMPARE(config.dataset.testFraction, d::kHeldOutShare);
    const schedule::TrainerSettings trainer;
    QCOMPARE(trainer.width, d::kTrainerWidth);
    QCOMPARE(trainer.height, d::kTrainerHeight);
    const train::AdaptiveSettings adaptive;
    QCOMPARE(adaptive.gateC, d::kGateC);
    QCOMPARE(adaptive.gateN, d::kGateN);
    // The sampler's own defaults are the trainer's noise section's.
    QCOMPARE(adaptive.warmupSteps, config.noise.warmupSteps);
    QCOMPARE(adaptive.refreshEvery, config.noise.refreshEvery);
    QCOMPARE(adaptive.statDecay, config.noise.statDecay);
    QCOMPARE(adaptive.smoothingPasses, config.noise.smoothingPasses);
    QCOMPARE(adaptive.minBinCount, config.noise.minBinCount);
    QCOMPARE(adaptive.uniformMix, config.noise.uniformMix);

    // The pipeline's own structs and recipes.
    QCOMPARE(pipeline::defaultSigmaData().value, d::kSigmaDataFallback);
    QCOMPARE(pipeline::defaultSigmaData().source, std::string("default 0.5 (no data known)"));
    QCOMPARE(pipeline::infoNoiseRecipe().gateC, d::kGateC);
    const pipeline::ScheduleRecipe recipe;
    QCOMPARE(recipe.gateN, d::kGateN);
    const pipeline::HeldOutRequest heldOut;
    QCOMPARE(heldOut.share, d::kHeldOutShare);
    const pipeline::ReportRequest report;
    QCOMPARE(report.scheduleBins, d::kBins);
    const pipeline::AtomicRequest atomic;
    QCOMPARE(atomic.sigmaMin, d::kSigmaMin);
    QCOMPARE(atomic.sigmaMax, d::kSigmaMax);
  }
};

QTEST_APPLESS_MAIN(TestDefaults)
#include "test_defaults.moc"
