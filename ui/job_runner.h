#pragma once
// One owner thread for the workbench's heavy jobs (dataset loading, diagnostics, ...). Requests
// carry a tag; submitting a job whose tag is already queued replaces the queued one, so dragging
// a slider never piles up work. Progress and completion come back to the GUI thread through
// post(), and every job can be cancelled through the core's Progress cancel flag.
#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "util/progress.h"

namespace noisescope::ui {

class JobRunner : public QObject {
  Q_OBJECT

 public:
  using Work = std::function<void(const Progress&)>;  // runs on the worker thread
  using Done = std::function<void()>;                 // runs on the GUI thread after success
  using Failed = std::function<void(const QString& message, bool cancelled)>;  // GUI thread

  explicit JobRunner(QObject* parent = nullptr);
  ~JobRunner() override;

  void submit(const QString& tag, Work work, Done done, Failed failed = {});
  // Cancels the running job and drops queued ones with this tag (all tags when empty).
  void cancel(const QString& tag = {});
  bool isIdle() const;
  QString runningTag() const;
  // Runs `call` on this runner's thread (the GUI thread) after every call posted before it.
  // Safe from any thread: how a job hands results and live values back. The calls wait in a
  // queue under our own mutex, and only a wake-up without data goes through Qt's event queue, so
  // ThreadSanitizer sees every hand-over (Qt's queue is not instrumented; tests/sanitize).
  void post(std::function<void()> call);

 Q_SIGNALS:
  void jobStarted(const QString& tag);
  void progressChanged(const QString& tag, double fraction, const QString& message);
  void jobFinished(const QString& tag, bool succeeded, const QString& message);

 private:
  // The worker thread handles no QString: tags and messages cross as std::string and become
  // QStrings on the GUI thread, and a finished job (whose closures hold the GUI's values) is
  // handed back to be destroyed there. Qt's libraries are not instrumented, so a QString whose
  // count the worker dropped and the GUI then freed inside Qt reads to ThreadSanitizer as a race
  // (docs/sanitizers.md).
  struct Job {
    std::string tag;
    Work work;
    Done done;
    Failed failed;
  };
  void workerLoop();
  void runJob(Job job);
  Q_INVOKABLE void deliver();  // GUI thread: runs the posted calls
  // GUI time one deliver() may spend on posted calls before it yields to the event loop.
  static constexpr int kDeliverBudgetMs = 8;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  std::string running_;
  std::shared_ptr<std::atomic<bool>> runningCancel_;
  bool stopping_ = false;
  std::thread worker_;

  std::mutex postMutex_;
  std::deque<std::function<void()>> posted_;
  bool wakePending_ = false;  // a deliver() is queued and will see everything posted so far
};

}  // namespace noisescope::ui
