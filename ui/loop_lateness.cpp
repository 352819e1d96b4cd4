#include "ui/loop_lateness.h"

#include <algorithm>

#include <time.h>

namespace noisescope::ui {

namespace {
double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
}  // namespace

LoopLateness::LoopLateness(int intervalMs, QObject* parent)
    : QObject(parent), interval_(intervalMs) {
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(interval_);
  connect(&timer_, &QTimer::timeout, this, &LoopLateness::tick);
  clock_.start();
  last_ = clock_.nsecsElapsed();
  lastCpuMs_ = threadCpuMs();
  timer_.start();
}

void LoopLateness::tick() {
  const qint64 now = clock_.nsecsElapsed();
  const double late = std::max(0.0, (now - last_) / 1e6 - interval_);
  last_ = now;
  const double cpu = threadCpuMs();
  const double busy = std::min(late, cpu - lastCpuMs_);  // CPU spent in the gap, up to the stall
  lastCpuMs_ = cpu;
  if (!counting_) {
    warmUpWorst_ = std::max(warmUpWorst_, late);
    return;
  }
  ++ticks_;
  if (late > worst_) {
    worst_ = late;
    worstStep_ = step_;
  }
  double& inStep = byStep_[step_];
  inStep = std::max(inStep, late);
  if (busy > worstBusy_) {
    worstBusy_ = busy;
    worstBusyStep_ = step_;
  }
  double& busyInStep = busyByStep_[step_];
  busyInStep = std::max(busyInStep, busy);
  ++histogram_[static_cast<int>(late / 10)];
}

long long LoopLateness::stallsOver(double ms) const {
  long long n = 0;
  for (const auto& [bucket, count] : histogram_)
    if (bucket * 10.0 >= ms) n += count;
  return n;
}

}  // namespace noisescope::ui
