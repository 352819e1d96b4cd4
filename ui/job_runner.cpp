#include "ui/job_runner.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include <chrono>
#include <vector>

#include "util/error.h"

namespace noisescope::ui {

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
  worker_ = std::thread([this] { workerLoop(); });
}

JobRunner::~JobRunner() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
    if (runningCancel_) runningCancel_->store(true);
  }
  wake_.notify_all();
  worker_.join();
}

void JobRunner::submit(const QString& tag, Work work, Done done, Failed failed) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Job job{tag.toStdString(), std::move(work), std::move(done), std::move(failed)};
    bool replaced = false;
    for (Job& queued : queue_) {
      if (queued.tag == job.tag) {
        queued = std::move(job);
        replaced = true;
        break;
      }
    }
    if (!replaced) queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void JobRunner::cancel(const QString& tagText) {
  const std::string tag = tagText.toStdString();
  std::vector<Job> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = queue_.begin(); it != queue_.end();) {
      if (tag.empty() || it->tag == tag) {
        dropped.push_back(std::move(*it));
        it = queue_.erase(it);
      } else {
        ++it;
      }
    }
    if (runningCancel_ && (tag.empty() || running_ == tag)) runningCancel_->store(true);
  }
  // A queued job cancelled before it started ends like a running one: its owner hears it was
  // cancelled (a panel waiting for it would otherwise wait for ever).
  for (Job& job : dropped)
    if (job.failed) post([failed = std::move(job.failed)] { failed(tr("Cancelled"), true); });
}

bool JobRunner::isIdle() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.empty() && running_.empty();
}

QString JobRunner::runningTag() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return QString::fromStdString(running_);
}

void JobRunner::post(std::function<void()> call) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(postMutex_);
    posted_.push_back(std::move(call));
    wake = !wakePending_;
    wakePending_ = true;
  }
  if (wake) QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
}

void JobRunner::deliver() {
  // Calls run in order until kDeliverBudgetMs have passed; the rest wait for the next turn of the
  // event loop, so a burst (the last levels of a bracket and its result) is not one long stall.
  QElapsedTimer spent;
  spent.start();
  for (;;) {
    std::function<void()> call;
    {
      std::lock_guard<std::mutex> lock(postMutex_);
      if (posted_.empty()) {
        wakePending_ = false;
        return;
      }
      call = std::move(posted_.front());
      posted_.pop_front();
      // A post from here on queues its own deliver(): a call that opens a modal dialog does not
      // hold back the results and progress that arrive meanwhile (they still run in order).
      wakePending_ = false;
    }
    // Unlocked: a call may post or submit again (a finished load starts its statistics job).
    call();
    if (spent.elapsed() >= kDeliverBudgetMs) {
      bool wake = false;
      {
        std::lock_guard<std::mutex> lock(postMutex_);
        wake = !posted_.empty() && !wakePending_;
        if (wake) wakePending_ = true;
      }
      if (wake) QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
      return;
    }
  }
}

void JobRunner::workerLoop() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      running_ = job.tag;
      runningCancel_ = std::make_shared<std::atomic<bool>>(false);
    }
    runJob(std::move(job));
    std::lock_guard<std::mutex> lock(mutex_);
    running_.clear();
    runningCancel_.reset();
  }
}

void JobRunner::runJob(Job job) {
  const std::string tag = job.tag;
  post([this, tag] { Q_EMIT jobStarted(QString::fromStdString(tag)); });

  // Progress reaches the GUI at most ~20 times a second; the last report always gets through.
  auto lastSent = std::make_shared<std::chrono::steady_clock::time_point>();
  std::shared_ptr<std::atomic<bool>> cancelFlag;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelFlag = runningCancel_;
  }
  Progress progress(
      [this, tag, lastSent](double fraction, const std::string& message) {
        const auto now = std::chrono::steady_clock::now();
        if (fraction < 1.0 && now - *lastSent < std::chrono::milliseconds(50)) return;
        *lastSent = now;
        post([this, tag, fraction, message] {
          Q_EMIT progressChanged(QString::fromStdString(tag), fraction,
                                 QString::fromStdString(message));
        });
      },
      cancelFlag);

  enum class Outcome { Succeeded, Cancelled, Failed, Unknown };
  Outcome outcome = Outcome::Failed;
  std::string error;
  try {
    job.work(progress);
    outcome = progress.cancelRequested() ? Outcome::Cancelled : Outcome::Succeeded;
  } catch (const Cancelled&) {
    outcome = Outcome::Cancelled;
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    outcome = Outcome::Unknown;
  }

  // The job itself goes back with the result, so its closures die on the GUI thread.
  auto finished = std::make_shared<Job>(std::move(job));
  post([this, finished = std::move(finished), outcome, error = std::move(error)] {
    const bool succeeded = outcome == Outcome::Succeeded;
    const bool cancelled = outcome == Outcome::Cancelled;
    const QString message = cancelled                     ? tr("Cancelled")
                            : outcome == Outcome::Unknown ? tr("Unknown error")
                                                          : QString::fromStdString(error);
    if (succeeded && finished->done) finished->done();
    if (!succeeded && finished->failed) finished->failed(message, cancelled);
    Q_EMIT jobFinished(QString::fromStdString(finished->tag), succeeded, message);
  });
}

}  // namespace noisescope::ui
