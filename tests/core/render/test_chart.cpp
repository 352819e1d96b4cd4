// The charts written without a GUI (render/chart.h): a schedule chart's series, stems and band,
// its SVG (escaped labels, dashed reference lines) and PNG, and the refusal of other formats.
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include "render/chart.h"
#include "schedule/families.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;
using namespace noisescope::render;

namespace {
int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

class TestChart : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void scheduleCharts();
  void dashedReferenceLines();
};

void TestChart::scheduleCharts() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 64);
  const Schedule atoms = Schedule::fromAtoms({{0.1, 0.3}, {2.0, 0.7}}, 0.002, 80.0);
  const std::vector<Schedule> schedules = {makePresetSchedule("edm", grid), atoms};
  const ChartSpec chart = scheduleChart(schedules, {"EDM <&>", "atoms"}, grid, Coordinate::Sigma,
                                        Curve::Allocation, 0.05, 1.0);
  QVERIFY(chart.logX);
  QCOMPARE(chart.series.size(), std::size_t(2));
  QVERIFY(chart.series[1].stems);
  QCOMPARE(chart.bands.size(), std::size_t(1));
  const std::string svg = renderSvg(chart);
  QVERIFY(svg.rfind("<svg", 0) == 0);
  QCOMPARE(count(svg, "<polyline"), 1);
  QCOMPARE(count(svg, "<circle"), 2);
  QVERIFY(svg.find("EDM &lt;&amp;&gt;") != std::string::npos);  // labels are escaped
  QTemporaryDir dir;
  const std::string png = dir.filePath("chart.png").toStdString();
  writeChart(png, chart);
  std::ifstream in(png, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  QVERIFY(std::string(magic + 1, 3) == "PNG");
  QVERIFY_THROWS_EXCEPTION(InputError, writeChart(dir.filePath("chart.gif").toStdString(), chart));
  // The CDF curve in λ runs against σ: still in [0, 1].
  const ChartSpec cdf = scheduleChart(schedules, {}, grid, Coordinate::Lambda, Curve::Cdf);
  for (double v : cdf.series[0].y) QVERIFY(v >= 0.0 && v <= 1.0);
}

void TestChart::dashedReferenceLines() {
  ChartSpec chart;
  chart.series.push_back({"measured", {1, 2, 3}, {3, 2, 1}});
  ChartSeries floor{"floor", {1, 3}, {0.5, 0.5}};
  floor.dashed = true;
  chart.series.push_back(floor);
  const std::string svg = renderSvg(chart);
  QCOMPARE(count(svg, "<polyline"), 2);
  QCOMPARE(count(svg, "stroke-dasharray"), 1);
}

QTEST_APPLESS_MAIN(TestChart)
#include "test_chart.moc"
