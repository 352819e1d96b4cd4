#pragma once
// Follows one training run: optionally starts it as a child process (`noisescope-cli train`), and
// polls its events.jsonl on a timer through the pipeline's run watch
// (pipeline/training/run_watch.h), which folds the events into the record the charts draw. The run
// lives in its own process, so a crash there never takes the workbench down.
#include <QObject>
#include <QString>
#include <QTimer>

#include "pipeline/training/run_watch.h"

namespace noisescope::ui {

class ChildProcess;

class RunMonitor : public QObject {
  Q_OBJECT

 public:
  explicit RunMonitor(const QString& runDirectory, QObject* parent = nullptr);
  ~RunMonitor() override;

  // Starts `cli train --config CONFIG --out RUN_DIR` and follows it.
  void start(const QString& cliPath, const QString& configPath);
  // Asks the child to stop (SIGTERM; the run keeps its last checkpoint and can resume).
  void stop();
  bool isRunning() const;
  // The child ended because stop() asked it to, or the run directory records such a stop (a
  // "stop" event, which this monitor appends when its child ends that way): the run was
  // stopped, it did not fail.
  bool stoppedByUser() const { return stoppedByUser_ || watch_.record().stoppedByUser; }

  const QString& runDirectory() const { return directory_; }
  const pipeline::RunRecord& record() const { return watch_.record(); }
  QString log() const { return log_; }
  // Reads any new complete lines now (the timer calls this every 500 ms).
  void poll();

 Q_SIGNALS:
  void updated();
  // A line was skipped, or the file was read again from the start; `note` says which and why.
  void noted(const QString& note);
  // The child ended; `message` says why when it failed ("" when it exited cleanly or was stopped
  // by stop()).
  void processFinished(int exitCode, const QString& message);

 private:
  // Appends the "stop" event to the run's events.jsonl, so that the run reopened later reads as
  // stopped; a failure to write is noted, not fatal.
  void recordStop();

  QString directory_;
  ChildProcess* process_ = nullptr;
  QTimer timer_;
  pipeline::RunWatch watch_;
  QString log_;
  bool stopRequested_ = false;
  bool stoppedByUser_ = false;
};

}  // namespace noisescope::ui
