// The tail term of the upper ends (profile/tail_term.h): its value, the test that says where it
// does not cover, and its coverage of a heavy-tailed mean of known value.
#include <QObject>
#include <QString>
#include <QTest>

#include <cmath>
#include <random>
#include <vector>

#include "profile/profile.h"
#include "profile/tail_term.h"

using namespace noisescope;

namespace {

// n Pareto draws of index α on [1, ∞) (mean α/(α−1)), by inversion of mt19937_64's raw bits.
std::vector<double> pareto(double alpha, int n, std::mt19937_64& engine) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    const double u = (static_cast<double>(engine() >> 11) + 0.5) * 0x1.0p-53;
    out.push_back(std::pow(u, -1.0 / alpha));
  }
  return out;
}

// Sums of squared normals with a power-law spectrum: light-tailed, skewed per-point errors.
std::vector<double> squares(int n, std::mt19937_64& engine) {
  std::normal_distribution<double> normal;
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int k = 1; k <= 8; ++k) s += 4.0 * std::pow(k, -1.5) * std::pow(normal(engine), 2);
    out.push_back(s);
  }
  return out;
}

}  // namespace

class TestTailTerm : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void termIsTheRangeOverN() {
    const std::vector<double> v = {2.0, 3.0, 2.5, 7.0};
    QCOMPARE(tailTerm(v.data(), 4), kTailTermFactor * 5.0 / 4.0);
    const std::vector<double> flat(10, 3.0);  // a constant error adds nothing
    QCOMPARE(tailTerm(flat.data(), 10), 0.0);
    QCOMPARE(tailTerm(v.data(), 1), 0.0);
  }

  void heavierTailsAreNamed() {
    std::mt19937_64 engine(5);
    int heavy = 0, covered = 0, light = 0;
    for (int r = 0; r < 50; ++r) {
      heavy += tailHeavierThanCovered(pareto(0.8, 1000, engine).data(), 1000);
      covered += tailHeavierThanCovered(pareto(2.0, 1000, engine).data(), 1000);
      light += tailHeavierThanCovered(squares(1000, engine).data(), 1000);
    }
    // Index 0.8 (no mean at all): Hill's test over the top 32 of 1 000 names it in about 80 %.
    QVERIFY2(heavy >= 35, qPrintable(QString::number(heavy)));
    QVERIFY2(covered <= 3, qPrintable(QString::number(covered)));  // index 2: covered
    QCOMPARE(light, 0);
    const std::vector<double> few = pareto(0.5, 19, engine);  // too few points to tell
    QVERIFY(!tailHeavierThanCovered(few.data(), 19));
  }

  // The known-truth check: the upper95 of a mean of Pareto(1.5) values (a squared Student t(3)
  // coordinate's tail) covers its true mean, 3, in ≥ 95 % of draws up to binomial error, where
  // the Student t end alone covers about 73 %; light tails stay covered.
  void upperEndCoversAHeavyTail() {
    std::mt19937_64 engine(11);
    const int draws = 600;
    for (int n : {40, 100, 400}) {
      int covered = 0, lightCovered = 0;
      const double lightMean = [] {
        double m = 0.0;
        for (int k = 1; k <= 8; ++k) m += 4.0 * std::pow(k, -1.5);
        return m;
      }();
      for (int r = 0; r < draws; ++r) {
        covered += summarizeOverPoints("p", "", pareto(1.5, n, engine), 1, n).upper95[0] >= 3.0;
        lightCovered +=
            summarizeOverPoints("s", "", squares(n, engine), 1, n).upper95[0] >= lightMean;
      }
      const double rate = double(covered) / draws, light = double(lightCovered) / draws;
      std::printf("n = %d: Pareto(1.5) covered %.3f, light tail %.3f of %d\n", n, rate, light,
                  draws);
      QVERIFY2(rate >= 0.93, qPrintable(QString("n=%1: %2").arg(n).arg(rate)));
      QVERIFY2(light >= 0.95, qPrintable(QString("n=%1: %2").arg(n).arg(light)));
    }
  }
};

QTEST_GUILESS_MAIN(TestTailTerm)
#include "test_tail_term.moc"
