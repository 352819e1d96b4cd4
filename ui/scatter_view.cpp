#include "ui/scatter_view.h"

#include <QtCharts/QChart>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <QPainter>

#include <algorithm>

namespace noisescope::ui {

// The chart is given to the base: QChartView(parent) would make a default one, which setChart
// releases without deleting (LeakSanitizer found it).
ScatterView::ScatterView(QWidget* parent) : QChartView(new QChart(), parent) {
  QChart* chart = this->chart();
  clean_ = new QScatterSeries();
  clean_->setName(tr("data x₀"));
  clean_->setMarkerSize(4);
  clean_->setColor(QColor(190, 190, 190));
  clean_->setBorderColor(Qt::transparent);
  noisy_ = new QScatterSeries();
  noisy_->setMarkerSize(4);
  noisy_->setColor(QColor(31, 111, 235));
  noisy_->setBorderColor(Qt::transparent);
  chart->addSeries(clean_);
  chart->addSeries(noisy_);
  axisX_ = new QValueAxis();
  axisX_->setTitleText(tr("x₁ (data units)"));
  axisY_ = new QValueAxis();
  axisY_->setTitleText(tr("x₂ (data units)"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  for (auto* series : {clean_, noisy_}) {
    series->attachAxis(axisX_);
    series->attachAxis(axisY_);
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(200, 200);
}

void ScatterView::setPoints(const std::vector<float>& cleanXY, const std::vector<float>& noisyXY,
                            double sigma) {
  auto toPoints = [](const std::vector<float>& xy) {
    std::vector<QPointF> points;
    points.reserve(xy.size() / 2);
    for (size_t i = 0; i + 1 < xy.size(); i += 2) points.emplace_back(xy[i], xy[i + 1]);
    return points;
  };
  cleanPoints_ = toPoints(cleanXY);
  noisyPoints_ = toPoints(noisyXY);
  noisy_->setName(tr("noisy x₀ + σε, σ = %1").arg(sigma, 0, 'g', 4));
  // Fit the view to everything shown, with equal ranges on both axes so shapes are not stretched.
  float lo = 0, hi = 0;
  bool first = true;
  for (const auto* xy : {&cleanXY, &noisyXY})
    for (float v : *xy) {
      if (first) lo = hi = v, first = false;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  const double pad = 0.05 * (hi - lo) + 1e-6;
  axisX_->setRange(lo - pad, hi + pad);
  axisY_->setRange(lo - pad, hi + pad);
  points_ = QPixmap();
  viewport()->update();
}

int ScatterView::noisyPointCount() const {
  return static_cast<int>(noisyPoints_.size());
}

void ScatterView::drawForeground(QPainter* painter, const QRectF& rect) {
  QChartView::drawForeground(painter, rect);
  const QRectF plot = chart()->mapRectToScene(chart()->plotArea());
  if (plot.isEmpty()) return;
  const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
  if (points_.isNull() || plot != pointsPlot_ || points_.devicePixelRatioF() != ratio)
    renderPoints(plot, ratio);
  painter->drawPixmap(plot.topLeft(), points_);
}

void ScatterView::renderPoints(const QRectF& plot, qreal pixelRatio) {
  points_ = QPixmap((plot.size() * pixelRatio).toSize());
  points_.setDevicePixelRatio(pixelRatio);
  points_.fill(Qt::transparent);
  pointsPlot_ = plot;
  const double x0 = axisX_->min(), xs = plot.width() / std::max(1e-12, axisX_->max() - x0);
  const double y0 = axisY_->min(), ys = plot.height() / std::max(1e-12, axisY_->max() - y0);
  QPainter p(&points_);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(Qt::NoPen);
  // The markers' size and colours are the legend's (the two series hold no points themselves).
  const double radius = clean_->markerSize() / 2.0;
  for (const auto& [points, series] : {std::pair{&cleanPoints_, clean_}, {&noisyPoints_, noisy_}}) {
    p.setBrush(series->color());
    for (const QPointF& q : *points)
      p.drawEllipse(QPointF((q.x() - x0) * xs, plot.height() - (q.y() - y0) * ys), radius, radius);
  }
}

}  // namespace noisescope::ui
