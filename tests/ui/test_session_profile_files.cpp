// The session's profiles written as files for the Sampling tab (ui/session_profile_files): the
// name comes from the profile's base, so a profile loaded from "X.bound.json" goes back out as
// "X.bound.json", round after round, never "X.bound-bound.bound.json" with suffixes stacking. A
// second copy keeps its own file, a bracket's curves share one stem.
#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

#include "io/profile_io.h"
#include "profile/profile.h"
#include "ui/diagnostic_panel.h"
#include "ui/session_profile_files.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;

namespace {

// A small profile of `kind`: the x0 error of Gaussian data N(0, 0.5² I₂) on 12 levels.
std::shared_ptr<Profile> profileOf(const std::string& kind) {
  auto p = std::make_shared<Profile>();
  p->kind = kind;
  p->dim = 2;
  MmseEstimate m;
  m.name = "x0_error";
  for (int k = 0; k < 12; ++k) {
    const double sigma = 0.002 * std::pow(80.0 / 0.002, k / 11.0);
    p->sigma.push_back(sigma);
    m.mean.push_back(2 * 0.25 * sigma * sigma / (0.25 + sigma * sigma));
    m.standardError.push_back(0.0);
    m.ciLow.push_back(m.mean.back());
    m.ciHigh.push_back(m.mean.back());
  }
  p->estimates.push_back(m);
  return p;
}

QString fileName(const QString& path) {
  return QFileInfo(path).fileName();
}

}  // namespace

class TestSessionProfileFiles : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Loaded on the Diagnostic tab, picked on the Sampling tab, written, loaded again in a later
  // session and picked again: the same file name every round.
  void resavingKeepsTheName() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("profiles");
    QString path = dir.filePath("fashion-mnist.bound.json");
    writeProfile(path.toStdString(), *profileOf("bound"));
    for (int round = 0; round < 3; ++round) {
      Workbench workbench;
      DiagnosticPanel diagnostic(&workbench);
      QCOMPARE(diagnostic.loadProfile(path), QString());
      QCOMPARE(int(workbench.profiles().size()), 1);
      const QString name = workbench.profiles().front().name;
      path = writeSessionProfile(workbench, name, folder);
      QCOMPARE(fileName(path), QString("fashion-mnist.bound.json"));
    }
    QCOMPARE(QDir(folder).entryList(QDir::Files), QStringList{"fashion-mnist.bound.json"});
  }

  void namesFromTheBase() {
    QTemporaryDir dir;
    const QString folder = dir.path();
    Workbench workbench;
    // The Schedules tab names a loaded file by its base alone.
    const QString schedules = workbench.addProfile("X.bound", profileOf("bound"));
    QCOMPARE(fileName(writeSessionProfile(workbench, schedules, folder)), QString("X.bound.json"));
    // A second copy of the same name keeps its own file.
    const QString copy = workbench.addProfile("X.bound", profileOf("bound"));
    QCOMPARE(copy, QString("X.bound (2)"));
    QCOMPARE(fileName(writeSessionProfile(workbench, copy, folder)), QString("X-2.bound.json"));
    // A name from before the fix, suffixes already stacked, is repaired.
    const QString stacked = workbench.addProfile("X.bound-bound.bound · bound", profileOf("bound"));
    QCOMPARE(fileName(writeSessionProfile(workbench, stacked, folder)), QString("X.bound.json"));
    // A kind with hyphens, and a name that only ends like a kind, are read right.
    const QString wiener = workbench.addProfile("cifar.held-out-wiener · held-out-wiener",
                                                profileOf("held-out-wiener"));
    QCOMPARE(fileName(writeSessionProfile(workbench, wiener, folder)),
             QString("cifar.held-out-wiener.json"));
    const QString unbound = workbench.addProfile("unbound", profileOf("bound"));
    QCOMPARE(fileName(writeSessionProfile(workbench, unbound, folder)),
             QString("unbound.bound.json"));
    // A bracket's curves share the dataset's stem, each file named by its kind.
    const QStringList bracket =
        workbench.addProfiles({{"population bound · gaussian", profileOf("bound")},
                               {"empirical · gaussian", profileOf("empirical")}});
    QCOMPARE(fileName(writeSessionProfile(workbench, bracket.front(), folder)),
             QString("gaussian.bound.json"));
    QVERIFY(QFileInfo::exists(QDir(folder).filePath("gaussian.empirical.json")));
  }
};

QTEST_MAIN(TestSessionProfileFiles)
#include "test_session_profile_files.moc"
