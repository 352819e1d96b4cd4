#pragma once
// The one way long work talks to whoever started it: a fraction done, a short message, and a
// cancel flag polled per chunk. The CLI prints it on stderr; the GUI turns it into queued signals.
#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace noisescope {

class Progress {
 public:
  using Callback = std::function<void(double fraction, const std::string& message)>;

  Progress() = default;
  explicit Progress(Callback callback, std::shared_ptr<std::atomic<bool>> cancelFlag = nullptr);

  // Reports progress in [0, 1] of this (sub-)task. Cheap when nobody listens.
  void report(double fraction, const std::string& message = {}) const;
  bool cancelRequested() const;
  // Throws Cancelled when cancel was requested; call once per chunk of work.
  void throwIfCancelled() const;
  // A view of this progress covering [begin, end] of it, for a step of a larger task.
  Progress sub(double begin, double end) const;

  std::shared_ptr<std::atomic<bool>> cancelFlag() const { return cancel_; }

 private:
  Callback callback_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  double begin_ = 0.0;
  double end_ = 1.0;
};

}  // namespace noisescope
