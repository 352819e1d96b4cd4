#include "step_runner.h"

#include <QDateTime>

namespace noisescope::soak {

StepRunner::StepRunner(QObject* parent) : QObject(parent) {
  poll_.setInterval(20);
  connect(&poll_, &QTimer::timeout, this, &StepRunner::poll);
}

void StepRunner::run(std::vector<Step> steps) {
  steps_ = std::move(steps);
  next_ = 0;
  // From the event loop, so that a step never runs inside the signal that ended the last cycle.
  QTimer::singleShot(0, this, &StepRunner::startNext);
}

void StepRunner::startNext() {
  if (next_ >= steps_.size()) {
    poll_.stop();
    Q_EMIT finished();
    return;
  }
  const Step& step = steps_[next_];
  Q_EMIT stepStarted(step.name);
  const QString error = step.action ? step.action() : QString();
  if (!error.isEmpty()) {
    poll_.stop();
    Q_EMIT failed(QStringLiteral("%1: %2").arg(step.name, error));
    return;
  }
  deadline_ = QDateTime::currentMSecsSinceEpoch() + step.timeoutMs;
  poll_.start();
}

void StepRunner::poll() {
  const Step& step = steps_[next_];
  if (step.done()) {
    poll_.stop();
    ++next_;
    startNext();
  } else if (QDateTime::currentMSecsSinceEpoch() > deadline_) {
    poll_.stop();
    Q_EMIT failed(
        QStringLiteral("%1: not done within %2 s").arg(step.name).arg(step.timeoutMs / 1000));
  }
}

}  // namespace noisescope::soak
