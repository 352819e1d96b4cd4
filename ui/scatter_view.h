#pragma once
// A 2-D scatter plot of a point dataset with labelled axes: clean points in grey, noisy x + σ·ε
// points in colour. Qt Charts draws the axes and the legend; the points are painted over the plot
// area from one cached image, since a Qt Charts scatter series makes a graphics item per point
// (4 000 of them took 75-95 ms of the GUI thread on every new sample; bench/soak/RESULTS.md).
#include <QtCharts/QChartView>

#include <QPixmap>
#include <QPointF>

#include <vector>

class QScatterSeries;
class QValueAxis;

namespace noisescope::ui {

class ScatterView : public QChartView {
  Q_OBJECT

 public:
  explicit ScatterView(QWidget* parent = nullptr);
  // xy holds (x, y) pairs.
  void setPoints(const std::vector<float>& cleanXY, const std::vector<float>& noisyXY,
                 double sigma);
  int noisyPointCount() const;

 protected:
  void drawForeground(QPainter* painter, const QRectF& rect) override;

 private:
  // The points drawn on an image the size of the plot area (in device pixels).
  void renderPoints(const QRectF& plot, qreal pixelRatio);

  QScatterSeries* clean_;
  QScatterSeries* noisy_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
  std::vector<QPointF> cleanPoints_, noisyPoints_;
  QPixmap points_;  // the points, drawn for pointsPlot_ (empty: draw again)
  QRectF pointsPlot_;
};

}  // namespace noisescope::ui
