#pragma once
// A chart of curves over σ (or any positive x) with labelled axes, optional log scales, and
// shaded confidence bands. Every chart in the workbench is one of these, so they all export,
// scale and label the same way.
#include <QtCharts/QChartView>

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>
#include <limits>
#include <map>
#include <optional>
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

// The y-range of a log axis that keeps every curve's informative part in view. Each curve gives its
// values (line and band; only positive, finite ones count) and its anchor: its value at its largest
// x. When all values fit in `maxDecades`, the range is their full extent. Otherwise it is the
// `maxDecades` window that (1) shows every curve's anchor, where one window can, and (2) among
// those, shows the largest share of every curve, each curve counting the same whatever its number
// of points; equal shares go to the higher window. Returns the extent of the values inside the
// window (lo ≤ hi), nullopt when there are none.
//
// Why: the old rule, the top six decades under the largest value, let one curve that explodes over
// a few levels (the held-out posterior's rate at small σ, 3·10⁷) push every other curve's peak and
// tail off the chart; quantiles pooled over all points still follow that curve when its explosion
// covers a third of the grid. Counting each curve's share equally makes the window a consensus.
// The anchors settle what shares alone cannot (per unit σ the bounds' explosions cover half their
// points): in each log chart of the workbench the large-x end is where curves are informative and
// agree (the rates' tails, the MMSE's plateau, a converged loss), the small-x end where one of them
// explodes or drops to numerical zero (a bound's looseness, memorisation, the first steps' loss).
struct LogRangeCurve {
  std::vector<double> values;
  double anchor = std::numeric_limits<double>::quiet_NaN();  // NaN: none
};
struct LogRange {
  double lo, hi;
};
std::optional<LogRange> informativeLogRange(const std::vector<LogRangeCurve>& curves,
                                            double maxDecades);

// Where a drawn curve leaves a chart's y-range: its points above and below it, and the markers
// drawn on the range's edge where each run of such points starts (next to its in-range part).
struct OffRange {
  int above = 0, below = 0;
  QList<QPointF> aboveMarks, belowMarks;
  bool any() const { return above + below > 0; }
  bool operator==(const OffRange& o) const {
    return above == o.above && below == o.below && aboveMarks == o.aboveMarks &&
           belowMarks == o.belowMarks;
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
  // Both at once, with one rebuild: axes replaced before the chart's first layout stay drawn in
  // its corner (Qt Charts 6.4), so a chart that changes both kinds is given them together.
  void setLogAxes(bool logX, bool logY);
  bool logX() const { return logX_; }
  bool logY() const { return logY_; }
  // The most decades a log y axis spans (informativeLogRange's window; 6 unless set): a chart whose
  // curves differ by less, but where one outlier would still squash the rest, asks for fewer.
  void setMaxLogDecades(double decades);
  double maxLogDecades() const { return maxLogDecades_; }

  void setCurves(const std::vector<Curve>& curves);
  const std::vector<Curve>& curves() const { return curves_; }
  QString xTitle() const { return xTitle_; }
  QString yTitle() const { return yTitle_; }

  static QColor paletteColor(int index);
  // Per curve (as in curves()): its points outside the y-range, marked ▲/▼ on the chart's edge
  // and named in the legend and its tooltip. Only a log y axis cuts curves (informativeLogRange).
  const std::vector<OffRange>& offRange() const { return offRange_; }
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
  // A curve's own colour, else the one its name was given when first drawn on this chart: a curve
  // keeps its colour when others are removed (colours by position all shifted).
  QColor colourFor(const Curve& curve);
  // Adds ▲ (above) or ▼ markers on the y-range's edge for a curve; nullptr when there are none.
  QAbstractSeries* addOffRangeMarks(const QList<QPointF>& marks, bool above, const Curve& curve,
                                    QAbstractAxis* axisX, QAbstractAxis* axisY);

  // A curve on the chart and the series that draw it (its band, if any, and its line).
  struct DrawnCurve {
    Curve curve;   // as drawn: its colour resolved
    double floor;  // the log axis's floor its band was clamped to
    OffRange off;  // its markers depend on the range too
    QAbstractSeries* band;
    QXYSeries* line;
    QAbstractSeries* aboveMarks;
    QAbstractSeries* belowMarks;
  };

  std::vector<Curve> curves_;
  std::vector<DrawnCurve> drawn_;
  std::vector<Curve> shown_;  // curves_ as drawn: colours resolved (the legend's)
  std::vector<OffRange> offRange_;
  std::map<QString, QColor> colourByName_;
  int nextColour_ = 0;
  QString xTitle_, yTitle_;
  bool logX_ = true, logY_ = false;
  // More decades than this on a log y axis flatten every curve's shape.
  double maxLogDecades_ = 6.0;
  QLabel* legend_;
  QString legendText_;  // the full-name legend, built with the curves (resizes only re-wrap it)
};

}  // namespace noisescope::ui
