#include "ui/scatter_view.h"

#include <QtCharts/QChart>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

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
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(xy.size() / 2));
    for (size_t i = 0; i + 1 < xy.size(); i += 2) points.append(QPointF(xy[i], xy[i + 1]));
    return points;
  };
  clean_->replace(toPoints(cleanXY));
  noisy_->replace(toPoints(noisyXY));
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
}

int ScatterView::noisyPointCount() const {
  return static_cast<int>(noisy_->count());
}

}  // namespace noisescope::ui
