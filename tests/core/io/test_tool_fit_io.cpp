// What `fit` writes (io/tool_fit_io.h): a list-valued knob kept as one list in the JSON and named
// by its length in text, the same family object in a tool fit and in a current-settings fit, the
// file form chosen by the extension, and the text saying what the settings train, what was
// assumed, the smallest change and the keys nothing read.
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>

#include "io/tool_fit_io.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::io;

namespace {

schedule::TrainerFamilyFit family(const std::string& name,
                                  std::vector<std::pair<std::string, double>> parameters,
                                  double kl) {
  schedule::TrainerFamilyFit f;
  f.family = name;
  f.parameters = std::move(parameters);
  f.kl = kl;
  f.klReverse = 2 * kl;
  f.tv = kl / 2;
  f.snippet = "--" + name + "=1";
  f.note = "a note on " + name;
  return f;
}

ToolFit twoFamilies() {
  ToolFit fit;
  fit.tool = "diffusers";
  fit.model = "flux";
  fit.modelNote = "the default";
  fit.coordinate = "flow-t";
  fit.discretisation = "continuous";
  fit.lossSpace = "velocity";
  fit.knob = "the script's flags";
  fit.sigmaMin = 0.001;
  fit.sigmaMax = 1000;
  fit.targetMassReachable = 0.97;
  fit.fits = {family("logit_normal", {{"logit_mean", 0.25}, {"logit_std", 1.5}}, 0.01),
              family("cubic", {{"weights[0]", 1}, {"weights[1]", 2}, {"weights[2]", 3}}, 0.2)};
  return fit;
}

std::string contents(const QString& path) {
  std::ifstream in(path.toStdString());
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

}  // namespace

class TestToolFitIo : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void listKnobsStayLists() {
    const ToolFit fit = twoFamilies();
    const auto knobs = knobValues(fit.fits[1]);
    QCOMPARE(knobs.size(), size_t(1));
    QCOMPARE(knobs[0].first, std::string("weights"));
    QCOMPARE(knobs[0].second, (std::vector<double>{1, 2, 3}));
    QCOMPARE(knobText(fit.fits[1]), std::string("weights = [3 knots]"));
    QCOMPARE(knobText(fit.fits[0], "%.2f", "=", " "),
             std::string("logit_mean=0.25 logit_std=1.50"));

    const nlohmann::json j = toJson(fit);
    QCOMPARE(j["fits"][0]["params"]["logit_std"].get<double>(), 1.5);
    QVERIFY(j["fits"][1]["params"]["weights"] == nlohmann::json({1.0, 2.0, 3.0}));
    QCOMPARE(j["fits"][1]["kl_reverse"].get<double>(), 0.4);
    QVERIFY(!j.contains("latent_scale"));
  }

  void textSaysRangeAndEveryFamily() {
    ToolFit fit = twoFamilies();
    fit.latentScale = "on Flux's latent scale";
    const std::string text = formatToolFit(fit);
    QVERIFY(text.find("diffusers training flux (the default)") == 0);
    QVERIFY(text.find("latent scale: on Flux's latent scale") != std::string::npos);
    QVERIFY(text.find("(97.0 % of the target's phi lies there)") != std::string::npos);
    QVERIFY(text.find("# cubic (a note on cubic)\n--cubic=1") != std::string::npos);
    QCOMPARE(toJson(fit)["latent_scale"].get<std::string>(), fit.latentScale);
  }

  void fileFormFollowsTheExtension() {
    QTemporaryDir dir;
    const ToolFit fit = twoFamilies();
    writeToolFit(dir.filePath("knobs.json").toStdString(), fit);
    writeToolFit(dir.filePath("knobs.txt").toStdString(), fit);
    QVERIFY(nlohmann::json::parse(contents(dir.filePath("knobs.json"))) == toJson(fit));
    QCOMPARE(contents(dir.filePath("knobs.txt")), formatToolFit(fit));
    QVERIFY_THROWS_EXCEPTION(
        InputError, writeToolFit(dir.filePath("no/such/folder/k.json").toStdString(), fit));
  }

  void currentFitSaysWhatToChange() {
    CurrentFit fit;
    fit.tool = "ai-toolkit";
    fit.model = "flux";
    fit.modelSource = "model.arch";
    fit.settingsPath = "job.yaml";
    fit.settingsFormat = "yaml";
    fit.family = "logit_normal";
    fit.assumedDefaults = {"logit_std"};
    fit.unreadKeys = {"lr", "steps"};
    fit.current = family("logit_normal", {{"logit_mean", 0.0}, {"logit_std", 1.0}}, 0.3);
    fit.bestInFamily = family("logit_normal", {{"logit_mean", 0.4}, {"logit_std", 1.2}}, 0.05);
    fit.bestOverall = family("cubic", {{"weights[0]", 1}, {"weights[1]", 2}}, 0.01);
    fit.changes = {{"logit_mean", "0", "0.4"}, {"logit_std", "1 (default)", "1.2"}};
    const std::string text = formatCurrentFit(fit);
    QVERIFY(text.find("job.yaml (yaml)\nai-toolkit training flux (model.arch) with logit_normal: "
                      "logit_mean = 0, logit_std = 1\n") == 0);
    QVERIFY(text.find("logit_std is not in the file") != std::string::npos);
    QVERIFY(text.find("  logit_mean: 0 -> 0.4\n") != std::string::npos);
    QVERIFY(text.find("best family for this target is cubic") != std::string::npos);
    QVERIFY(text.find("not read (2 keys") != std::string::npos);

    const nlohmann::json j = toJson(fit);
    QVERIFY(j["best_overall"] == toJson(fit.bestOverall));  // one family object for both fits
    QVERIFY(j["best_overall"]["params"]["weights"] == nlohmann::json({1.0, 2.0}));
    QCOMPARE(j["changes"][1]["from"].get<std::string>(), std::string("1 (default)"));

    fit.changes.clear();
    QVERIFY(formatCurrentFit(fit).find("already at this family's best fit") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(TestToolFitIo)
#include "test_tool_fit_io.moc"
