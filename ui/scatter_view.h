#pragma once
// A 2-D scatter plot of a point dataset with labelled axes: clean points in grey, noisy x + σ·ε
// points in colour.
#include <QtCharts/QChartView>

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

 private:
  QScatterSeries* clean_;
  QScatterSeries* noisy_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
};

}  // namespace noisescope::ui
