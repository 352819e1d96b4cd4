#include "ui/image_view.h"

#include <QPainter>

namespace noisescope::ui {

QImage toQImage(const RgbImage& image) {
  QImage out(reinterpret_cast<const uchar*>(image.pixels.data()), image.width, image.height,
             image.width * 3, QImage::Format_RGB888);
  return out.copy();  // detach from the RgbImage's buffer
}

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setMinimumSize(160, 120);
}

void ImageView::setImage(const QImage& image) {
  image_ = image;
  update();
}

void ImageView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  if (image_.isNull()) return;
  QSize target = image_.size().scaled(size(), Qt::KeepAspectRatio);
  // Integer zoom where it fits keeps pixels square.
  const int zoom = std::max(
      1, std::min(width() / std::max(1, image_.width()), height() / std::max(1, image_.height())));
  if (zoom >= 1 && image_.width() * zoom <= width() && image_.height() * zoom <= height() &&
      zoom * image_.width() >= target.width() * 0.8)
    target = image_.size() * zoom;
  const QRect area(QPoint((width() - target.width()) / 2, (height() - target.height()) / 2),
                   target);
  painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  painter.drawImage(area, image_);
}

}  // namespace noisescope::ui
