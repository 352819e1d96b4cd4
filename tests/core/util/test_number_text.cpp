// Numbers as text, one rule per precision: the texts that specs, provenance and messages carry.
#include <QObject>
#include <QTest>

#include <cstdlib>
#include <limits>
#include <string>

#include "util/number_text.h"

using namespace noisescope;

class TestNumberText : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void significantDigitsFollowPrintf() {
    QCOMPARE(numberText(0.002, 10), std::string("0.002"));
    QCOMPARE(numberText(80.0, 10), std::string("80"));
    QCOMPARE(numberText(1.0 / 3.0, 3), std::string("0.333"));
    QCOMPARE(numberText(1.0 / 3.0, 10), std::string("0.3333333333"));
    QCOMPARE(numberText(123456789.0, 4), std::string("1.235e+08"));
    QCOMPARE(numberText(-0.5, 6), std::string("-0.5"));
  }

  void shortestTextReadsBackAsTheSameDouble() {
    QCOMPARE(shortestNumberText(0.1), std::string("0.1"));
    QCOMPARE(shortestNumberText(2.0), std::string("2"));
    QCOMPARE(shortestNumberText(1e-300), std::string("1e-300"));
    for (double v : {1.0 / 3.0, 0.1 + 0.2, 80.0 / 7.0, std::numeric_limits<double>::max(),
                     std::numeric_limits<double>::denorm_min(), -2.5e-7}) {
      const std::string text = shortestNumberText(v);
      QCOMPARE(std::strtod(text.c_str(), nullptr), v);
      // It is %.{p}g for some p, and %.{p-1}g would not read back: nothing shorter works.
      int p = 1;
      while (p < 17 && numberText(v, p) != text) ++p;
      QCOMPARE(numberText(v, p), text);
      if (p > 1) QVERIFY(std::strtod(numberText(v, p - 1).c_str(), nullptr) != v);
    }
  }
};

QTEST_APPLESS_MAIN(TestNumberText)
#include "test_number_text.moc"
