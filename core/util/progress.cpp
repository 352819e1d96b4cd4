#include "util/progress.h"

#include <algorithm>

#include "util/error.h"

namespace noisescope {

Progress::Progress(Callback callback, std::shared_ptr<std::atomic<bool>> cancelFlag)
    : callback_(std::move(callback)), cancel_(std::move(cancelFlag)) {}

void Progress::report(double fraction, const std::string& message) const {
  if (!callback_) return;
  const double clamped = std::clamp(fraction, 0.0, 1.0);
  callback_(begin_ + (end_ - begin_) * clamped, message);
}

bool Progress::cancelRequested() const {
  return cancel_ && cancel_->load();
}

void Progress::throwIfCancelled() const {
  if (cancelRequested()) throw Cancelled();
}

Progress Progress::sub(double begin, double end) const {
  Progress child = *this;
  child.begin_ = begin_ + (end_ - begin_) * begin;
  child.end_ = begin_ + (end_ - begin_) * end;
  return child;
}

}  // namespace noisescope
