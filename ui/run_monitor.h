#pragma once
// Follows one training run: optionally starts it as a child process (`noisescope-cli train`), and
// reads its events.jsonl on a timer through core's reader (io/run_events.h), keeping what the
// charts need. The run lives in its own process, so a crash there never takes the workbench
// down; a line that is not a valid event is skipped and noted, never trusted.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <vector>

namespace noisescope {
class RunEventsFollower;
struct RunEvent;
}  // namespace noisescope

namespace noisescope::ui {

class ChildProcess;

struct RunState {
  struct TrainPoint {
    double step, loss, stepsPerSecond;
    double time;  // Unix seconds of the event (the ETA's clock: it includes evaluation time)
  };
  struct ScheduleSnapshot {
    double step;
    int refresh;
    std::vector<double> sigma;    // bin centres
    std::vector<double> density;  // π per unit log σ
    std::vector<double> mhat;     // smoothed per-bin x0 error (empty before the first refresh)
  };
  struct EvalPoint {
    double step, quality;
    std::vector<double> sigma, error;
    // Sample quality (THEORY §11), NaN when the evaluation did not compute it.
    double fd, kmerJs;
    QString featureNetwork;  // the feature network of fd ("" without fd)
  };
  std::vector<TrainPoint> train;
  std::vector<ScheduleSnapshot> schedules;
  std::vector<EvalPoint> evals;
  QString sampler;
  QString reference;  // the eval's scalar quality measure ("elbo" or "edm")
  double totalSteps = 0;
  int threads = 0;  // torch CPU threads the run uses (start event; 0: not recorded)
  bool started = false;
  bool ended = false;
  QString error;           // why the run stopped, from its "error" event ("" while none)
  int malformedLines = 0;  // lines that were not valid events (noted, then skipped)
  QStringList notes;       // why, for the latest kMaxNotes of them ("FILE:LINE: ...")
  int restarts = 0;        // times the events file was replaced or cut and read again
  static constexpr int kMaxNotes = 20;
};

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

  const QString& runDirectory() const { return directory_; }
  const RunState& state() const { return state_; }
  QString log() const { return log_; }
  // Reads any new complete lines now (the timer calls this every 500 ms).
  void poll();

 Q_SIGNALS:
  void updated();
  // A line was skipped, or the file was read again from the start; `note` says which and why.
  void noted(const QString& note);
  void processFinished(int exitCode, const QString& message);

 private:
  void apply(const RunEvent& event);
  void addNote(const QString& note);

  QString directory_;
  ChildProcess* process_ = nullptr;
  QTimer timer_;
  std::unique_ptr<RunEventsFollower> events_;
  RunState state_;
  QString log_;
};

}  // namespace noisescope::ui
