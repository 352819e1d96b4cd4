#include "ui/run_monitor.h"

#include <QDir>
#include <QFile>

#include <nlohmann/json.hpp>

#include <cmath>

namespace noisescope::ui {

RunMonitor::RunMonitor(const QString& runDirectory, QObject* parent)
    : QObject(parent), directory_(runDirectory) {
  // Redraw on a timer, not per event: a fast run writes many lines a second.
  timer_.setInterval(500);
  connect(&timer_, &QTimer::timeout, this, &RunMonitor::poll);
  timer_.start();
}

RunMonitor::~RunMonitor() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    process_->terminate();
    if (!process_->waitForFinished(3000)) process_->kill();
    process_->waitForFinished(1000);
  }
}

void RunMonitor::start(const QString& cliPath, const QString& configPath) {
  process_ = new QProcess(this);
  process_->setProcessChannelMode(QProcess::MergedChannels);
  connect(process_, &QProcess::readyRead, this, [this] {
    log_ += QString::fromLocal8Bit(process_->readAll());
    if (log_.size() > 200000) log_ = log_.right(100000);  // keep the tail only
  });
  connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    poll();
    QString message;
    if (status == QProcess::CrashExit)
      message = tr("the training process stopped abnormally (signal or crash)");
    else if (code != 0)
      message = tr("the training process exited with code %1: %2")
                    .arg(code)
                    .arg(log_.right(600).trimmed());
    Q_EMIT processFinished(status == QProcess::CrashExit ? -1 : code, message);
  });
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart)
      Q_EMIT processFinished(-1, tr("cannot start %1").arg(process_->program()));
  });
  process_->start(cliPath, {QStringLiteral("train"), QStringLiteral("--config"), configPath,
                            QStringLiteral("--out"), directory_});
}

void RunMonitor::stop() {
  if (process_ && process_->state() != QProcess::NotRunning) process_->terminate();
}

bool RunMonitor::isRunning() const {
  return process_ && process_->state() != QProcess::NotRunning;
}

void RunMonitor::poll() {
  QFile file(QDir(directory_).filePath(QStringLiteral("events.jsonl")));
  if (!file.open(QIODevice::ReadOnly)) return;
  if (file.size() < offset_) {  // rewritten (a resumed run drops events after its checkpoint)
    offset_ = 0;
    pending_.clear();
    state_ = RunState();
  }
  if (file.size() == offset_) return;
  file.seek(offset_);
  const QByteArray chunk = file.readAll();
  offset_ += chunk.size();
  pending_ += chunk;
  int end;
  bool any = false;
  while ((end = pending_.indexOf('\n')) >= 0) {
    parseLine(pending_.left(end));
    pending_.remove(0, end + 1);
    any = true;
  }
  if (any) Q_EMIT updated();
}

namespace {
std::vector<double> numbers(const nlohmann::json& value) {
  std::vector<double> out;
  if (!value.is_array()) return out;
  for (const auto& v : value) out.push_back(v.is_number() ? v.get<double>() : std::nan(""));
  return out;
}
}  // namespace

void RunMonitor::parseLine(const QByteArray& line) {
  if (line.trimmed().isEmpty()) return;
  try {
    const nlohmann::json e =
        nlohmann::json::parse(line.constData(), line.constData() + line.size());
    const std::string kind = e.value("event", "");
    const double step = e.value("step", 0.0);
    if (kind == "start" || kind == "resume") {
      state_.started = true;
      state_.totalSteps = e.value("steps", 0.0);
    } else if (kind == "train") {
      state_.train.push_back({step, e.value("loss", std::nan("")), e.value("steps_per_s", 0.0)});
    } else if (kind == "schedule") {
      RunState::ScheduleSnapshot s;
      s.step = step;
      s.refresh = e.value("refresh", 0);
      s.sigma = numbers(e["sigma"]);
      const std::vector<double> edges = numbers(e["log_sigma_edges"]);
      const std::vector<double> masses = numbers(e["pi"]);
      // Events carry bin probabilities; charts want a density per unit log σ.
      for (size_t b = 0; b < masses.size() && b + 1 < edges.size(); ++b)
        s.density.push_back(masses[b] / (edges[b + 1] - edges[b]));
      if (e.contains("mhat")) s.mhat = numbers(e["mhat"]);
      state_.sampler = QString::fromStdString(e.value("sampler", ""));
      state_.schedules.push_back(std::move(s));
    } else if (kind == "eval") {
      state_.evals.push_back(
          {step, e.value("quality", std::nan("")), numbers(e["sigma"]), numbers(e["error"])});
      state_.reference = QString::fromStdString(e.value("reference", ""));
    } else if (kind == "end") {
      state_.ended = true;
    }
  } catch (const std::exception&) {
    ++state_.malformedLines;
  }
}

}  // namespace noisescope::ui
