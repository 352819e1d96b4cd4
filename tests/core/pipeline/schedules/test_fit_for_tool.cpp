// The fit pipeline: a target φ from an in-memory schedule, the JSON shape the CLI prints, and
// clear errors naming the flag.
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <set>

#include "data/formats/latent_spaces.h"
#include "io/tool_fit_io.h"
#include "pipeline/schedules/fit_for_tool.h"
#include "schedule/allocation.h"
#include "schedule/families.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::io;
using namespace noisescope::pipeline;
using namespace noisescope::schedule;

class TestFitForTool : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void edmTargetIsRecoveredAndPrintedInTheContractShape() {
    // EDM's own φ: log-normal (−0.8, 1.4) under EDM's weight (σ_d = 0.5).
    Schedule s = makeFamilySchedule("edm", {{"p_mean", -0.8}, {"p_std", 1.4}},
                                    LogSigmaGrid::uniform(0.002, 80.0, 256));
    s.lossWeight = makeLossWeight("edm", 0.5);
    const ToolFit fit = fitForTool(fitTargetFromSchedule(s, "edm(-0.8, 1.4)"), "edm");
    QCOMPARE(fit.coordinate, std::string("sigma"));
    QCOMPARE(fit.fits.size(), std::size_t(1));
    QVERIFY(std::abs(fit.fits[0].parameters[0].second + 0.8) < 0.01);
    QVERIFY(std::abs(fit.fits[0].parameters[1].second - 1.4) < 0.01);
    QVERIFY(fit.fits[0].tv < 0.01);
    QCOMPARE(fit.targetMassReachable, 1.0);

    const auto j = toJson(fit);
    std::set<std::string> keys;
    for (const auto& [k, v] : j.items()) keys.insert(k);
    QVERIFY((keys == std::set<std::string>{"tool", "model", "coordinate", "fits"}));
    keys.clear();
    for (const auto& [k, v] : j["fits"][0].items()) keys.insert(k);
    QVERIFY(
        (keys == std::set<std::string>{"family", "params", "kl", "kl_reverse", "tv", "snippet"}));
    QVERIFY(j["fits"][0]["snippet"].get<std::string>().find("P_mean=-0.8") != std::string::npos);
    QVERIFY(QString::fromStdString(formatToolFit(fit)).contains("reachable sigma"));
  }

  // A table tool's φ is drawn as the density it is: bins holding 3 and 4 of diffusers' 1000
  // table values would draw a smooth logit-normal as a saw of ±14 %.
  void aTablesOverlayIsNotASaw() {
    Schedule s = makeFamilySchedule("edm", {{"p_mean", -1.2}, {"p_std", 1.2}},
                                    LogSigmaGrid::uniform(0.002, 80.0, 256));
    s.lossWeight = makeLossWeight("edm", 0.5);
    const ToolFit fit = fitForTool(fitTargetFromSchedule(s, "edm(-1.2, 1.2)"), "diffusers");
    const ToolOverlay overlay = toolOverlay(fit);
    QVERIFY(overlay.logX);  // flow time on a log axis
    const std::vector<double>& y = overlay.fits.front().y;
    const double peak = *std::max_element(y.begin(), y.end());
    // Past its peak (t > 0.05, where the table holds several values per bin) the drawn φ falls:
    // its path length over that stretch is its drop, plus twice the height of every tooth.
    const std::vector<double>& x = overlay.fits.front().x;
    double path = 0.0, start = -1.0, end = 0.0;
    for (std::size_t i = 1; i < y.size(); ++i)
      if (x[i - 1] > 0.05 && x[i] < 0.5) {
        if (start < 0.0) start = y[i - 1];
        path += std::abs(y[i] - y[i - 1]);
        end = y[i];
      }
    const double excess = path / (start - end) - 1.0;
    qInfo("excess path %.3f (peak %.3f)", excess, peak);
    QVERIFY2(excess < 0.5, qPrintable(QString::number(excess)));
  }

  void onetrainerSaysWhatItCannotReach() {
    // Log-uniform over 0.002 … 80: SDXL's DDPM table stops at σ ≈ 0.029 and ≈ 14.6.
    Schedule s = makeFamilySchedule("log-uniform", {}, LogSigmaGrid::uniform(0.002, 80.0, 256));
    schedule::TrainerSettings sdxl;
    sdxl.model = "sdxl";
    const ToolFit fit = fitForTool(fitTargetFromSchedule(s, "log-uniform"), "onetrainer", sdxl);
    QCOMPARE(QString::fromStdString(fit.model), QString("sdxl"));
    QVERIFY(fit.targetMassReachable > 0.5 && fit.targetMassReachable < 0.75);
    // Every family misses at least the unreachable mass, up to the two bins that hold the table's
    // ends: their centres lie outside [σ_min, σ_max], so they count as unreachable, yet the end
    // values fall in them (OneTrainer's SIGMOID under a fitted timestep_shift follows the
    // reachable part closely enough to show it).
    const double endBins = 2.0 / 256.0;  // the target's mass in two of its 256 equal bins
    for (const auto& f : fit.fits)
      QVERIFY2(f.tv > 1.0 - fit.targetMassReachable - endBins,
               qPrintable(QString::fromStdString(f.family) + " TV " + QString::number(f.tv)));
  }

  void badInputNamesTheFlag() {
    Schedule s = makeFamilySchedule("log-uniform", {}, LogSigmaGrid::uniform(0.002, 80.0, 64));
    try {
      fitForTool(fitTargetFromSchedule(s, "x"), "kohya");
      QFAIL("no error for an unknown tool");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString(settings::kTrainerTool));
    }
    try {
      TrainerSettings tiny;
      tiny.width = 8;
      fitForTool(fitTargetFromSchedule(s, "x"), "sd-scripts", tiny);
      QFAIL("no error for a tiny resolution");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString(settings::kTrainingResolution));
    }
  }

  // A target from a latent cache's profile says whether its σ is on the scale the tool noises
  // the model's latents; one from anything else says nothing.
  void latentScaleIsNamed() {
    Schedule s = makeFamilySchedule("log-uniform", {}, LogSigmaGrid::uniform(0.002, 80.0, 64));
    FitTarget target = fitTargetFromSchedule(s, "x");
    TrainerSettings sdxl;
    sdxl.model = "sdxl";
    QVERIFY(fitForTool(target, "sd-scripts", sdxl).latentScale.empty());
    QVERIFY(!toJson(fitForTool(target, "sd-scripts", sdxl)).contains("latent_scale"));

    const auto note = [&](const std::string& latents) {
      target.latents = latents;
      return fitForTool(target, "sd-scripts", sdxl).latentScale;
    };
    QVERIFY(note("sd-scripts:sdxl").find("were put on the scale sd-scripts noises sdxl") !=
            std::string::npos);
    QVERIFY(note("onetrainer:sdxl").find("the same sdxl VAE") != std::string::npos);
    QVERIFY(note("sd-scripts:sd3").find("σ is on the wrong scale") != std::string::npos);
    const std::string asCached = note(kLatentsAsCached);
    QVERIFY2(asCached.find("raw (sd-scripts, onetrainer)") != std::string::npos, asCached.c_str());
    target.latents = kLatentsAsCached;
    const ToolFit fit = fitForTool(target, "sd-scripts", sdxl);
    QCOMPARE(toJson(fit)["latent_scale"].get<std::string>(), fit.latentScale);
    QVERIFY(formatToolFit(fit).find("latent scale: ") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestFitForTool)
#include "test_fit_for_tool.moc"
