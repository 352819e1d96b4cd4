// The run list's time left: the rate comes from the wall-clock stamps of the train events,
// smoothed over the run, so time spent evaluating counts, the ETA stays in a band when step times
// jitter and evaluations pause the run, a change of pace pulls it, and nothing is claimed before
// there are two points.
#include <QObject>
#include <QString>
#include <QTest>

#include <cmath>

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
    // 50 steps take 10 s, but every 250 steps an evaluation adds 40 s: the run advances at
    // 250 steps per 90 s, not at the 5 steps/s of training alone.
    std::vector<ProgressPoint> points;
    double t = 0;
    for (int step = 50; step <= 500; step += 50) {
      t += 10.0;
      points.push_back({double(step), t});
      if (step % 250 == 0) t += 40.0;
    }
    // 500 steps left: 500 / 5 = 100 s at the training pace alone; the evaluation inside the
    // history makes it longer.
    const double left = *estimateSecondsLeft(points, 1000);
    QVERIFY2(left > 120.0 && left < 200.0, qPrintable(QString::number(left)));
  }

  void leansTowardsAChangeOfPace() {
    // Slow at first (another run shared the cores), then twice as fast: the smoothed rate lies
    // between the whole history's (1000 steps in 300 s: 300 s left) and the new pace's (200 s).
    std::vector<ProgressPoint> points;
    double t = 0;
    for (int step = 50; step <= 1000; step += 50) {
      t += step <= 500 ? 20.0 : 10.0;
      points.push_back({double(step), t});
    }
    const double left = *estimateSecondsLeft(points, 2000);
    QVERIFY2(left > 200.0 && left < 290.0, qPrintable(QString::number(left)));
  }

  void staysInABandWhenStepTimesJitter() {
    // 3000 steps logged every 50; each 50 steps take 5–15 s (a fixed pseudo-random jitter) and
    // every 1000 steps an evaluation pauses the run for 150 s. From the first report after the
    // first evaluation on, the finish the ETA predicts stays within 35 % of the real one. A rate
    // read off the last ten intervals misses it by up to 58 % whenever the pause enters or
    // leaves its window.
    std::vector<ProgressPoint> points;
    double t = 0;
    for (int step = 50; step <= 3000; step += 50) {
      const double jitter = std::fmod(std::abs(std::sin(step * 12.9898)) * 43758.5453, 1.0);
      t += 5.0 + 10.0 * jitter;
      points.push_back({double(step), t});
      if (step % 1000 == 0 && step < 3000) t += 150.0;
    }
    const double end = points.back().time;
    int checked = 0;
    for (size_t n = 2; n < points.size(); ++n) {
      const std::vector<ProgressPoint> seen(points.begin(), points.begin() + n);
      if (seen.back().step < 1100) continue;
      const double predicted = seen.back().time + *estimateSecondsLeft(seen, 3000);
      QVERIFY2(std::abs(predicted / end - 1.0) < 0.35,
               qPrintable(QStringLiteral("step %1: finish predicted at %2 s, real %3 s")
                              .arg(seen.back().step)
                              .arg(predicted)
                              .arg(end)));
      ++checked;
    }
    QCOMPARE(checked, 38);
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
