#pragma once
// Shows one rendered image scaled to fit the widget with nearest-neighbour sampling, so pixels of
// small images stay crisp.
#include <QImage>
#include <QWidget>

#include "render/sample_image.h"

namespace noisescope::ui {

QImage toQImage(const RgbImage& image);

class ImageView : public QWidget {
  Q_OBJECT

 public:
  explicit ImageView(QWidget* parent = nullptr);
  void setImage(const QImage& image);
  const QImage& image() const { return image_; }
  QSize sizeHint() const override { return {480, 480}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QImage image_;
};

}  // namespace noisescope::ui
