#pragma once
// The GUI event loop's longest stall, measured by a timer that measures its own lateness: it asks
// to fire every few milliseconds, and whatever time beyond that passes between two firings is
// time the loop spent blocked. Each stall is charged to the step its caller names (the soak's
// steps in bench/soak; one step in the responsiveness test). Beside the
// wall-clock stall it keeps the GUI thread's own CPU time over the same gap: on a loaded machine
// a stall is partly waiting for a core, and the CPU part is what the workbench itself spent.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <map>

namespace noisescope::ui {

class LoopLateness : public QObject {
  Q_OBJECT

 public:
  explicit LoopLateness(int intervalMs = 10, QObject* parent = nullptr);

  void setStep(const QString& step) { step_ = step; }
  // Stalls before this call (start-up, the first cycle's warm-up) are kept apart.
  void startCounting() { counting_ = true; }
  double worstMs() const { return worst_; }
  const QString& worstStep() const { return worstStep_; }
  double warmUpWorstMs() const { return warmUpWorst_; }
  // The longest stall counted in GUI-thread CPU time, and its step.
  double worstBusyMs() const { return worstBusy_; }
  const QString& worstBusyStep() const { return worstBusyStep_; }
  // Per step: the longest stall in it, wall clock and CPU (counted steps only).
  const std::map<QString, double>& worstByStep() const { return byStep_; }
  const std::map<QString, double>& worstBusyByStep() const { return busyByStep_; }
  long long stallsOver(double ms) const;
  // Firings counted since startCounting(): the loop turned this many times.
  long long ticks() const { return ticks_; }

 private:
  void tick();

  int interval_;
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = 0;
  double lastCpuMs_ = 0;
  QString step_ = QStringLiteral("start-up");
  bool counting_ = false;
  double worst_ = 0, warmUpWorst_ = 0, worstBusy_ = 0;
  QString worstStep_, worstBusyStep_;
  std::map<QString, double> byStep_, busyByStep_;
  std::map<int, long long> histogram_;  // stalls by whole 10 ms
  long long ticks_ = 0;
};

}  // namespace noisescope::ui
