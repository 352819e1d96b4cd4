#include "ui/curve_chart.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <QAction>
#include <QFontMetrics>
#include <QLabel>
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
  if (on == logX_) return;
  logX_ = on;
  dropSeries();  // which points a log axis can show changes: no curve is kept
  rebuild();
}

void CurveChart::setLogY(bool on) {
  if (on == logY_) return;
  logY_ = on;
  dropSeries();  // which points a log axis can show changes: no curve is kept
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
  auto usable = [](double v, bool log) { return std::isfinite(v) && (!log || v > 0); };
  for (const Curve& curve : curves_) {
    for (size_t i = 0; i < curve.x.size() && i < curve.y.size(); ++i) {
      if (!usable(curve.x[i], logX_)) continue;
      xlo = std::min(xlo, curve.x[i]);
      xhi = std::max(xhi, curve.x[i]);
      for (double v : {curve.y[i], curve.lower.empty() ? curve.y[i] : curve.lower[i],
                       curve.upper.empty() ? curve.y[i] : curve.upper[i]}) {
        if (!usable(v, logY_)) continue;
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
  if (ylo > yhi) ylo = logY_ ? 1e-3 : 0.0, yhi = 1.0;
  // A log axis spanning more than six decades hides the curves' shape; zeros and near-zeros
  // (e.g. MMSE below the memorisation scale) sit on the floor instead.
  if (logY_) ylo = std::max(ylo, yhi * 1e-6);
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
  const bool keepAxes = xAxes.size() == 1 && yAxes.size() == 1 &&
                        shapeOf(xAxes.front()) == xShape && shapeOf(yAxes.front()) == yShape;
  if (!keepAxes) {
    dropSeries();
    for (QAbstractAxis* axis : c->axes()) {
      c->removeAxis(axis);
      delete axis;
    }
    c->addAxis(makeAxis(xShape, xTitle_), Qt::AlignBottom);
    c->addAxis(makeAxis(yShape, yTitle_), Qt::AlignLeft);
  }
  QAbstractAxis* axisX = c->axes(Qt::Horizontal).front();
  QAbstractAxis* axisY = c->axes(Qt::Vertical).front();
  setAxisRange(axisX, xlo, xhi);
  setAxisRange(axisY, yAxisLo, yAxisHi);

  // Band points below a log axis's floor are drawn on it, so a band depends on the floor too.
  const double floor = logY_ ? ylo : -std::numeric_limits<double>::max();
  std::vector<DrawnCurve> previous = std::move(drawn_);
  drawn_.clear();
  int index = 0;
  for (Curve curve : curves_) {
    if (!curve.color.isValid()) curve.color = paletteColor(index);
    ++index;
    const bool banded = !curve.lower.empty() && curve.lower.size() == curve.x.size() &&
                        curve.upper.size() == curve.x.size();
    const auto same = std::find_if(previous.begin(), previous.end(), [&](const DrawnCurve& d) {
      return d.line && d.curve == curve && (!banded || d.floor == floor);
    });
    if (same != previous.end()) {
      drawn_.push_back(*same);
      same->line = nullptr;  // taken
      continue;
    }
    DrawnCurve d{curve, floor, nullptr, nullptr};
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
    drawn_.push_back(d);
  }
  for (const DrawnCurve& gone : previous) {
    if (!gone.line) continue;  // kept
    for (QAbstractSeries* series :
         {static_cast<QAbstractSeries*>(gone.band), static_cast<QAbstractSeries*>(gone.line)}) {
      if (!series) continue;
      c->removeSeries(series);
      delete series;
    }
  }
  rebuildLegend();
}

namespace {

// The legend's rich text; names longer than `elideWidth` pixels (> 0) are shortened with "…".
QString legendHtml(const std::vector<Curve>& curves, const QFontMetrics& metrics, int elideWidth) {
  // One entry per curve: a swatch in its colour (dashed curves get a dashed one) and its name.
  // Entries are separated by ordinary spaces so that lines break between them, not inside.
  QStringList entries;
  int index = 0;
  for (const Curve& curve : curves) {
    const QColor color = curve.color.isValid() ? curve.color : CurveChart::paletteColor(index);
    ++index;
    const QString swatch = curve.markers  ? QStringLiteral("● ●")
                           : curve.dashed ? QStringLiteral("╍╍")
                                          : QStringLiteral("━━");
    const QString shown =
        elideWidth > 0 ? metrics.elidedText(curve.name, Qt::ElideRight, elideWidth) : curve.name;
    QString name = shown.toHtmlEscaped();
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
  for (const Curve& curve : curves_) names << curve.name;
  legend_->setToolTip(names.join('\n'));
  legendText_ = legendHtml(curves_, legend_->fontMetrics(), 0);
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
      legend_->setText(legendHtml(curves_, legend_->fontMetrics(), std::max(60, width / 4)));
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
