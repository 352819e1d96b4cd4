#include "ui/run_monitor.h"

#include <QDir>
#include <QFile>

#include <algorithm>

#include "io/run_events.h"
#include "ui/child_process.h"

namespace noisescope::ui {

RunMonitor::RunMonitor(const QString& runDirectory, QObject* parent)
    : QObject(parent),
      directory_(runDirectory),
      events_(std::make_unique<RunEventsFollower>(
          QFile::encodeName(QDir(runDirectory).filePath(QStringLiteral("events.jsonl")))
              .toStdString())) {
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
    if (crashed)
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

void RunMonitor::stop() {
  if (process_) process_->terminate();
}

bool RunMonitor::isRunning() const {
  return process_ && process_->isRunning();
}

void RunMonitor::poll() {
  RunEventsFollower::Batch batch;
  try {
    batch = events_->poll();
  } catch (const std::exception& e) {  // out of memory or the like: keep what was read
    addNote(tr("cannot read %1: %2").arg(QString::fromStdString(events_->path()), e.what()));
    Q_EMIT updated();
    return;
  }
  if (batch.restarted) {
    // Rewritten (a resumed run drops events after its checkpoint) or replaced: read it anew,
    // keeping the notes so that what happened stays visible.
    RunState fresh;
    fresh.notes = state_.notes;
    fresh.restarts = state_.restarts + 1;
    state_ = std::move(fresh);
    addNote(tr("%1 was replaced or shortened; read again from the start")
                .arg(QString::fromStdString(events_->path())));
  }
  for (const std::string& note : batch.notes) {
    ++state_.malformedLines;
    addNote(QString::fromStdString(note));
  }
  for (const RunEvent& event : batch.events) apply(event);
  if (batch.restarted || !batch.events.empty() || !batch.notes.empty()) Q_EMIT updated();
}

void RunMonitor::addNote(const QString& note) {
  state_.notes.append(note);
  while (state_.notes.size() > RunState::kMaxNotes) state_.notes.removeFirst();
  Q_EMIT noted(note);
}

void RunMonitor::apply(const RunEvent& e) {
  const double step = static_cast<double>(e.step);
  switch (e.kind) {
    case RunEvent::Kind::Start:
    case RunEvent::Kind::Resume:
      state_.started = true;
      state_.totalSteps = static_cast<double>(e.steps);
      state_.threads = static_cast<int>(std::min<int64_t>(e.threads, 1 << 20));
      break;
    case RunEvent::Kind::Train:
      state_.train.push_back({step, e.loss, e.stepsPerSecond, e.time});
      break;
    case RunEvent::Kind::Schedule: {
      RunState::ScheduleSnapshot s;
      s.step = step;
      s.refresh = static_cast<int>(std::min<int64_t>(e.refresh, 1 << 30));
      s.sigma = e.sigma;
      // Events carry bin probabilities; charts want a density per unit log σ (the reader has
      // checked that the edges increase and that there is one mass per bin).
      for (size_t b = 0; b < e.pi.size(); ++b)
        s.density.push_back(e.pi[b] / (e.logSigmaEdges[b + 1] - e.logSigmaEdges[b]));
      s.mhat = e.mhat;
      state_.sampler = QString::fromStdString(e.sampler);
      state_.schedules.push_back(std::move(s));
      break;
    }
    case RunEvent::Kind::Eval:
      state_.evals.push_back({step, e.quality, e.sigma, e.error, e.fd, e.kmerJs,
                              QString::fromStdString(e.featureNetwork)});
      state_.reference = QString::fromStdString(e.reference);
      break;
    case RunEvent::Kind::End:
      state_.ended = true;
      break;
    case RunEvent::Kind::Checkpoint:
      break;
    case RunEvent::Kind::Note:
      addNote(QString::fromStdString(e.message));
      break;
    case RunEvent::Kind::Error:
      state_.error = QString::fromStdString(e.message);
      addNote(tr("the run stopped: %1").arg(state_.error));
      break;
  }
}

}  // namespace noisescope::ui
