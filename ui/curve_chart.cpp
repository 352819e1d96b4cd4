#include "ui/curve_chart.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <QAction>
#include <QFontMetrics>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QResizeEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include "render/palette.h"
#include "ui/chart_export.h"

namespace noisescope::ui {

CurveChart::CurveChart(QWidget* parent) : QChartView(new QChart(), parent) {
  setRenderHint(QPainter::Antialiasing);
  chart()->legend()->setVisible(false);  // replaced by legend_, which wraps instead of shortening
  legend_ = new QLabel(this);
  legend_->setObjectName(QStringLiteral("chartLegend"));
  legend_->setWordWrap(true);
  legend_->setTextFormat(Qt::RichText);
  legend_->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
  legend_->setAttribute(Qt::WA_TransparentForMouseEvents);  // the chart keeps its context menu
  setMinimumSize(240, 200);
  // Every chart exports the same way: right-click, or the panel's export button.
  auto* exportAction = new QAction(tr("Export chart as PNG or SVG…"), this);
  connect(exportAction, &QAction::triggered, this, [this] {
    exportWidgetWithDialog(this,
                           chart()->title().isEmpty() ? "chart.png" : chart()->title() + ".png");
  });
  addAction(exportAction);
  setContextMenuPolicy(Qt::ActionsContextMenu);
}

namespace {

// log10 of the positive, finite values, sorted; empty when there are none.
std::vector<double> sortedLogs(const std::vector<double>& values) {
  std::vector<double> logs;
  for (double v : values)
    if (std::isfinite(v) && v > 0) logs.push_back(std::log10(v));
  std::sort(logs.begin(), logs.end());
  return logs;
}

}  // namespace

std::optional<LogRange> informativeLogRange(const std::vector<LogRangeCurve>& curves,
                                            double maxDecades) {
  std::vector<std::vector<double>> logs;  // per curve with values
  std::vector<double> all, anchors;
  for (const LogRangeCurve& curve : curves) {
    std::vector<double> curveLogs = sortedLogs(curve.values);
    if (curveLogs.empty()) continue;
    all.insert(all.end(), curveLogs.begin(), curveLogs.end());
    logs.push_back(std::move(curveLogs));
    if (std::isfinite(curve.anchor) && curve.anchor > 0)
      anchors.push_back(std::log10(curve.anchor));
  }
  if (all.empty()) return std::nullopt;
  std::sort(all.begin(), all.end());
  auto power = [](double l) { return std::pow(10.0, l); };
  if (all.back() - all.front() <= maxDecades)
    return LogRange{power(all.front()), power(all.back())};

  const double slack = 1e-9;  // a value on the window's top edge is in it
  // Bottoms that keep every anchor in the window; all of them when no window can.
  double lowest = all.front(), highest = all.back();
  if (!anchors.empty()) {
    const auto [minAnchor, maxAnchor] = std::minmax_element(anchors.begin(), anchors.end());
    if (*maxAnchor - *minAnchor <= maxDecades + slack)
      lowest = *maxAnchor - maxDecades, highest = *minAnchor;
  }
  // A window starting between two values shows no more than one starting at the upper of them:
  // the lowest bottom allowed and the values above it are all there is to try.
  std::vector<double> bottoms{lowest};
  for (double v : all)
    if (v > lowest && v <= highest) bottoms.push_back(v);
  auto inside = [&](const std::vector<double>& sorted, double bottom) {
    return std::upper_bound(sorted.begin(), sorted.end(), bottom + maxDecades + slack) -
           std::lower_bound(sorted.begin(), sorted.end(), bottom);
  };
  double bestShare = -1.0, bestBottom = lowest;
  for (double bottom : bottoms) {
    double share = 0.0;
    for (const std::vector<double>& sorted : logs)
      share += static_cast<double>(inside(sorted, bottom)) / static_cast<double>(sorted.size());
    // Bottoms ascend: an equal share moves the window up, where the curves' peaks are (the
    // MMSE's near-zeros below the memorisation scale are what an equal share then gives up).
    if (share >= bestShare - 1e-12) bestShare = share, bestBottom = bottom;
  }
  const double lo = *std::lower_bound(all.begin(), all.end(), bestBottom);
  const double hi =
      *(std::upper_bound(all.begin(), all.end(), bestBottom + maxDecades + slack) - 1);
  return LogRange{power(lo), power(hi)};
}

QColor CurveChart::paletteColor(int index) {
  const render::Rgb c = render::seriesColour(index);
  return QColor(c.r, c.g, c.b);
}

void CurveChart::setTitle(const QString& title) {
  chart()->setTitle(title);
}

// Titles are set on the axes in place: a panel sets them before every setCurves, and a rebuild
// per call tripled the cost of its redraw (bench/soak/RESULTS.md).
void CurveChart::setAxisTitles(const QString& x, const QString& y) {
  xTitle_ = x;
  yTitle_ = y;
  for (QAbstractAxis* axis : chart()->axes(Qt::Horizontal)) axis->setTitleText(x);
  for (QAbstractAxis* axis : chart()->axes(Qt::Vertical)) axis->setTitleText(y);
}

void CurveChart::setLogX(bool on) {
  setLogAxes(on, logY_);
}

void CurveChart::setLogY(bool on) {
  setLogAxes(logX_, on);
}

void CurveChart::setLogAxes(bool logX, bool logY) {
  if (logX == logX_ && logY == logY_) return;
  logX_ = logX;
  logY_ = logY;
  dropSeries();  // which points a log axis can show changes: no curve is kept
  rebuild();
}

void CurveChart::setMaxLogDecades(double decades) {
  if (decades == maxLogDecades_ || !(decades > 0)) return;
  maxLogDecades_ = decades;
  rebuild();
}

void CurveChart::dropSeries() {
  chart()->removeAllSeries();
  drawn_.clear();
}

void CurveChart::setCurves(const std::vector<Curve>& curves) {
  if (curves == curves_ && !chart()->axes().isEmpty()) return;  // nothing to draw anew
  curves_ = curves;
  rebuild();
}

namespace {

struct AxisShape {
  bool log = false;
  double base = 10.0;  // of a log axis
  bool operator==(const AxisShape& o) const { return log == o.log && (!log || base == o.base); }
};

AxisShape shapeOf(bool log, double lo, double hi) {
  // Base 10 labels only its decades: a range inside about one decade (NFE 8…64) gets powers of 2
  // instead, so it still shows labels.
  return {log, hi / lo >= 20.0 ? 10.0 : 2.0};
}

AxisShape shapeOf(const QAbstractAxis* axis) {
  if (const auto* log = qobject_cast<const QLogValueAxis*>(axis)) return {true, log->base()};
  return {false, 10.0};
}

QAbstractAxis* makeAxis(const AxisShape& shape, const QString& title) {
  if (shape.log) {
    auto* axis = new QLogValueAxis();
    axis->setBase(shape.base);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(-1);
    axis->setTitleText(title);
    return axis;
  }
  auto* axis = new QValueAxis();
  axis->setLabelFormat(QStringLiteral("%g"));
  axis->setTitleText(title);
  return axis;
}

// QValueAxis's own default. applyNiceNumbers changes the tick count along with the range, and
// starts from the count it finds: reset, a range no longer depends on the one drawn before it
// (a coordinate switched away and back kept the other coordinate's −10 … 10).
constexpr int kLinearTickCount = 5;

double axisMin(const QAbstractAxis* axis) {
  if (const auto* log = qobject_cast<const QLogValueAxis*>(axis)) return log->min();
  return qobject_cast<const QValueAxis*>(axis)->min();
}

double axisMax(const QAbstractAxis* axis) {
  if (const auto* log = qobject_cast<const QLogValueAxis*>(axis)) return log->max();
  return qobject_cast<const QValueAxis*>(axis)->max();
}

// The points of a curve a y-range [lo, hi] leaves out, and one marker per run of them: at the run's
// σ next to the part in view, so the marker says where the curve leaves (or re-enters) the chart.
// `markLo`/`markHi` are the heights just inside the edges where the markers sit.
OffRange offRangeOf(const Curve& curve, bool logX, double lo, double hi, double markLo,
                    double markHi) {
  std::vector<double> xs;
  std::vector<int> side;  // −1 below the range, 0 in it, +1 above
  for (size_t i = 0; i < curve.x.size() && i < curve.y.size(); ++i) {
    const double x = curve.x[i], y = curve.y[i];
    if (!std::isfinite(x) || (logX && x <= 0) || !std::isfinite(y) || y <= 0) continue;
    xs.push_back(x);
    side.push_back(y > hi ? 1 : y < lo ? -1 : 0);
  }
  OffRange off;
  for (size_t start = 0; start < side.size();) {
    size_t end = start;
    while (end < side.size() && side[end] == side[start]) ++end;
    if (side[start] != 0) {
      const bool inViewBefore = start > 0 && side[start - 1] == 0;
      const bool inViewAfter = end < side.size() && side[end] == 0;
      const double x = !inViewBefore && inViewAfter ? xs[end - 1] : xs[start];
      const int count = static_cast<int>(end - start);
      if (side[start] > 0)
        off.above += count, off.aboveMarks.append({x, markHi});
      else
        off.below += count, off.belowMarks.append({x, markLo});
    }
    start = end;
  }
  return off;
}

// A filled triangle pointing up (or down), the marker of a curve leaving the range that way.
QImage arrowImage(const QColor& colour, bool up) {
  const int size = 24;
  QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  QPainterPath path;
  const double top = up ? 2 : size - 2, base = up ? size - 4 : 4;
  path.moveTo(size / 2.0, top);
  path.lineTo(size - 2, base);
  path.lineTo(2, base);
  path.closeSubpath();
  painter.fillPath(path, colour);
  return image;
}

void setAxisRange(QAbstractAxis* axis, double lo, double hi) {
  axis->setRange(lo, hi);
  if (auto* linear = qobject_cast<QValueAxis*>(axis)) {
    linear->setTickCount(kLinearTickCount);
    linear->applyNiceNumbers();
  }
}

}  // namespace

void CurveChart::rebuild() {
  QChart* c = chart();
  // Ranges over every finite point that the axis type can show.
  double xlo = std::numeric_limits<double>::max(), xhi = -xlo;
  double ylo = xlo, yhi = -xlo;
  std::vector<LogRangeCurve> yValues;  // per curve, for a log axis's range
  auto usable = [](double v, bool log) { return std::isfinite(v) && (!log || v > 0); };
  for (const Curve& curve : curves_) {
    LogRangeCurve& rangeCurve = yValues.emplace_back();
    std::vector<double>& values = rangeCurve.values;
    double anchorX = -std::numeric_limits<double>::max();
    for (size_t i = 0; i < curve.x.size() && i < curve.y.size(); ++i) {
      if (!usable(curve.x[i], logX_)) continue;
      xlo = std::min(xlo, curve.x[i]);
      xhi = std::max(xhi, curve.x[i]);
      if (usable(curve.y[i], logY_) && curve.x[i] > anchorX)
        anchorX = curve.x[i], rangeCurve.anchor = curve.y[i];
      for (double v : {curve.y[i], curve.lower.empty() ? curve.y[i] : curve.lower[i],
                       curve.upper.empty() ? curve.y[i] : curve.upper[i]}) {
        if (!usable(v, logY_)) continue;
        values.push_back(v);
        ylo = std::min(ylo, v);
        yhi = std::max(yhi, v);
      }
    }
  }
  if (xlo > xhi) xlo = 1e-3, xhi = 1e2;
  // One x value (every run's first evaluation at the same step): an empty range would draw nothing.
  if (xlo == xhi) {
    const double pad = std::max(1.0, std::abs(xlo) / 2);
    xlo = logX_ ? xlo / 2 : xlo - pad;
    xhi = logX_ ? xhi * 2 : xhi + pad;
  }
  // A log axis spanning more than maxLogDecades_ (six) hides the curves' shape: the window that
  // shows every curve's large-x end and the most of each curve is drawn, and the points beyond it
  // are marked (informativeLogRange).
  if (logY_) {
    if (const auto range = informativeLogRange(yValues, maxLogDecades_))
      ylo = range->lo, yhi = range->hi;
  }
  if (ylo > yhi) ylo = logY_ ? 1e-3 : 0.0, yhi = 1.0;
  if (ylo == yhi) ylo = logY_ ? ylo / 2 : ylo - 1, yhi = logY_ ? yhi * 2 : yhi + 1;
  if (!logY_ && ylo > 0 && ylo < 0.25 * yhi) ylo = 0;  // densities read best from zero
  // A log axis over less than a decade shows almost no labels: draw such data linearly.
  const bool logY = logY_ && yhi / ylo > 10.0;
  const double yAxisLo = logY ? ylo * 0.8 : ylo, yAxisHi = logY ? yhi * 1.25 : yhi;
  const AxisShape xShape = shapeOf(logX_, xlo, xhi), yShape = shapeOf(logY, yAxisLo, yAxisHi);

  // The axes stay while their kind does; then a curve drawn before is kept as it is. A panel
  // redraws on every profile, level or run poll, and most of its curves have not changed: adding
  // a Qt Charts series (and laying the chart out again) is what the redraw used to spend its time
  // on (bench/soak/RESULTS.md).
  const QList<QAbstractAxis*> xAxes = c->axes(Qt::Horizontal), yAxes = c->axes(Qt::Vertical);
  const bool keepX = xAxes.size() == 1 && shapeOf(xAxes.front()) == xShape;
  const bool keepY = yAxes.size() == 1 && shapeOf(yAxes.front()) == yShape;
  if (!keepX || !keepY) {
    dropSeries();
    // Only the axis whose kind changed is replaced, hidden first: an axis removed before the
    // chart's first layout otherwise stays drawn, squeezed into its corner (Qt Charts 6.4; the
    // Sampling tab's race chart is laid out only when its tab is first shown, after its data).
    auto replace = [c](Qt::Orientation orientation, QAbstractAxis* axis, Qt::Alignment side) {
      for (QAbstractAxis* old : c->axes(orientation)) {
        old->hide();
        c->removeAxis(old);
        delete old;
      }
      c->addAxis(axis, side);
    };
    if (!keepX) replace(Qt::Horizontal, makeAxis(xShape, xTitle_), Qt::AlignBottom);
    if (!keepY) replace(Qt::Vertical, makeAxis(yShape, yTitle_), Qt::AlignLeft);
  }
  QAbstractAxis* axisX = c->axes(Qt::Horizontal).front();
  QAbstractAxis* axisY = c->axes(Qt::Vertical).front();
  setAxisRange(axisX, xlo, xhi);
  setAxisRange(axisY, yAxisLo, yAxisHi);

  // Band points below a log axis's floor are drawn on it, so a band depends on the floor too.
  const double floor = logY_ ? ylo : -std::numeric_limits<double>::max();
  // Only a log axis leaves points out (a linear one spans them all); the markers sit just inside
  // the axis's edges, where the curve leaves the plot.
  const double shownLo = axisMin(axisY), shownHi = axisMax(axisY);
  const double markLo = logY ? shownLo * 1.08 : shownLo + 0.03 * (shownHi - shownLo);
  const double markHi = logY ? shownHi / 1.08 : shownHi - 0.03 * (shownHi - shownLo);
  std::vector<DrawnCurve> previous = std::move(drawn_);
  drawn_.clear();
  shown_.clear();
  offRange_.clear();
  for (Curve curve : curves_) {
    curve.color = colourFor(curve);
    shown_.push_back(curve);
    const OffRange off =
        logY_ ? offRangeOf(curve, logX_, shownLo, shownHi, markLo, markHi) : OffRange{};
    offRange_.push_back(off);
    const bool banded = !curve.lower.empty() && curve.lower.size() == curve.x.size() &&
                        curve.upper.size() == curve.x.size();
    const auto same = std::find_if(previous.begin(), previous.end(), [&](const DrawnCurve& d) {
      return d.line && d.curve == curve && (!banded || d.floor == floor) && d.off == off;
    });
    if (same != previous.end()) {
      drawn_.push_back(*same);
      same->line = nullptr;  // taken
      continue;
    }
    DrawnCurve d{curve, floor, off, nullptr, nullptr, nullptr, nullptr};
    const QColor color = curve.color;
    if (banded) {
      QList<QPointF> lowerPoints, upperPoints;
      for (size_t i = 0; i < curve.x.size(); ++i) {
        if (!usable(curve.x[i], logX_)) continue;
        lowerPoints.append(
            {curve.x[i], std::max(usable(curve.lower[i], logY_) ? curve.lower[i] : floor, floor)});
        upperPoints.append(
            {curve.x[i], std::max(usable(curve.upper[i], logY_) ? curve.upper[i] : floor, floor)});
      }
      // One replace per series: append() point by point signals (and relayouts) per point.
      auto* lower = new QLineSeries();
      auto* upper = new QLineSeries();
      lower->replace(lowerPoints);
      upper->replace(upperPoints);
      auto* band = new QAreaSeries(upper, lower);
      // QAreaSeries does not own its edges: without a parent every redraw leaked both (heaptrack,
      // bench/soak/RESULTS.md); deleting the band now deletes them.
      upper->setParent(band);
      lower->setParent(band);
      band->setName(curve.name + tr(" (95% interval)"));
      QColor fill = color;
      fill.setAlpha(50);
      band->setBrush(fill);
      band->setPen(Qt::NoPen);
      c->addSeries(band);
      band->attachAxis(axisX);
      band->attachAxis(axisY);
      d.band = band;
    }
    QXYSeries* line = nullptr;
    if (curve.markers) {
      auto* points = new QScatterSeries();
      points->setMarkerSize(7);
      points->setColor(color);
      points->setBorderColor(color);
      line = points;
    } else {
      line = new QLineSeries();
      QPen pen(color, 2);
      if (curve.dashed) pen.setStyle(Qt::DashLine);
      line->setPen(pen);
    }
    line->setName(curve.name);
    QList<QPointF> points;
    for (size_t i = 0; i < curve.x.size() && i < curve.y.size(); ++i)
      if (usable(curve.x[i], logX_) && usable(curve.y[i], logY_))
        points.append({curve.x[i], curve.y[i]});
    line->replace(points);
    // A lone point (a run's first evaluation) shows.
    if (!curve.markers) line->setPointsVisible(line->count() == 1);
    c->addSeries(line);
    line->attachAxis(axisX);
    line->attachAxis(axisY);
    d.line = line;
    d.aboveMarks = addOffRangeMarks(off.aboveMarks, true, curve, axisX, axisY);
    d.belowMarks = addOffRangeMarks(off.belowMarks, false, curve, axisX, axisY);
    drawn_.push_back(d);
  }
  for (const DrawnCurve& gone : previous) {
    if (!gone.line) continue;  // kept
    for (QAbstractSeries* series :
         {gone.band, static_cast<QAbstractSeries*>(gone.line), gone.aboveMarks, gone.belowMarks}) {
      if (!series) continue;
      c->removeSeries(series);
      delete series;
    }
  }
  rebuildLegend();
}

QColor CurveChart::colourFor(const Curve& curve) {
  if (curve.color.isValid()) return curve.color;
  const auto known = colourByName_.find(curve.name);
  if (known != colourByName_.end()) return known->second;
  return colourByName_[curve.name] = paletteColor(nextColour_++);
}

QAbstractSeries* CurveChart::addOffRangeMarks(const QList<QPointF>& marks, bool above,
                                              const Curve& curve, QAbstractAxis* axisX,
                                              QAbstractAxis* axisY) {
  if (marks.isEmpty()) return nullptr;
  auto* series = new QScatterSeries();
  series->setName(curve.name + (above ? tr(" (above the y-range)") : tr(" (below the y-range)")));
  series->setMarkerSize(12);
  series->setLightMarker(arrowImage(curve.color, above));
  series->replace(marks);
  chart()->addSeries(series);
  series->attachAxis(axisX);
  series->attachAxis(axisY);
  return series;
}

namespace {

// What the legend adds to a curve's name when the y-range leaves some of its points out.
QString offRangeNote(const OffRange& off) {
  QStringList parts;
  if (off.above > 0) parts << CurveChart::tr("▲ %n above the range", nullptr, off.above);
  if (off.below > 0) parts << CurveChart::tr("▼ %n below", nullptr, off.below);
  return parts.join(QStringLiteral(", "));
}

// The legend's rich text; names longer than `elideWidth` pixels (> 0) are shortened with "…".
// `curves` have their colours resolved; `offRange` is per curve (empty: none left out).
QString legendHtml(const std::vector<Curve>& curves, const std::vector<OffRange>& offRange,
                   const QFontMetrics& metrics, int elideWidth) {
  // One entry per curve: a swatch in its colour (dashed curves get a dashed one) and its name.
  // Entries are separated by ordinary spaces so that lines break between them, not inside.
  QStringList entries;
  for (size_t index = 0; index < curves.size(); ++index) {
    const Curve& curve = curves[index];
    const QColor color = curve.color;
    const QString swatch = curve.markers  ? QStringLiteral("● ●")
                           : curve.dashed ? QStringLiteral("╍╍")
                                          : QStringLiteral("━━");
    const QString shown =
        elideWidth > 0 ? metrics.elidedText(curve.name, Qt::ElideRight, elideWidth) : curve.name;
    QString name = shown.toHtmlEscaped();
    if (index < offRange.size() && offRange[index].any())
      name += QStringLiteral(" (%1)").arg(offRangeNote(offRange[index]));
    name.replace(' ', QStringLiteral("&nbsp;"));
    entries << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                   .arg(color.name(), swatch, name);
  }
  return entries.join(QStringLiteral(" &nbsp; "));
}

}  // namespace

void CurveChart::rebuildLegend() {
  legend_->setHidden(curves_.empty());
  QStringList names;
  for (size_t i = 0; i < curves_.size(); ++i) {
    QString name = curves_[i].name;
    if (i < offRange_.size() && offRange_[i].any())
      name += tr(" — %1 (its points beyond the y-range, marked on the chart's edge where it "
                 "leaves it)")
                  .arg(offRangeNote(offRange_[i]));
    names << name;
  }
  legend_->setToolTip(names.join('\n'));
  legendText_ = legendHtml(shown_, offRange_, legend_->fontMetrics(), 0);
  placeLegend();
}

void CurveChart::placeLegend() {
  // The legend sits in a bottom margin of the view, so the chart's plot never runs under it. It
  // takes at most 40 % of the height; a longer one shortens the names (the tooltip has them all).
  const int margin = 4;
  const int width = std::max(1, this->width() - 2 * margin);
  int height = 0;
  if (!legend_->isHidden()) {
    legend_->setText(legendText_);
    height = legend_->heightForWidth(width);
    if (height > 0.4 * this->height()) {
      legend_->setText(
          legendHtml(shown_, offRange_, legend_->fontMetrics(), std::max(60, width / 4)));
      height = std::min(legend_->heightForWidth(width), static_cast<int>(0.4 * this->height()));
    }
  }
  setViewportMargins(0, 0, 0, height > 0 ? height + margin : 0);
  legend_->setGeometry(margin, this->height() - height - margin, width, height);
  // The chart fills the viewport above the legend (QChartView would size it to the whole view).
  chart()->resize(viewport()->size());
  setSceneRect(QRectF(QPointF(0, 0), viewport()->size()));
}

void CurveChart::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  placeLegend();  // after QChartView, which sizes the chart to the whole view
}

}  // namespace noisescope::ui
