// The one seeded split: pinned rows for a seed (the same on every platform, since it draws only
// from RandomSource), two disjoint parts that cover every row, and the share-to-count rule.
#include <QObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "util/error.h"
#include "util/seeded_split.h"

using namespace noisescope;
using Rows = std::vector<int64_t>;

class TestSeededSplit : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void rowsArePinnedForASeed() {
    // Golden values: a change here changes every held-out set and test split already written.
    QCOMPARE(seededPermutation(10, 7), (Rows{0, 7, 4, 9, 3, 1, 2, 8, 6, 5}));
    const RowSplit split = seededSplit(20, 5, 42);
    QCOMPARE(split.held, (Rows{1, 2, 7, 11, 13}));
    QCOMPARE(split.kept, (Rows{0, 3, 4, 5, 6, 8, 9, 10, 12, 14, 15, 16, 17, 18, 19}));
  }

  void partsAreDisjointSortedAndCoverEveryRow() {
    for (const int64_t n : {1, 2, 7, 100, 1001})
      for (const int64_t count : {int64_t{0}, int64_t{1}, n / 3, n - 1, n})
        for (const uint64_t seed : {0ull, 1ull, 0x9e3779b97f4a7c15ull}) {
          const RowSplit s = seededSplit(n, count, seed);
          QCOMPARE(static_cast<int64_t>(s.held.size()), count);
          QCOMPARE(static_cast<int64_t>(s.kept.size()), n - count);
          QVERIFY(std::is_sorted(s.held.begin(), s.held.end()));
          QVERIFY(std::is_sorted(s.kept.begin(), s.kept.end()));
          Rows all;
          std::merge(s.held.begin(), s.held.end(), s.kept.begin(), s.kept.end(),
                     std::back_inserter(all));
          Rows expected(static_cast<size_t>(n));
          std::iota(expected.begin(), expected.end(), int64_t{0});
          QCOMPARE(all, expected);  // disjoint and complete: the merge is 0..n−1 exactly once
        }
  }

  void aLargerShareContainsTheSmallerOne() {
    // The held part is a prefix of one permutation, so raising the share only adds rows.
    const Rows small = seededSplit(500, 50, 3).held, large = seededSplit(500, 200, 3).held;
    QVERIFY(std::includes(large.begin(), large.end(), small.begin(), small.end()));
  }

  void theSeedChoosesTheRows() {
    QCOMPARE(seededSplit(1000, 100, 5).held, seededSplit(1000, 100, 5).held);
    QVERIFY(seededSplit(1000, 100, 5).held != seededSplit(1000, 100, 6).held);
    QVERIFY(seededPermutation(1000, 5) != seededPermutation(1000, 6));
  }

  void heldOutCountRoundsAndKeepsBothParts() {
    QCOMPARE(heldOutCount(20, 0.1, "x"), int64_t{2});
    QCOMPARE(heldOutCount(1000, 0.1234, "x"), int64_t{123});
    QCOMPARE(heldOutCount(3, 0.01, "x"), int64_t{1});   // at least one row is held out
    QCOMPARE(heldOutCount(3, 0.99, "x"), int64_t{2});   // and one kept, while share < 1
    QCOMPARE(heldOutCount(10, 1.0, "x"), int64_t{10});  // share 1: every row
    QCOMPARE(heldOutCount(1, 1.0, "x"), int64_t{1});
  }

  void badSharesAndCountsAreInputErrors() {
    for (const double share : {0.0, -0.1, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
      try {
        heldOutCount(10, share, settings::kHeldOutShare);
        QFAIL("accepted a share outside (0, 1]");
      } catch (const InputError& e) {
        QCOMPARE(e.source(), std::string(settings::kHeldOutShare));
      }
    }
    QVERIFY_THROWS_EXCEPTION(InputError, heldOutCount(1, 0.5, "x"));
    QVERIFY_THROWS_EXCEPTION(InputError, seededSplit(5, 6, 0));
    QVERIFY_THROWS_EXCEPTION(InputError, seededSplit(5, -1, 0));
  }
};

QTEST_APPLESS_MAIN(TestSeededSplit)
#include "test_seeded_split.moc"
