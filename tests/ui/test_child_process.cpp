// The Training panel's child processes (ui/child_process): merged output, exit codes, signals,
// stop and kill, a program that cannot start, and a child reaped when its owner goes away.
#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>
#include <QObject>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>

#include "ui/child_process.h"

using noisescope::ui::ChildProcess;

class TestChildProcess : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void outputAndExitCode() {
    ChildProcess child;
    QByteArray out;
    connect(&child, &ChildProcess::output, this, [&out](const QByteArray& b) { out += b; });
    QSignalSpy finished(&child, &ChildProcess::finished);
    QVERIFY(child.start(
        QStringLiteral("/bin/sh"),
        {QStringLiteral("-c"), QStringLiteral("echo to-out; echo to-err >&2; exit 3")}));
    QVERIFY(child.isRunning());
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).toInt(), 3);
    QCOMPARE(finished.at(0).at(1).toBool(), false);
    QVERIFY2(out.contains("to-out") && out.contains("to-err"), out.constData());
    QVERIFY(!child.isRunning());
  }

  void programOnPathAndLargeOutput() {
    ChildProcess child;
    qint64 bytes = 0;
    connect(&child, &ChildProcess::output, this,
            [&bytes](const QByteArray& b) { bytes += b.size(); });
    QSignalSpy finished(&child, &ChildProcess::finished);
    // 1 MiB: more than a pipe holds, so the event loop must keep reading for the child to end.
    QVERIFY(child.start(QStringLiteral("head"), {QStringLiteral("-c"), QStringLiteral("1048576"),
                                                 QStringLiteral("/dev/zero")}));
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).toInt(), 0);
    QCOMPARE(bytes, qint64{1048576});
  }

  void terminateEndsWithTheSignal() {
    ChildProcess child;
    QSignalSpy finished(&child, &ChildProcess::finished);
    QVERIFY(child.start(QStringLiteral("sleep"), {QStringLiteral("30")}));
    child.terminate();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).toInt(), int{SIGTERM});
    QCOMPARE(finished.at(0).at(1).toBool(), true);
  }

  void waitForFinishedTimesOutThenKill() {
    ChildProcess child;
    QSignalSpy finished(&child, &ChildProcess::finished);
    QVERIFY(child.start(QStringLiteral("sleep"), {QStringLiteral("30")}));
    QVERIFY(!child.waitForFinished(100));
    QVERIFY(child.isRunning());
    child.kill();
    QVERIFY(child.waitForFinished(5000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), int{SIGKILL});
  }

  void missingProgramIsNamed() {
    ChildProcess child;
    QSignalSpy finished(&child, &ChildProcess::finished);
    const QString missing = QStringLiteral("/nonexistent/noisescope-cli");
    QVERIFY(!child.start(missing, {QStringLiteral("train")}));
    QVERIFY2(child.errorString().contains(missing), qPrintable(child.errorString()));
    QVERIFY(!child.isRunning());
    QCOMPARE(finished.count(), 0);
  }

  void destroyingKillsAndReapsTheChild() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString pidFile = dir.filePath(QStringLiteral("pid"));
    pid_t pid = 0;
    {
      ChildProcess child;
      QVERIFY(child.start(
          QStringLiteral("/bin/sh"),
          {QStringLiteral("-c"), QStringLiteral("echo $$ > '%1'; exec sleep 30").arg(pidFile)}));
      QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(pidFile).size() > 0, 10000);
      QFile f(pidFile);
      QVERIFY(f.open(QIODevice::ReadOnly));
      pid = f.readAll().trimmed().toInt();
      QVERIFY(pid > 0);
      QCOMPARE(::kill(pid, 0), 0);
    }
    // Reaped, not a zombie: the pid no longer exists for us.
    QCOMPARE(::kill(pid, 0), -1);
    QCOMPARE(errno, ESRCH);
  }
};

QTEST_GUILESS_MAIN(TestChildProcess)
#include "test_child_process.moc"
