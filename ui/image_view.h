#pragma once
// Shows one rendered image scaled to fit the widget with nearest-neighbour sampling, so pixels of
// small images stay crisp, optionally with a short text over the corner of each cell of a grid
// (the samples' class labels).
#include <QImage>
#include <QPoint>
#include <QStringList>
#include <QWidget>

#include <vector>

#include "render/sample_image.h"

namespace noisescope::ui {

QImage toQImage(const RgbImage& image);

class ImageView : public QWidget {
  Q_OBJECT

 public:
  explicit ImageView(QWidget* parent = nullptr);
  void setImage(const QImage& image);
  const QImage& image() const { return image_; }
  // `labels[i]` is drawn at the top-left corner of the cell whose corner is `origins[i]`, in the
  // image's pixels (renderSampleGrid's cell origins); empty lists draw none.
  void setCellLabels(std::vector<QPoint> origins, QStringList labels);
  const QStringList& cellLabels() const { return labels_; }
  QSize sizeHint() const override { return {480, 480}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QImage image_;
  std::vector<QPoint> origins_;
  QStringList labels_;
};

}  // namespace noisescope::ui
