// The workbench killed mid-write: gui_write_driver (the real window, offscreen) exports schedules,
// σ-steps and profiles through the panels over and over, and is killed with SIGKILL at random
// moments, 40 times into the same folder. After every kill each file is absent (never written
// yet), or reads back whole through its one reader as one of the two versions the driver
// alternates: the old one or the new one, never a torn one. Temporary files may be left only by
// killed processes, and a later writer of the same file removes them.
#include <QDir>
#include <QFile>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>

#include <map>
#include <random>
#include <set>

#include "io/profile_io.h"
#include "io/schedule_io.h"
#include "io/sigma_steps_io.h"
#include "test_paths.h"

using namespace noisescope;

namespace {

// The workbench side of the test, built beside it (tests/ui/CMakeLists.txt).
const QString kDriver =
    QString::fromStdString(noisescope::test::buildPath("tests/ui/gui_write_driver"));
const QStringList kFiles = {"schedule.json", "schedule.csv", "steps.json", "profile.json",
                            "profile.csv"};

// What a file's reader gives back, to compare versions by content (the provenance's time stamp
// differs between writes of the same version).
std::vector<double> contents(const QString& path) {
  const std::string p = path.toStdString();
  if (path.contains("schedule")) return readSchedule(p).binMasses();
  if (path.contains("steps")) return readSigmaSteps(p).sigma;
  return readProfile(p).primary().mean;
}

}  // namespace

class TestGuiKilledMidWrite : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void killedAtRandomPointsLeavesNoTornFile() {
    QTemporaryDir refs, dir;
    QProcess reference;
    reference.start(kDriver, {refs.path(), "--reference"});
    QVERIFY(reference.waitForFinished(60000));
    QVERIFY2(reference.exitCode() == 0, reference.readAllStandardError().constData());
    std::map<QString, std::pair<std::vector<double>, std::vector<double>>> versions;
    for (const QString& f : kFiles) {
      versions[f] = {contents(refs.filePath("a-" + f)), contents(refs.filePath("b-" + f))};
      QVERIFY2(versions[f].first != versions[f].second, qPrintable(f));
    }

    const unsigned seed = std::random_device{}();
    qInfo("kill delays drawn with seed %u", seed);
    std::mt19937 engine(seed);
    std::set<QString> seen;    // files written at least once: from then on never absent
    std::set<QString> killed;  // PIDs
    int wholeKills = 0;
    for (int round = 0; round < 40; ++round) {
      QProcess driver;
      driver.start(kDriver, {dir.path()});
      QVERIFY(driver.waitForStarted());
      // Half the kills during the writing loop (once every file exists: under load the first pass
      // can take longer than the kill delay), the rest anywhere from start-up on.
      if (round % 2 == 0) {
        QByteArray said;
        while (!said.contains("every file") && driver.waitForReadyRead(120000))
          said += driver.readAllStandardOutput();
        QVERIFY2(said.contains("every file"), said.constData());
      }
      QTest::qSleep(std::uniform_int_distribution<int>(0, 400)(engine));
      const qint64 pid = driver.processId();
      ::kill(pid_t(pid), SIGKILL);
      QVERIFY(driver.waitForFinished(10000));
      QCOMPARE(driver.exitStatus(), QProcess::CrashExit);

      for (const QString& f : kFiles) {
        const QString path = dir.filePath(f);
        const QString where = QString("round %1 (seed %2), %3").arg(round).arg(seed).arg(f);
        if (!QFile::exists(path)) {
          QVERIFY2(!seen.count(f), qPrintable(where + ": the file vanished"));
          continue;
        }
        seen.insert(f);
        std::vector<double> now;
        try {
          now = contents(path);
        } catch (const std::exception& e) {
          QFAIL(qPrintable(where + ": torn: " + e.what()));
        }
        QVERIFY2(now == versions[f].first || now == versions[f].second,
                 qPrintable(where + ": neither version"));
      }
      // Besides the files, only temporaries of killed processes (TARGET.tmp.PID), which the next
      // writer of that target removes (checked at the end).
      killed.insert(QString::number(pid));
      for (const QString& name : QDir(dir.path()).entryList(QDir::Files)) {
        if (kFiles.contains(name)) continue;
        const int at = name.indexOf(".tmp.");
        QVERIFY2(at > 0 && kFiles.contains(name.left(at)) && killed.count(name.mid(at + 5)),
                 qPrintable(name));
      }
      if (seen.size() == size_t(kFiles.size())) ++wholeKills;
    }
    // Most kills hit the writing loop with every file already there.
    QVERIFY2(wholeKills >= 10, qPrintable(QString::number(wholeKills)));

    // A writer that finishes leaves nothing else behind: it removed the killed one's temporaries.
    QProcess last;
    last.start(kDriver, {dir.path(), "--once"});
    QVERIFY(last.waitForFinished(60000));
    QCOMPARE(last.exitCode(), 0);
    QStringList left = QDir(dir.path()).entryList(QDir::Files);
    for (const QString& f : kFiles) {
      QCOMPARE(contents(dir.filePath(f)), versions[f].first);
      left.removeAll(f);
    }
    QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
  }
};

QTEST_GUILESS_MAIN(TestGuiKilledMidWrite)
#include "test_gui_killed_mid_write.moc"
