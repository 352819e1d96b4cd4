// The run list's time left: the rate comes from the wall-clock stamps of recent train events, so
// time spent evaluating counts, a change of pace is followed, and nothing is claimed before there
// are two points.
#include <QObject>
#include <QTest>

#include "io/run_progress.h"

using namespace noisescope;

class TestRunProgress : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void nothingBeforeTwoPoints() {
    QVERIFY(!estimateSecondsLeft({}, 1000));
    QVERIFY(!estimateSecondsLeft({{50, 100.0}}, 1000));
  }

  void steadyRate() {
    // 50 steps every 10 s: 5 steps/s, 800 steps left after step 200.
    std::vector<ProgressPoint> points;
    for (int k = 1; k <= 4; ++k) points.push_back({50.0 * k, 1000.0 + 10.0 * k});
    QCOMPARE(*estimateSecondsLeft(points, 1000), 160.0);
  }

  void evaluationTimeCounts() {
    // 50 steps take 10 s, but every 250 steps an evaluation adds 40 s: over a window spanning
    // one evaluation the run advances 250 steps in 90 s, not at the 5 steps/s of training alone.
    std::vector<ProgressPoint> points;
    double t = 0;
    for (int step = 50; step <= 500; step += 50) {
      t += 10.0;
      points.push_back({double(step), t});
      if (step % 250 == 0) t += 40.0;
    }
    // The last 5 intervals: steps 250 → 500, from t = 50 to t = 140 (the evaluation after 250 is
    // inside): 250 steps in 90 s; 500 steps left → 180 s.
    QCOMPARE(*estimateSecondsLeft(points, 1000, 5), 180.0);
    // The instantaneous rate would say 100 s.
    QVERIFY(*estimateSecondsLeft(points, 1000, 1) < 101.0);
  }

  void followsAChangeOfPace() {
    // Slow at first (another run shared the cores), then twice as fast: the recent window sees
    // the new pace, the whole history would not.
    std::vector<ProgressPoint> points;
    double t = 0;
    for (int step = 50; step <= 1000; step += 50) {
      t += step <= 500 ? 20.0 : 10.0;
      points.push_back({double(step), t});
    }
    QCOMPARE(*estimateSecondsLeft(points, 2000, 4), 200.0);    // 1000 steps at 5 steps/s
    QVERIFY(*estimateSecondsLeft(points, 2000, 100) > 290.0);  // whole history: 1000 in 300 s
  }

  void finishedAndStalled() {
    QCOMPARE(*estimateSecondsLeft({{900, 10.0}, {1000, 20.0}}, 1000), 0.0);
    QVERIFY(!estimateSecondsLeft({{500, 10.0}, {500, 20.0}}, 1000));  // no progress
    QVERIFY(!estimateSecondsLeft({{400, 10.0}, {500, 10.0}}, 1000));  // no elapsed time
  }

  void formatted() {
    QCOMPARE(formatDuration(42.4), std::string("42 s"));
    QCOMPARE(formatDuration(200), std::string("3 min 20 s"));
    QCOMPARE(formatDuration(7500), std::string("2 h 05 min"));
    QCOMPARE(formatDuration(-3), std::string("0 s"));
  }
};

QTEST_APPLESS_MAIN(TestRunProgress)
#include "test_run_progress.moc"
