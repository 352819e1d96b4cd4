#include "ui/hidden_redraw.h"

#include <QEvent>
#include <QWidget>

namespace noisescope::ui {

HiddenRedraw::HiddenRedraw(QWidget* panel, std::function<void()> redraw)
    : QObject(panel), panel_(panel), redraw_(std::move(redraw)) {
  panel_->installEventFilter(this);
}

namespace {
// Hidden by a hide() of its own or of an ancestor below the window (QStackedWidget hides the tabs
// that are not current). A widget not shown yet is hidden too, but not explicitly: a panel being
// built, or in a window not yet on screen, still draws.
bool hiddenInWindow(const QWidget* w) {
  for (; w && !w->isWindow(); w = w->parentWidget())
    if (w->testAttribute(Qt::WA_WState_Hidden) && w->testAttribute(Qt::WA_WState_ExplicitShowHide))
      return true;
  return false;
}
}  // namespace

bool HiddenRedraw::defer() {
  if (flushing_ || !hiddenInWindow(panel_)) return false;
  stale_ = true;
  return true;
}

void HiddenRedraw::flush() {
  if (!stale_) return;
  stale_ = false;
  flushing_ = true;
  redraw_();
  flushing_ = false;
}

bool HiddenRedraw::eventFilter(QObject* watched, QEvent* event) {
  // Show: the panel appears on screen; ShowToParent: its tab became current in a window not yet
  // shown.
  if (watched == panel_ && (event->type() == QEvent::Show || event->type() == QEvent::ShowToParent))
    flush();
  return false;
}

}  // namespace noisescope::ui
