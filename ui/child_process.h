#pragma once
// A child process started with posix_spawn, its stdout and stderr merged into one pipe that the
// event loop reads. The Training panel's runs use it instead of QProcess: Qt 6.4 starts children
// with its own clone() call, and under ThreadSanitizer every such child dies inside the sanitizer
// before it can exec (docs/sanitizers.md); posix_spawn goes through glibc, which TSan leaves be,
// so the same code runs in every build.
#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <sys/types.h>

class QSocketNotifier;

namespace noisescope::ui {

class ChildProcess : public QObject {
  Q_OBJECT

 public:
  explicit ChildProcess(QObject* parent = nullptr);
  ~ChildProcess() override;  // a child still running is killed and reaped, never left a zombie

  // Starts `program` (a path, or a name looked up on PATH) with `arguments`. Returns false and
  // sets errorString() when it cannot start; nothing is emitted then.
  bool start(const QString& program, const QStringList& arguments);
  bool isRunning() const { return pid_ > 0; }
  QString program() const { return program_; }
  QString errorString() const { return error_; }

  void terminate();  // SIGTERM: a run keeps its last checkpoint and can resume
  void kill();       // SIGKILL
  // Waits up to `msecs` for the child to exit (reading its output meanwhile); true once it has.
  bool waitForFinished(int msecs);

 Q_SIGNALS:
  void output(const QByteArray& bytes);
  // After the last output: `crashed` when a signal ended it (then `code` is the signal number).
  void finished(int code, bool crashed);

 private:
  void readOutput();
  void closeOutput();
  bool reap(bool block);  // true when the child has exited and finished() was emitted

  pid_t pid_ = -1;
  int outputFd_ = -1;
  QSocketNotifier* notifier_ = nullptr;
  QTimer reaper_;  // polls waitpid: the child can exit while a grandchild keeps the pipe open
  QString program_, error_;
};

}  // namespace noisescope::ui
