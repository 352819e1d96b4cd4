#pragma once
// A chart of curves over σ (or any positive x) with labelled axes, optional log scales, and
// shaded confidence bands. Every chart in the workbench is one of these, so they all export,
// scale and label the same way.
#include <QtCharts/QChartView>

#include <QColor>
#include <QString>
#include <vector>

class QAbstractAxis;
class QAbstractSeries;
class QXYSeries;
class QLabel;

namespace noisescope::ui {

struct Curve {
  QString name;
  std::vector<double> x, y;
  std::vector<double> lower, upper;  // optional band (same length as x), e.g. a 95 % interval
  QColor color;                      // invalid: pick from the palette
  bool dashed = false;
  bool markers = false;  // points only, no line (e.g. the σ steps of a sampling grid)

  bool operator==(const Curve& other) const {
    return name == other.name && x == other.x && y == other.y && lower == other.lower &&
           upper == other.upper && color == other.color && dashed == other.dashed &&
           markers == other.markers;
  }
};

class CurveChart : public QChartView {
  Q_OBJECT

 public:
  explicit CurveChart(QWidget* parent = nullptr);

  void setTitle(const QString& title);
  void setAxisTitles(const QString& x, const QString& y);
  void setLogX(bool on);
  void setLogY(bool on);
  bool logX() const { return logX_; }
  bool logY() const { return logY_; }

  void setCurves(const std::vector<Curve>& curves);
  const std::vector<Curve>& curves() const { return curves_; }
  QString xTitle() const { return xTitle_; }
  QString yTitle() const { return yTitle_; }

  static QColor paletteColor(int index);
  // The legend under the plot: every curve's full name, wrapped over as many lines as it needs
  // (Qt Charts' own legend shortens names to fit one row).
  QLabel* legendLabel() const { return legend_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();
  void dropSeries();
  void rebuildLegend();
  void placeLegend();

  // A curve on the chart and the series that draw it (its band, if any, and its line).
  struct DrawnCurve {
    Curve curve;   // as drawn: its colour resolved
    double floor;  // the log axis's floor its band was clamped to
    QAbstractSeries* band;
    QXYSeries* line;
  };

  std::vector<Curve> curves_;
  std::vector<DrawnCurve> drawn_;
  QString xTitle_, yTitle_;
  bool logX_ = true, logY_ = false;
  QLabel* legend_;
  QString legendText_;  // the full-name legend, built with the curves (resizes only re-wrap it)
};

}  // namespace noisescope::ui
