// The chart legend: every curve's full name, wrapped under the plot and never over it; a legend
// too long for its share of the height shortens names, and the tooltip still has all of them.
// A curve of one point still shows.
#include <QAbstractSeries>
#include <QLabel>
#include <QLineSeries>
#include <QList>
#include <QObject>
#include <QString>
#include <QTest>
#include <QValueAxis>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include "screenshot.h"
#include "ui/curve_chart.h"

using namespace noisescope::ui;

namespace {

Curve line(const QString& name, double scale) {
  Curve c;
  c.name = name;
  for (double s = 0.01; s < 100; s *= 2) {
    c.x.push_back(s);
    c.y.push_back(scale * s * s / (1 + s * s));
  }
  return c;
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
    const QList<QAbstractSeries*> before = chart.chart()->series();
    QCOMPARE(before.size(), 3);  // band, its line, b
    chart.setCurves({banded, line("b", 2.0), line("c", 3.0)});
    const QList<QAbstractSeries*> grown = chart.chart()->series();
    QCOMPARE(grown.size(), 4);
    for (QAbstractSeries* s : before) QVERIFY2(grown.contains(s), "an unchanged curve was redrawn");
    chart.setCurves({banded, line("c", 4.0)});  // b removed, c changed
    const QList<QAbstractSeries*> changed = chart.chart()->series();
    QCOMPARE(changed.size(), 3);
    QVERIFY(changed.contains(before[0]) && changed.contains(before[1]));
    QVERIFY(!changed.contains(grown[3]));
    const auto* c = qobject_cast<QLineSeries*>(changed[2]);
    QVERIFY(c && c->name() == "c");
    QCOMPARE(c->at(c->count() - 1).y(), line("c", 4.0).y.back());
    chart.setLogY(false);
    for (QAbstractSeries* s : chart.chart()->series()) QVERIFY(!before.contains(s));
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
