// The chart legend: every curve's full name, wrapped under the plot and never over it; a legend
// too long for its share of the height shortens names, and the tooltip still has all of them.
// A curve of one point still shows. A log y axis keeps every curve's informative part in view when
// one curve explodes (the bracket's held-out posterior), marking where that one leaves the range;
// a curve keeps its colour when others are removed.
#include <QAbstractSeries>
#include <QLabel>
#include <QLineSeries>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTest>
#include <QValueAxis>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <cmath>
#include <functional>

#include "screenshot.h"
#include "ui/curve_chart.h"

using namespace noisescope::ui;

namespace {

QList<QPointer<QAbstractSeries>> guarded(const QList<QAbstractSeries*>& series) {
  QList<QPointer<QAbstractSeries>> out;
  for (QAbstractSeries* s : series) out.append(s);
  return out;
}

Curve line(const QString& name, double scale) {
  Curve c;
  c.name = name;
  for (double s = 0.01; s < 100; s *= 2) {
    c.x.push_back(s);
    c.y.push_back(scale * s * s / (1 + s * s));
  }
  return c;
}

// The bracket's rate curves on the Fashion-MNIST sample, per unit log σ (shapes and sizes read off
// its profiles): the empirical rate is ~0 below the memorisation scale, rises to a peak of 5 nats
// at σ ≈ 6 and falls as σ⁻²; the held-out posterior's rate explodes as σ⁻² at small σ (to 10⁷ at
// σ = 0.002); the Wiener bound is flat at ~800 there; the population bound is the smaller two.
double tail(double s) {
  return s < 6 ? 5.0 : 5.0 * (6 / s) * (6 / s);
}
double empiricalRate(double s) {
  return s < 0.5 ? 1e-16 : s < 6 ? 5.0 * std::pow(s / 6, 4) : tail(s);
}
double heldOutRate(double s) {
  return 1e7 * (0.002 / s) * (0.002 / s) + tail(s);
}
double wienerRate(double s) {
  return 800 / (1 + (s / 0.3) * (s / 0.3)) + tail(s);
}
double boundRate(double s) {
  return std::min(heldOutRate(s), wienerRate(s));
}

// The four curves on 40 levels from σ = 0.002 to 80; `perSigma` divides by σ (the per-σ view).
std::vector<Curve> bracketRates(bool perSigma) {
  const std::vector<std::pair<QString, std::function<double(double)>>> kinds = {
      {"held-out posterior (bound)", heldOutRate},
      {"held-out Wiener (bound)", wienerRate},
      {"population bound", boundRate},
      {"empirical (training queries)", empiricalRate}};
  std::vector<Curve> curves;
  for (const auto& [name, rate] : kinds) {
    Curve c;
    c.name = name;
    for (int i = 0; i < 40; ++i) {
      const double s = 0.002 * std::pow(80 / 0.002, i / 39.0);
      c.x.push_back(s);
      c.y.push_back(rate(s) / (perSigma ? s : 1.0));
    }
    curves.push_back(c);
  }
  return curves;
}

std::pair<double, double> yAxisRange(const CurveChart& chart) {
  const auto* axis = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Vertical).first());
  return axis ? std::pair{axis->min(), axis->max()} : std::pair{0.0, 0.0};
}

QColor lineColour(const CurveChart& chart, const QString& name) {
  for (QAbstractSeries* s : chart.chart()->series())
    if (auto* line = qobject_cast<QLineSeries*>(s); line && line->name() == name)
      return line->pen().color();
  return {};
}

}  // namespace

class TestCurveChart : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void legendShowsFullNamesBelowThePlot() {
    CurveChart chart;
    chart.resize(320, 420);
    chart.setAxisTitles("noise level σ", "MMSE");
    const QString longName = "held-out (upper bound) · train-images-idx3-ubyte";
    chart.setCurves(
        {line("empirical (training queries) · train-images-idx3-ubyte", 1.0), line(longName, 2.0)});
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QLabel* legend = chart.legendLabel();
    QVERIFY(!legend->isHidden());
    QVERIFY(legend->text().contains(QString(longName).replace(' ', "&nbsp;")));
    // Wrapped onto more than one line, and entirely below the chart's scene.
    QVERIFY(legend->height() > 1.5 * legend->fontMetrics().height());
    QVERIFY(legend->geometry().bottom() <= chart.height());
    QVERIFY(chart.viewport()->geometry().bottom() < legend->geometry().top());
    QCOMPARE(chart.chart()->size().toSize(), chart.viewport()->size());
    saveScreenshot(&chart, "curve-chart-legend");
  }

  // A race's first evaluations all sit at one step: the x axis still spans a range around it,
  // and each lone point is drawn with a marker (a line through one point draws nothing).
  void lonePointsAreShown() {
    CurveChart chart;
    chart.resize(320, 300);
    chart.setLogX(false);
    chart.setCurves(
        {{"run a", {250.0}, {40.0}, {}, {}, {}}, {"run b", {250.0}, {55.0}, {}, {}, {}}});
    const auto* axis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).first());
    QVERIFY(axis);
    QVERIFY(axis->min() < 250.0 && axis->max() > 250.0);
    const auto series = chart.chart()->series();
    QCOMPARE(series.size(), 2);
    for (QAbstractSeries* s : series) QVERIFY(qobject_cast<QLineSeries*>(s)->pointsVisible());
    chart.setCurves({line("a line", 1.0)});
    QVERIFY(!qobject_cast<QLineSeries*>(chart.chart()->series().first())->pointsVisible());
  }

  // A redraw keeps the series of curves that did not change (a panel redraws on every profile,
  // level or run poll); changed, new and removed curves get their own, and a change of axis
  // kind draws everything anew.
  void unchangedCurvesKeepTheirSeries() {
    CurveChart chart;
    chart.setLogY(true);
    Curve banded = line("banded", 1.0);
    for (double y : banded.y) banded.lower.push_back(0.5 * y), banded.upper.push_back(2.0 * y);
    chart.setCurves({banded, line("b", 2.0)});
    // Guarded pointers: a deleted series reads as null, so an address the allocator reuses for a
    // new series is not mistaken for the old one.
    const QList<QPointer<QAbstractSeries>> before = guarded(chart.chart()->series());
    QCOMPARE(before.size(), 3);  // band, its line, b
    chart.setCurves({banded, line("b", 2.0), line("c", 3.0)});
    const QList<QPointer<QAbstractSeries>> grown = guarded(chart.chart()->series());
    QCOMPARE(grown.size(), 4);
    for (const auto& s : before) QVERIFY2(s && grown.contains(s), "an unchanged curve was redrawn");
    chart.setCurves({banded, line("c", 4.0)});  // b removed, c changed
    const QList<QAbstractSeries*> changed = chart.chart()->series();
    QCOMPARE(changed.size(), 3);
    QVERIFY(before[0] && before[1] && changed.contains(before[0]) && changed.contains(before[1]));
    QVERIFY(!grown[3] || !changed.contains(grown[3].data()));
    const auto* c = qobject_cast<QLineSeries*>(changed[2]);
    QVERIFY(c && c->name() == "c");
    QCOMPARE(c->at(c->count() - 1).y(), line("c", 4.0).y.back());
    chart.setLogY(false);
    for (QAbstractSeries* s : chart.chart()->series())
      for (const auto& old : before) QVERIFY(old.data() != s);
    QCOMPARE(chart.chart()->series().size(), 3);
  }

  void crowdedLegendShortensNamesButKeepsThemInTheTooltip() {
    CurveChart chart;
    chart.resize(260, 240);
    std::vector<Curve> curves;
    for (int i = 0; i < 12; ++i)
      curves.push_back(
          line(QString("run %1 · a long description of its sampler and seed").arg(i), 1.0 + i));
    chart.setCurves(curves);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QLabel* legend = chart.legendLabel();
    QVERIFY(legend->height() <= 0.4 * chart.height() + 1);
    QVERIFY(legend->text().contains("…"));
    QVERIFY(legend->toolTip().contains("run 11 · a long description of its sampler and seed"));
  }

  // The rule itself: data within the decade budget keeps its full extent; beyond it, the window
  // that shows the most of every curve wins, not the one a single exploding curve would set, and
  // the curves' anchors (their large-x ends) stay in view where one window can show them all.
  void informativeLogRangeIsAConsensusOfTheCurves() {
    const auto fits = informativeLogRange({{{0.01, 1.0}}, {{5.0, 1e3}}}, 6.0);
    QVERIFY(fits);
    QCOMPARE(fits->lo, 0.01);
    QCOMPARE(fits->hi, 1e3);
    QVERIFY(!informativeLogRange({{{0.0, -1.0}}, {}}, 6.0));
    // Three curves between 0.01 and 10, one climbing from 1 to 10¹²: the window stays on the
    // three (each counting as much as the climbing one) and takes the climber's lower part.
    std::vector<LogRangeCurve> curves(4);
    for (int i = 0; i <= 12; ++i) {
      for (int k = 0; k < 3; ++k) curves[k].values.push_back(0.01 * std::pow(10.0, 3.0 * i / 12));
      curves[3].values.push_back(std::pow(10.0, i));
    }
    const auto range = informativeLogRange(curves, 6.0);
    QVERIFY(range);
    QCOMPARE(range->lo, 0.01);
    QVERIFY2(range->hi >= 10.0 && range->hi <= 1e4 * 1.0001,
             qPrintable(QString::number(range->hi)));
    // Three curves over 10⁻³ … 10⁶ and one over 10² … 10⁶: shares alone pick 1 … 10⁶; with every
    // curve's anchor at 10⁻³ the window is 10⁻³ … 10³.
    std::vector<LogRangeCurve> spread(4);
    for (int i = 0; i <= 9; ++i) {
      for (int k = 0; k < 3; ++k) spread[k].values.push_back(std::pow(10.0, -3 + i));
      spread[3].values.push_back(std::pow(10.0, 2 + 4.0 * i / 9));
    }
    const auto byShare = informativeLogRange(spread, 6.0);
    QVERIFY(byShare);
    QCOMPARE(byShare->hi, 1e6);
    for (LogRangeCurve& c : spread) c.anchor = 1e-3;
    const auto anchored = informativeLogRange(spread, 6.0);
    QVERIFY(anchored);
    QCOMPARE(anchored->lo, 1e-3);
    QCOMPARE(anchored->hi, 1e3);
    // Anchors no six decades can hold are left aside: shares decide alone.
    spread[3].anchor = 1e6;
    spread[0].anchor = 1e-3 / 10;
    const auto apart = informativeLogRange(spread, 6.0);
    QVERIFY(apart);
    QCOMPARE(apart->hi, byShare->hi);
  }

  // After a bracket (issue 35): the held-out posterior's rate, exploding at small σ, used to set
  // the axis to 20 … 3·10⁷ (per σ: 10⁴ … 10¹⁰), with the empirical rate and every σ > 3 tail
  // below it. Now each curve's tail and the empirical peak are in view, the held-out curve's
  // explosion is cut and marked ▲, and the legend and its tooltip say so.
  void bracketRatesKeepEveryCurvesInformativePartInView() {
    for (const bool perSigma : {false, true}) {
      CurveChart chart;
      chart.resize(480, 420);
      chart.setLogY(true);
      const std::vector<Curve> curves = bracketRates(perSigma);
      chart.setCurves(curves);
      const auto [lo, hi] = yAxisRange(chart);
      const QString range =
          QString("%1 view: y-range %2 … %3").arg(perSigma ? "per σ" : "per log σ").arg(lo).arg(hi);
      for (const Curve& c : curves)
        for (size_t i = 0; i < c.x.size(); ++i)
          if (c.x[i] >= 3)
            QVERIFY2(c.y[i] >= lo && c.y[i] <= hi, qPrintable(QString("%1: %2 at σ = %3 off the %4")
                                                                  .arg(c.name)
                                                                  .arg(c.y[i])
                                                                  .arg(c.x[i])
                                                                  .arg(range)));
      const std::vector<double>& empirical = curves.back().y;
      const double peak = *std::max_element(empirical.begin(), empirical.end());
      QVERIFY2(peak >= lo && peak <= hi, qPrintable(range));
      QVERIFY2(hi / lo <= 2e6, qPrintable(range));  // still six decades or so: shapes readable

      const std::vector<OffRange>& off = chart.offRange();
      QCOMPARE(off.size(), curves.size());
      QVERIFY(off.front().above > 0);  // the held-out posterior's explosion
      QCOMPARE(off.front().aboveMarks.size(), 1);
      QVERIFY(off.front().aboveMarks.front().y() <= hi);
      QCOMPARE(off[3].above, 0);
      int marks = 0;
      for (QAbstractSeries* s : chart.chart()->series())
        if (s->name() == curves.front().name + " (above the y-range)") ++marks;
      QCOMPARE(marks, 1);
      QVERIFY2(chart.legendLabel()->text().contains("above&nbsp;the&nbsp;range"),
               qPrintable(chart.legendLabel()->text()));
      QVERIFY(chart.legendLabel()->toolTip().contains("beyond the y-range"));
      if (!perSigma) {
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        saveScreenshot(&chart, "curve-chart-bracket-rates");
      }
    }
  }

  // A curve without a colour of its own keeps the one it was first drawn in when the curves
  // before it are removed (colours by position shifted every later curve's).
  void curvesKeepTheirColourWhenOthersAreRemoved() {
    CurveChart chart;
    chart.setCurves({line("a", 1.0), line("b", 2.0), line("c", 3.0)});
    const QColor b = lineColour(chart, "b"), c = lineColour(chart, "c");
    QVERIFY(b.isValid() && c.isValid() && b != c);
    chart.setCurves({line("b", 2.0), line("c", 3.0)});
    QCOMPARE(lineColour(chart, "b"), b);
    QCOMPARE(lineColour(chart, "c"), c);
    QVERIFY(chart.legendLabel()->text().contains(b.name()));
    chart.setCurves({line("d", 1.0), line("c", 3.0)});  // a new curve takes a colour of its own
    QVERIFY(lineColour(chart, "d") != c && lineColour(chart, "d") != b);
    QCOMPARE(lineColour(chart, "c"), c);
  }

  void noCurvesNoLegend() {
    CurveChart chart;
    chart.resize(300, 300);
    chart.setCurves({});
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QVERIFY(chart.legendLabel()->isHidden());
    QCOMPARE(chart.viewport()->height(), chart.height() - 2 * chart.frameWidth());
  }
};

QTEST_MAIN(TestCurveChart)
#include "test_curve_chart.moc"
