// The workbench's job thread: jobs run off the GUI thread, a newer request with the same tag
// replaces a queued one, cancel stops a running job, and errors come back as messages.
#include <QCoreApplication>
#include <QObject>
#include <QSignalSpy>
#include <QString>
#include <QStringList>
#include <QTest>

#include <atomic>
#include <thread>

#include "ui/job_runner.h"
#include "util/error.h"

using noisescope::Progress;
using noisescope::ui::JobRunner;

class TestJobRunner : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void runsOffTheGuiThreadAndReportsBack() {
    JobRunner runner;
    std::thread::id workerId;
    bool done = false;
    runner.submit(
        "a",
        [&](const Progress& p) {
          workerId = std::this_thread::get_id();
          p.report(0.5, "half");
        },
        [&] { done = true; });
    QTRY_VERIFY(done);
    QVERIFY(workerId != std::this_thread::get_id());
    QTRY_VERIFY(runner.isIdle());
  }

  void newerRequestReplacesQueuedOneWithSameTag() {
    JobRunner runner;
    std::atomic<bool> release{false};
    QStringList finished;
    runner.submit(
        "block",
        [&](const Progress&) {
          while (!release) std::this_thread::yield();
        },
        [&] { finished << "block"; });
    QTRY_COMPARE(runner.runningTag(), QString("block"));
    for (int i = 0; i < 5; ++i)
      runner.submit(
          "redraw", [](const Progress&) {},
          [&finished, i] { finished << QString("redraw%1").arg(i); });
    release = true;
    QTRY_VERIFY(runner.isIdle());
    QTRY_COMPARE(finished, QStringList({"block", "redraw4"}));
  }

  void cancelStopsRunningJob() {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::jobFinished);
    bool cancelledSeen = false;
    runner.submit(
        "long",
        [](const Progress& p) {
          for (;;) {
            p.throwIfCancelled();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
        },
        [] {}, [&](const QString&, bool cancelled) { cancelledSeen = cancelled; });
    QTRY_COMPARE(runner.runningTag(), QString("long"));
    runner.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(cancelledSeen, 1000);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(1).toBool(), false);
  }

  // A job cancelled while it waits in the queue never runs, and its owner hears it was cancelled
  // (the Sampling tab's race queued behind a bracket, cancelled: the tab must not wait for ever).
  void cancelledQueuedJobReportsCancelled() {
    JobRunner runner;
    std::atomic<bool> release{false};
    runner.submit(
        "block",
        [&release](const Progress&) {
          while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        },
        [] {});
    bool ran = false, cancelledSeen = false;
    runner.submit(
        "queued", [&ran](const Progress&) { ran = true; }, [] {},
        [&](const QString&, bool cancelled) { cancelledSeen = cancelled; });
    runner.cancel(QStringLiteral("queued"));
    QTRY_VERIFY_WITH_TIMEOUT(cancelledSeen, 1000);
    release = true;
    QTRY_VERIFY(runner.isIdle());
    QVERIFY(!ran);
  }

  void errorsComeBackAsMessages() {
    JobRunner runner;
    QString message;
    runner.submit(
        "bad", [](const Progress&) { throw noisescope::InputError("file.npy", "truncated"); },
        [] { QFAIL("must not succeed"); }, [&](const QString& m, bool) { message = m; });
    QTRY_COMPARE(message, QString("file.npy: truncated"));
  }
};

QTEST_MAIN(TestJobRunner)
#include "test_job_runner.moc"
