#pragma once
// Runs a soak cycle's steps one after another without blocking the event loop: each step does
// what a user does (a click, a menu action), then the runner polls its condition every 20 ms
// until it holds or the step's time is up. A step that times out or reports an error ends the
// run with a message naming the step.
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <vector>

namespace noisescope::soak {

struct Step {
  QString name;
  // Returns an error message, or an empty string when the action went through.
  std::function<QString()> action;
  std::function<bool()> done = [] { return true; };
  int timeoutMs = 60000;
};

class StepRunner : public QObject {
  Q_OBJECT

 public:
  explicit StepRunner(QObject* parent = nullptr);
  void run(std::vector<Step> steps);

 Q_SIGNALS:
  void stepStarted(const QString& name);
  void finished();
  void failed(const QString& message);

 private:
  void startNext();
  void poll();

  std::vector<Step> steps_;
  size_t next_ = 0;
  QTimer poll_;
  qint64 deadline_ = 0;
};

}  // namespace noisescope::soak
