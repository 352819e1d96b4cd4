// The "train" action's config, from both faces: the Training tab's config file for a run and
// `noisescope-cli train --write-config` of the same settings are one file, since both write it
// with pipeline::writeTrainConfigFile (issue 19). The form's defaults are the CLI's defaults, and
// every field the form sets has its flag.
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QObject>
#include <QProcess>
#include <QSpinBox>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <nlohmann/json.hpp>

#include "test_paths.h"
#include "ui/training_panel.h"
#include "ui/workbench.h"

using namespace noisescope::ui;
using nlohmann::json;

namespace {

json readJson(const QString& path) {
  std::ifstream in(QFile::encodeName(path).toStdString());
  return json::parse(in);
}

// `noisescope-cli train --write-config FILE FLAGS...`, then the file it wrote.
json cliConfig(const QString& file, const QStringList& flags) {
  QProcess cli;
  cli.start(QString::fromStdString(noisescope::test::cliPath()),
            QStringList{"train", "--write-config", file} + flags);
  if (!cli.waitForFinished(120000) || cli.exitStatus() != QProcess::NormalExit ||
      cli.exitCode() != 0)
    qFatal("cli failed: %s", cli.readAllStandardError().constData());
  return readJson(file);
}

}  // namespace

class TestGuiCliTrainConfig : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
  }

  void formDefaultsAreTheCliDefaults() {
    QTemporaryDir dir;
    Workbench workbench;
    TrainingPanel panel(&workbench);
    panel.datasetEdit()->setText("synthetic:two-moons?n=1000&seed=1");
    QVERIFY(panel.writeRunConfig(dir.filePath("gui.json"), {}, 2));
    const json gui = readJson(dir.filePath("gui.json"));
    const json cli =
        cliConfig(dir.filePath("cli.json"),
                  {"--dataset", "synthetic:two-moons?n=1000&seed=1", "--threads", "2"});
    QCOMPARE(QString::fromStdString(gui.dump(1)), QString::fromStdString(cli.dump(1)));
  }

  void everySettingIsTheSameFile() {
    QTemporaryDir dir;
    Workbench workbench;
    TrainingPanel panel(&workbench);
    const QString data = QString::fromStdString(
        noisescope::test::sourcePath("sample_data/fashion-mnist/train-images-idx3-ubyte.gz"));
    const QString net = QString::fromStdString(
        noisescope::test::sourcePath("sample_data/fashion-mnist/fashion-mnist.features.pt"));
    panel.datasetEdit()->setText(data);
    panel.featureNetworkEdit()->setText(net);
    panel.transformBox()->setCurrentText("binarize");
    // The form's spin boxes in order: width, channels, steps, batch, seed, warm-up, refresh, bins,
    // eval every, checkpoint every; its combo boxes: transform, network, sampler, schedule, loss
    // weight, device.
    const auto spins = panel.findChildren<QSpinBox*>();
    const int values[] = {64, 16, 3000, 48, 7, 300, 150, 32, 500, 1500};
    for (int i = 0; i < 10; ++i) spins.at(i)->setValue(values[i]);
    const auto combos = panel.findChildren<QComboBox*>();
    combos.at(1)->setCurrentText("mlp");
    combos.at(3)->setCurrentIndex(combos.at(3)->findData("cosine"));
    combos.at(4)->setCurrentText("min-snr");
    combos.at(5)->setCurrentText("cpu");
    const auto doubles = panel.findChildren<QDoubleSpinBox*>();
    doubles.at(0)->setValue(0.0005);                   // learning rate
    panel.findChild<QCheckBox*>()->setChecked(false);  // gate c: set
    doubles.at(1)->setValue(0.25);
    QVERIFY(panel.writeRunConfig(dir.filePath("gui.json"), "sqrt-entropy", 3));
    const json gui = readJson(dir.filePath("gui.json"));
    QCOMPARE(gui["noise"]["schedule"].get<std::string>(), std::string("cosine"));

    const json cli = cliConfig(dir.filePath("cli.json"), {"--dataset",
                                                          data,
                                                          "--transform",
                                                          "binarize",
                                                          "--model",
                                                          "mlp",
                                                          "--width",
                                                          "64",
                                                          "--channels",
                                                          "16",
                                                          "--steps",
                                                          "3000",
                                                          "--batch-size",
                                                          "48",
                                                          "--lr",
                                                          "0.0005",
                                                          "--seed",
                                                          "7",
                                                          "--device",
                                                          "cpu",
                                                          "--threads",
                                                          "3",
                                                          "--sampler",
                                                          "sqrt-entropy",
                                                          "--schedule",
                                                          "cosine",
                                                          "--loss-weight",
                                                          "min-snr",
                                                          "--warmup-steps",
                                                          "300",
                                                          "--refresh-every",
                                                          "150",
                                                          "--bins",
                                                          "32",
                                                          "--gate-c",
                                                          "0.25",
                                                          "--eval-every",
                                                          "500",
                                                          "--checkpoint-every",
                                                          "1500",
                                                          "--feature-network",
                                                          net});
    QCOMPARE(QString::fromStdString(gui.dump(1)), QString::fromStdString(cli.dump(1)));
  }

  void settingsFlagsGoWithWriteConfigOnly() {
    QProcess cli;
    cli.start(QString::fromStdString(noisescope::test::cliPath()),
              {"train", "--out", "/nonexistent/run", "--steps", "5"});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 2);
    QVERIFY(cli.readAllStandardError().contains("--write-config"));
  }
};

QTEST_MAIN(TestGuiCliTrainConfig)
#include "test_gui_cli_train_config.moc"
