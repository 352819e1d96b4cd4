// The schedule pipeline both faces call: recipes build the schedules the core functions make,
// the provenance records the recipe, the grid, the weight and σ_data with its source; σ_data is
// measured from a known dataset or taken from the profile instead of an assumed 0.5; σ-steps are
// quantiles of φ (ρ for entropic schedules) and their file reads back; the atomic design records
// its settings.
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <random>

#include "data/dataset.h"
#include "data/statistics.h"
#include "io/schedule_io.h"
#include "io/sigma_steps_io.h"
#include "pipeline/sampling/sigma_steps.h"
#include "pipeline/schedules/atomic_design.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "profile/profile.h"
#include "schedule/allocation.h"
#include "schedule/entropic.h"
#include "schedule/families.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::pipeline;
using namespace noisescope::schedule;
using nlohmann::json;

namespace {

// Points spread with σ_data ≈ 1.7, far from the 0.5 the faces used to assume.
Dataset spreadData() {
  std::mt19937 rng(3);
  std::normal_distribution<float> n(0.0f, 1.7f);
  Dataset d;
  d.name = "spread";
  d.sampleShape = {2};
  d.values.resize(64 * 2);
  for (float& v : d.values) v = n(rng);
  return d;
}

// A profile of Gaussian data, as the diagnostic would record it.
Profile gaussianDiagnosticProfile(double sigmaData) {
  const std::vector<double> sigma = {0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0};
  const RateProfile rates = gaussianProfile(1.0, 2, sigma);
  Profile p;
  p.kind = "empirical";
  p.sigma = sigma;
  p.dim = 2;
  p.datasetSize = 100;
  p.queries = 10;
  p.sigmaData = sigmaData;
  MmseEstimate e;
  e.name = "rao_blackwell";
  e.mean = rates.mmse;
  e.standardError.assign(sigma.size(), 0.0);
  e.ciLow = e.ciHigh = e.mean;
  p.estimates.push_back(e);
  p.rates = computeRates(p.sigma, p.primary());
  return p;
}

const LogSigmaGrid kGrid = LogSigmaGrid::uniform(0.002, 80.0, 64);

}  // namespace

class TestSchedulePipeline : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void presetMatchesTheCoreAndRecordsItsRecipe() {
    const BuiltSchedule built = buildSchedule(presetRecipe("edm"), kGrid);
    const Schedule core = makePresetSchedule("edm", kGrid);
    QCOMPARE(built.schedule.binMasses(), core.binMasses());
    QCOMPARE(built.schedule.info.label, core.info.label);
    QVERIFY(built.schedule.lossWeight.kind == LossWeight::Kind::Edm);
    QVERIFY(!built.allocation);
    const json& p = built.parameters;
    QCOMPARE(p["recipe"].get<std::string>(), std::string("preset"));
    QCOMPARE(p["preset"].get<std::string>(), std::string("edm"));
    QCOMPARE(p["family_parameters"]["p_mean"].get<double>(), -1.2);
    QCOMPARE(p["grid"]["bins"].get<int>(), 64);
    QCOMPARE(p["loss_weight"]["kind"].get<std::string>(), std::string("edm"));
    // No data known: the default, and the file says so.
    QCOMPARE(p["sigma_data"].get<double>(), 0.5);
    QCOMPARE(p["sigma_data_source"].get<std::string>(), std::string("default 0.5 (no data known)"));
    const json provenance = scheduleProvenance(built, "test");
    QCOMPARE(provenance["producer"].get<std::string>(), std::string("test"));
    QVERIFY(provenance["parameters"] == p);
  }

  void sigmaDataIsMeasuredFromAKnownDataset() {
    const Dataset data = spreadData();
    const double measured = measureSigmaData(data);
    QVERIFY(std::abs(measured - 0.5) > 0.5);
    RecipeContext context;
    context.datasetSigmaData = measuredSigmaData(data, "spread");
    const BuiltSchedule built = buildSchedule(presetRecipe("edm"), kGrid, context);
    QCOMPARE(built.schedule.lossWeight.sigmaData, measured);
    QCOMPARE(built.parameters["sigma_data_source"].get<std::string>(),
             std::string("measured from spread"));
    // The weight differs from the 0.5 one: the old assumption changed the schedule's φ.
    const Schedule assumed = makePresetSchedule("edm", kGrid);
    QVERIFY(effectiveAllocation(built.schedule).binMasses() !=
            effectiveAllocation(assumed).binMasses());
    // A given value wins over the measured one.
    ScheduleRecipe given = presetRecipe("edm");
    given.sigmaData = 0.25;
    const BuiltSchedule g = buildSchedule(given, kGrid, context);
    QCOMPARE(g.schedule.lossWeight.sigmaData, 0.25);
    QCOMPARE(g.sigmaData.source, std::string("given"));
    given.sigmaData = -1.0;
    QVERIFY_THROWS_EXCEPTION(InputError, buildSchedule(given, kGrid, context));
  }

  void sigmaDataIsWrittenIntoTheScheduleFile() {
    QTemporaryDir dir;
    const Dataset data = spreadData();
    RecipeContext context;
    context.datasetSigmaData = measuredSigmaData(data, "spread");
    const BuiltSchedule built = buildSchedule(presetRecipe("edm"), kGrid, context);
    for (const char* name : {"edm.json", "edm.csv"}) {
      const std::string path = dir.filePath(name).toStdString();
      writeSchedule(path, built.schedule, scheduleProvenance(built, "test"));
      const Schedule back = readSchedule(path);
      QCOMPARE(back.lossWeight.sigmaData, measureSigmaData(data));
      QCOMPARE(back.info.parameter("sigma_data", 0.0), measureSigmaData(data));
      QCOMPARE(back.info.note("sigma_data_source"), std::string("measured from spread"));
    }
  }

  void entropicRecipesUseTheProfileAndItsSigmaData() {
    const Profile profile = gaussianDiagnosticProfile(1.3);
    RecipeContext context;
    context.profile = &profile;
    context.profileSource = "gauss.json";
    const BuiltSchedule info = buildSchedule(infoNoiseRecipe(), kGrid, context);
    InfoNoiseOptions o;
    o.weight = LossWeight{LossWeight::Kind::Edm, 1.3, 5.0};
    const RateProfile rates = rateProfileFrom(profile, "gauss.json");
    QCOMPARE(info.schedule.binMasses(), infoNoiseSchedule(rates, kGrid, o).binMasses());
    QCOMPARE(info.schedule.lossWeight.sigmaData, 1.3);
    QCOMPARE(info.sigmaData.source, std::string("from profile gauss.json"));
    QCOMPARE(info.parameters["profile"].get<std::string>(), std::string("gauss.json"));
    QVERIFY(info.allocation);
    QCOMPARE(info.allocation->binMasses(), infoNoiseAllocation(rates, kGrid, o).binMasses());

    const BuiltSchedule sqrt = buildSchedule(sqrtEntropyRecipe(Coordinate::Lambda), kGrid, context);
    SqrtEntropyOptions so;
    so.coordinate = Coordinate::Lambda;
    so.gateC = infoNoiseRecipe().gateC;  // gated as InfoNoise is, by default
    so.weight = LossWeight{LossWeight::Kind::Uniform, 1.3, 5.0};
    QCOMPARE(sqrt.schedule.binMasses(), sqrtEntropySchedule(rates, kGrid, so).binMasses());
    QCOMPARE(sqrt.parameters["sqrt_coordinate"].get<std::string>(), std::string("lambda"));

    // A profile without σ_data falls back to the dataset's, then to the default.
    const Profile bare = gaussianDiagnosticProfile(0.0);
    context.profile = &bare;
    QCOMPARE(buildSchedule(infoNoiseRecipe(), kGrid, context).sigmaData.source,
             std::string("default 0.5 (no data known)"));
    context.profile = nullptr;
    QVERIFY_THROWS_EXCEPTION(InputError, buildSchedule(infoNoiseRecipe(), kGrid, context));
  }

  void specStringsMapToRecipes() {
    const ScheduleRecipe r = recipeFromSpec("family:edm?p_mean=-1&weight=min-snr&gamma=3");
    QVERIFY(r.kind == ScheduleRecipe::Kind::Family);
    QCOMPARE(r.parameters.at("p_mean"), -1.0);
    QVERIFY(r.weight.kind == LossWeight::Kind::MinSnr);
    QCOMPARE(r.weight.gamma, 3.0);
    const BuiltSchedule built = buildSchedule(r, kGrid);
    QCOMPARE(built.schedule.binMasses(),
             makeFamilySchedule("edm", {{"p_mean", -1.0}}, kGrid).binMasses());
    const ScheduleRecipe preset = recipeFromSpec("edm2-img64?sigma_data=0.7");
    QVERIFY(preset.kind == ScheduleRecipe::Kind::Preset);
    QCOMPARE(buildSchedule(preset, kGrid).sigmaData.source, std::string("given"));
    QVERIFY(recipeFromSpec("dir/s.json").kind == ScheduleRecipe::Kind::File);
    QVERIFY(recipeFromSpec("S.CSV").kind == ScheduleRecipe::Kind::File);
    QVERIFY_THROWS_EXCEPTION(InputError, recipeFromSpec("edm?p_mean=abc"));
    QVERIFY_THROWS_EXCEPTION(InputError, recipeFromSpec("no-such-preset"));
  }

  void sigmaStepsDefaultToKarrasAndNameTheirRule() {
    const BuiltSchedule edm = buildSchedule(presetRecipe("edm"), kGrid);
    const SigmaSteps steps = sigmaSteps(edm, 9);
    QVERIFY(steps.grid.rfind(pipeline::defaults::kSamplingGrid, 0) == 0);
    QCOMPARE(steps.label, std::string("Karras ρ=7"));
    QVERIFY(steps.rule.find("rho = 7") != std::string::npos);
    QVERIFY(std::is_sorted(steps.sigma.begin(), steps.sigma.end()));
    QCOMPARE(steps.sigma.front(), pipeline::defaults::kSigmaMin);
    QCOMPARE(steps.sigma.back(), pipeline::defaults::kSigmaMax);
    QVERIFY(steps.warnings.empty());
    QVERIFY(steps.largestRatio <= steps.ratioLimit);
    QCOMPARE(steps.schedule, edm.schedule.info.label);
    QVERIFY_THROWS_EXCEPTION(InputError, sigmaSteps(edm, 1));

    // Quantiles of the schedule's φ are the old entropic-time rule, now a grid one asks for.
    const SigmaSteps phi = sigmaSteps(edm, 9, "quantiles?of=phi");
    QCOMPARE(phi.sigma, entropicTimeGrid(effectiveAllocation(edm.schedule), 9));

    // The issue's case: the InfoNoise ρ of a profile (entropic, ∫ rate with the gate) leaves a
    // long top step, which the file flags; guard=cap brings it under the limit at the same N.
    const Profile profile = gaussianDiagnosticProfile(1.0);
    RecipeContext context;
    context.profile = &profile;
    context.profileSource = "gaussian";
    const BuiltSchedule info = buildSchedule(infoNoiseRecipe(), kGrid, context);
    const SigmaSteps rho = sigmaSteps(info, 18, "entropic?gate_c=0.15", &profile, "gaussian");
    QCOMPARE(rho.source, std::string("gaussian"));
    QVERIFY2(!rho.warnings.empty(), std::to_string(rho.largestRatio).c_str());
    QVERIFY(rho.largestRatio > rho.ratioLimit);
    const SigmaSteps capped =
        sigmaSteps(info, 18, "entropic?gate_c=0.15&guard=cap", &profile, "gaussian");
    QVERIFY(capped.warnings.empty());
    QVERIFY(capped.largestRatio <= capped.ratioLimit * (1 + 1e-9));
    QCOMPARE(capped.sigma.size(), size_t{18});
    // Without a profile the entropic grid says so.
    QVERIFY_THROWS_EXCEPTION(InputError, sigmaSteps(edm, 9, "entropic"));
  }

  void sigmaStepsFilesReadBack() {
    QTemporaryDir dir;
    const BuiltSchedule edm = buildSchedule(presetRecipe("edm"), kGrid);
    const SigmaSteps steps = sigmaSteps(edm, 12, "ddpm?spacing=leading&steps_offset=1");
    const std::string json = dir.filePath("steps.json").toStdString();
    writeSigmaSteps(json, steps, scheduleProvenance(edm, "test"));
    const SigmaSteps back = readSigmaSteps(json);
    QCOMPARE(back.sigma, steps.sigma);
    QCOMPARE(back.schedule, edm.schedule.info.label);
    QCOMPARE(back.grid, steps.grid);
    QCOMPARE(back.label, steps.label);
    QCOMPARE(back.rule, steps.rule);
    QCOMPARE(back.warnings, steps.warnings);
    QCOMPARE(back.largestRatio, steps.largestRatio);
    QCOMPARE(back.ratioLimit, steps.ratioLimit);
    QCOMPARE(back.exports.kdiffusionSigmas, steps.exports.kdiffusionSigmas);
    QCOMPARE(back.exports.diffusersSigmas, steps.exports.diffusersSigmas);
    QCOMPARE(back.exports.diffusersTimesteps, steps.exports.diffusersTimesteps);
    QCOMPARE(back.exports.diffusersTimesteps.front(), 11.0 * (1000 / 12) + 1);
    QCOMPARE(back.exports.flowSigmas, steps.exports.flowSigmas);
    QCOMPARE(back.exports.flowTimesteps, steps.exports.flowTimesteps);
    QCOMPARE(back.exports.timestepsTable, steps.exports.timestepsTable);
    const std::string text = dir.filePath("steps.txt").toStdString();
    writeSigmaSteps(text, steps);
    QCOMPARE(readSigmaSteps(text).sigma, steps.sigma);  // full precision in text too
    const std::string py = dir.filePath("steps.py").toStdString();
    writeSigmaSteps(py, steps);
    QVERIFY_THROWS_EXCEPTION(InputError, readSigmaSteps(py));
    // Earlier builds' files still read.
    {
      std::ofstream(dir.filePath("v1.json").toStdString())
          << R"({"format": "noisescope.sigma-steps/1", "schedule": "s", "curve": "rho",
                 "steps": 2, "sigma": [0.1, 1]})";
      const SigmaSteps v1 = readSigmaSteps(dir.filePath("v1.json").toStdString());
      QCOMPARE(v1.curve, std::string("rho"));
      QCOMPARE(v1.sigma, (std::vector<double>{0.1, 1.0}));
    }

    auto refused = [&](const char* name, const std::string& content, const char* problem) {
      const std::string path = dir.filePath(name).toStdString();
      std::ofstream(path) << content;
      try {
        readSigmaSteps(path);
        QTest::qFail(("accepted " + std::string(name)).c_str(), __FILE__, __LINE__);
      } catch (const InputError& e) {
        QCOMPARE(e.source(), path);
        QVERIFY2(e.problem().find(problem) != std::string::npos, e.what());
      }
    };
    refused("descending.txt", "1\n0.5\n", "not ascending");
    refused("word.txt", "0.1\nabc\n", "line 2");
    refused("one.txt", "0.1\n", "at least 2");
    refused("format.json", R"({"format": "noisescope.sigma-grid/1"})",
            "not noisescope.sigma-steps/2");
    refused("count.json",
            R"({"format": "noisescope.sigma-steps/1", "schedule": "s", "curve": "phi",
                "steps": 3, "sigma": [0.1, 1]})",
            "steps");
    refused("curve.json",
            R"({"format": "noisescope.sigma-steps/1", "schedule": "s", "curve": "pi",
                "steps": 2, "sigma": [0.1, 1]})",
            "curve");
    // A /2 file whose exports disagree with its levels, or that lacks them.
    nlohmann::json good = sigmaStepsToJson(steps);
    nlohmann::json edited = good;
    edited["k_diffusion"]["sigmas"][0] = 79.0;
    refused("edited.json", edited.dump(), "k_diffusion.sigmas");
    nlohmann::json shorter = good;
    shorter["diffusers"]["timesteps"].erase(0);
    refused("short.json", shorter.dump(), "diffusers.timesteps");
    nlohmann::json noRatio = good;
    noRatio.erase("step_ratio");
    refused("ratio.json", noRatio.dump(), "step_ratio");
    nlohmann::json tie = good;
    tie["sigma"][1] = tie["sigma"][0];
    refused("tie.json", tie.dump(), "strictly ascending");
  }

  void atomicDesignRecordsItsSettingsAndMeasuredSigmaData() {
    Dataset data = spreadData();
    data.source = "spread";
    AtomicRequest request;
    request.sigmaMin = 0.01;
    request.sigmaMax = 20.0;
    request.settings = AtomicSettings::quick();
    request.settings.levels = 12;
    request.settings.samples = 128;
    request.settings.features = 16;
    const AtomicDesign design = designAtomic(request, data);
    QVERIFY(design.built.schedule.isAtomic());
    QCOMPARE(design.candidateSigma.size(), size_t{12});
    QCOMPARE(design.candidateSigma.front(), 0.01);
    QCOMPARE(design.candidateSigma.back(), 20.0);
    const json& p = design.built.parameters;
    QCOMPARE(p["recipe"].get<std::string>(), std::string("atomic"));
    // Quick's values with three changed: the recorded name says what they are, not where they
    // started.
    QCOMPARE(p["settings"]["name"].get<std::string>(), std::string("custom"));
    QCOMPARE(p["settings"]["features"].get<int>(), 16);
    QCOMPARE(p["settings"]["max_iterations"].get<int>(), 3000);
    QCOMPARE(p["sigma_data"].get<double>(), measureSigmaData(data));
    QCOMPARE(design.built.schedule.lossWeight.sigmaData, measureSigmaData(data));
    // As a recipe in the panel's list, the same schedule and parameters come back.
    const BuiltSchedule again = buildSchedule(atomicRecipe(design, "atomic"), kGrid);
    QVERIFY(again.parameters["settings"] == p["settings"]);
    QCOMPARE(again.sigmaData.source, std::string("measured from spread"));
    QCOMPARE(again.schedule.atoms().size(), design.built.schedule.atoms().size());

    // A name the engine does not know is refused before any work, by the same check.
    request.criterion = "E";
    QVERIFY_THROWS_EXCEPTION(InputError, checkAtomicRequest(request));
    QVERIFY_THROWS_EXCEPTION(InputError, designAtomic(request, data));
    request.criterion = "A";
    request.prediction = "score";
    QVERIFY_THROWS_EXCEPTION(InputError, checkAtomicRequest(request));
  }
};

QTEST_APPLESS_MAIN(TestSchedulePipeline)
#include "test_schedule_pipeline.moc"
