#include "ui/image_view.h"

#include <QFontMetrics>
#include <QPainter>

#include <utility>

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

void ImageView::setCellLabels(std::vector<QPoint> origins, QStringList labels) {
  origins_ = std::move(origins);
  labels_ = std::move(labels);
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

  // Each label on a dark box in its cell's corner, readable over black and white pixels alike.
  const double scale = double(area.width()) / image_.width();
  const QFontMetrics metrics(font());
  painter.setPen(Qt::white);
  for (size_t i = 0; i < origins_.size() && i < size_t(labels_.size()); ++i) {
    const QPoint corner =
        area.topLeft() + QPoint(int(origins_[i].x() * scale), int(origins_[i].y() * scale));
    const QRect box(corner,
                    QSize(metrics.horizontalAdvance(labels_[int(i)]) + 4, metrics.height()));
    painter.fillRect(box, QColor(0, 0, 0, 160));
    painter.drawText(box, Qt::AlignCenter, labels_[int(i)]);
  }
}

}  // namespace noisescope::ui
