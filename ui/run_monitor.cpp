#include "ui/run_monitor.h"

#include <QDir>
#include <QFile>

#include <csignal>
#include <exception>

#include "ui/child_process.h"

namespace noisescope::ui {

RunMonitor::RunMonitor(const QString& runDirectory, QObject* parent)
    : QObject(parent),
      directory_(runDirectory),
      watch_(QFile::encodeName(QDir(runDirectory).filePath(QStringLiteral("events.jsonl")))
                 .toStdString()) {
  // Redraw on a timer, not per event: a fast run writes many lines a second.
  timer_.setInterval(500);
  connect(&timer_, &QTimer::timeout, this, &RunMonitor::poll);
  timer_.start();
}

RunMonitor::~RunMonitor() {
  if (process_ && process_->isRunning()) {
    // No signals from a monitor being destroyed: its owner (the Training panel, closing with runs
    // still going) may already have destroyed what its slots touch.
    process_->disconnect(this);
    process_->terminate();
    if (!process_->waitForFinished(3000)) process_->kill();
    process_->waitForFinished(1000);
  }
}

void RunMonitor::start(const QString& cliPath, const QString& configPath) {
  process_ = new ChildProcess(this);
  connect(process_, &ChildProcess::output, this, [this](const QByteArray& bytes) {
    log_ += QString::fromLocal8Bit(bytes);
    if (log_.size() > 200000) log_ = log_.right(100000);  // keep the tail only
  });
  connect(process_, &ChildProcess::finished, this, [this](int code, bool crashed) {
    poll();
    QString message;
    // The SIGTERM that stop() sent is not a crash: the user stopped the run.
    stoppedByUser_ = stopRequested_ && (!crashed || code == SIGTERM);
    if (stoppedByUser_) {
      recordStop();
      poll();
    } else if (crashed)
      message = tr("the training process stopped abnormally (signal %1)").arg(code);
    else if (code != 0)
      message = tr("the training process exited with code %1: %2")
                    .arg(code)
                    .arg(log_.right(600).trimmed());
    Q_EMIT processFinished(crashed ? -1 : code, message);
  });
  if (!process_->start(cliPath, {QStringLiteral("train"), QStringLiteral("--config"), configPath,
                                 QStringLiteral("--out"), directory_}))
    Q_EMIT processFinished(-1, process_->errorString());
}

void RunMonitor::recordStop() {
  // A run that ended on its own (the signal came too late) was not stopped.
  if (watch_.record().ended) return;
  const auto& train = watch_.record().train;
  try {
    pipeline::recordUserStop(QFile::encodeName(directory_).toStdString(),
                             train.empty() ? 0 : static_cast<int64_t>(train.back().step));
  } catch (const std::exception& e) {
    Q_EMIT noted(tr("could not record the stop in %1: %2").arg(directory_, e.what()));
  }
}

void RunMonitor::stop() {
  if (!isRunning()) return;
  stopRequested_ = true;
  process_->terminate();
}

bool RunMonitor::isRunning() const {
  return process_ && process_->isRunning();
}

void RunMonitor::poll() {
  const pipeline::RunWatch::Change change = watch_.poll();
  for (const std::string& note : change.notes) Q_EMIT noted(QString::fromStdString(note));
  if (change.changed) Q_EMIT updated();
}

}  // namespace noisescope::ui
