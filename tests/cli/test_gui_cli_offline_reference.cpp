// The Training tab's offline reference π, from both faces (issue 19): the schedule the tab builds
// from a run's settings and a profile (ui/offline_reference.h, through pipeline::buildSchedule)
// is the one `noisescope-cli schedule --profile P --method M` writes when given the run's grid,
// gate, loss weight and σ_data as flags. Both files are written by the pipeline with the
// provenance of their request; they are equal apart from the producer and the time stamp.
#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>

#include "io/profile_io.h"
#include "parity_files.h"
#include "pipeline/schedules/schedule_files.h"
#include "pipeline/training/offline_reference.h"
#include "profile/profile.h"
#include "train/train_config.h"
#include "ui/offline_reference.h"

using namespace noisescope;
using nlohmann::json;

namespace {

using parity::runCli;
using parity::scrub;

json comparable(const QString& path) {
  std::ifstream in(path.toStdString());
  json j = json::parse(in);
  scrub(j);
  return j;
}

QString number(double v) {
  return QString::number(v, 'g', 17);
}

// The run's settings as `schedule` flags: what a user types to get the tab's reference.
QStringList cliFlags(const train::TrainConfig& config) {
  const auto& n = config.noise;
  const bool sqrt = n.sampler == "sqrt-entropy";
  QStringList flags = {"--method", sqrt ? "sqrt-entropy" : "infonoise"};
  if (sqrt)
    flags << "--sqrt-coordinate"
          << "log-sigma";
  flags << "--sigma-min" << number(n.sigmaMin) << "--sigma-max" << number(n.sigmaMax) << "--bins"
        << QString::number(n.bins) << "--gate-c" << number(*n.gateC) << "--gate-n"
        << number(n.gateN) << "--weight" << QString::fromStdString(n.lossWeight) << "--gamma"
        << number(n.minSnrGamma);
  if (config.optim.sigmaData > 0) flags << "--sigma-data" << number(config.optim.sigmaData);
  return flags;
}

}  // namespace

class TestGuiCliOfflineReference : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString profile_;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    profile_ = dir_.filePath("P.json");
    QByteArray errors;
    QVERIFY2(runCli({"diagnose", "synthetic:gaussian?n=300&d=4&seed=1", "--levels", "8",
                     "--queries", "32", "--device", "cpu", "--out", profile_},
                    errors),
             errors.constData());
  }

  void referenceIsTheCliSchedule_data() {
    QTest::addColumn<QString>("sampler");
    QTest::addColumn<double>("gateC");
    QTest::addColumn<QString>("weight");
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("sigmaData");
    QTest::addColumn<int>("bins");
    QTest::addColumn<double>("sigmaMin");
    QTest::addColumn<double>("sigmaMax");
    // The trainer's defaults (gate_c resolved), σ_data left to the profile or the fallback.
    const train::NoiseSettings d;
    QTest::newRow("infonoise, the run's defaults")
        << QStringLiteral("infonoise") << 0.15 << QString::fromStdString(d.lossWeight)
        << d.minSnrGamma << 0.0 << int(d.bins) << d.sigmaMin << d.sigmaMax;
    QTest::newRow("sqrt-entropy, no gate, v weight, measured σ_data")
        << QStringLiteral("sqrt-entropy") << 0.0 << QStringLiteral("v") << d.minSnrGamma << 0.7
        << 40 << 0.01 << 50.0;
    QTest::newRow("static run against InfoNoise, min-snr")
        << QStringLiteral("static") << 0.2 << QStringLiteral("min-snr") << 3.0 << 0.0 << 96 << 0.002
        << 80.0;
  }

  void referenceIsTheCliSchedule() {
    QFETCH(QString, sampler);
    QFETCH(double, gateC);
    QFETCH(QString, weight);
    QFETCH(double, gamma);
    QFETCH(double, sigmaData);
    QFETCH(int, bins);
    QFETCH(double, sigmaMin);
    QFETCH(double, sigmaMax);
    train::TrainConfig config;
    config.noise.sampler = sampler.toStdString();
    config.noise.gateC = gateC;
    config.noise.lossWeight = weight.toStdString();
    config.noise.minSnrGamma = gamma;
    config.noise.bins = bins;
    config.noise.sigmaMin = sigmaMin;
    config.noise.sigmaMax = sigmaMax;
    config.optim.sigmaData = sigmaData;

    const QString tag = QString::fromLatin1(QTest::currentDataTag()).left(6);
    const QString gui = dir_.filePath("gui-" + tag + ".json");
    // The tab records the profile it was given; the CLI records --profile's path.
    const Profile profile = readProfile(profile_.toStdString());
    const pipeline::BuiltSchedule built =
        pipeline::offlineReferenceSchedule(config, profile, profile_.toStdString());
    pipeline::saveScheduleFile(gui.toStdString(), built, "noisescope workbench");
    // What the tab draws is that schedule, per unit log σ on the run's bins.
    const ui::OfflineReference drawn = ui::offlineReference(config, profile, profile_);
    const schedule::LogSigmaGrid& grid = built.schedule.grid();
    QCOMPARE(drawn.density.size(), size_t(bins));
    for (int b = 0; b < bins; ++b)
      QCOMPARE(drawn.density[b], built.schedule.binMasses()[b] / grid.width(b));

    const QString cli = dir_.filePath("cli-" + tag + ".json");
    QByteArray errors;
    QVERIFY2(runCli(QStringList{"schedule", "--profile", profile_} + cliFlags(config) +
                        QStringList{"-o", cli},
                    errors),
             errors.constData());
    const json a = comparable(gui), b = comparable(cli);
    QVERIFY2(a == b, qPrintable(QString::fromStdString(json::diff(a, b).dump(1).substr(0, 4000))));
  }
};

QTEST_MAIN(TestGuiCliOfflineReference)
#include "test_gui_cli_offline_reference.moc"
