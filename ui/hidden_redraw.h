#pragma once
// A panel behind another tab redraws once, when it is shown, not on every workbench change: with
// a dozen profiles each profilesChanged cost every panel its charts, menus and comparison (seconds
// of GUI time, bench/soak/RESULTS.md). A panel asks defer() before drawing; while it is hidden in
// its window (a tab not current) that marks it stale and says no, and the next show runs redraw.
// A panel on its own, or the current tab of a window not yet shown, draws at once.
#include <QObject>

#include <functional>

class QWidget;

namespace noisescope::ui {

class HiddenRedraw : public QObject {
 public:
  HiddenRedraw(QWidget* panel, std::function<void()> redraw);

  // True (and the redraw is owed) while the panel is hidden in its window: the caller returns.
  bool defer();
  bool stale() const { return stale_; }
  // Runs an owed redraw now, shown or not (what a caller that reads the charts of a hidden
  // panel needs).
  void flush();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QWidget* panel_;
  std::function<void()> redraw_;
  bool stale_ = false;
  bool flushing_ = false;
};

}  // namespace noisescope::ui
