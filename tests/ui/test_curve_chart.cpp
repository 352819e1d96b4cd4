// The chart legend: every curve's full name, wrapped under the plot and never over it; a legend
// too long for its share of the height shortens names, and the tooltip still has all of them.
// A curve of one point still shows.
#include <QLabel>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <QtTest>

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
