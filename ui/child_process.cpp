#include "ui/child_process.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace noisescope::ui {

namespace {

// The signals a child should see with their default action, whatever the workbench set for them.
void defaultSignals(posix_spawnattr_t* attr) {
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(attr, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(attr, &none);
  posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
}

}  // namespace

ChildProcess::ChildProcess(QObject* parent) : QObject(parent) {
  reaper_.setInterval(200);
  connect(&reaper_, &QTimer::timeout, this, [this] { reap(false); });
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    blockSignals(true);  // its owner is going away: nobody is left to tell
    ::kill(pid_, SIGKILL);
    reap(true);
  }
  closeOutput();
}

bool ChildProcess::start(const QString& program, const QStringList& arguments) {
  if (pid_ > 0) {
    error_ = tr("%1 is still running").arg(program_);
    return false;
  }
  program_ = program;
  error_.clear();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    error_ = tr("cannot start %1: %2").arg(program, QString::fromLocal8Bit(std::strerror(errno)));
    return false;
  }
  std::vector<QByteArray> args{QFile::encodeName(program)};
  for (const QString& a : arguments) args.push_back(QFile::encodeName(a));
  std::vector<char*> argv;
  for (QByteArray& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the copies, so the child keeps only its stdout and stderr.
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  defaultSignals(&attr);
  pid_t pid = -1;
  const int failed = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (failed != 0) {
    ::close(fds[0]);
    error_ = tr("cannot start %1: %2").arg(program, QString::fromLocal8Bit(std::strerror(failed)));
    return false;
  }
  pid_ = pid;
  outputFd_ = fds[0];
  ::fcntl(outputFd_, F_SETFL, ::fcntl(outputFd_, F_GETFL) | O_NONBLOCK);
  notifier_ = new QSocketNotifier(outputFd_, QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, &ChildProcess::readOutput);
  reaper_.start();
  return true;
}

void ChildProcess::terminate() {
  if (pid_ > 0) ::kill(pid_, SIGTERM);
}

void ChildProcess::kill() {
  if (pid_ > 0) ::kill(pid_, SIGKILL);
}

void ChildProcess::readOutput() {
  if (outputFd_ < 0) return;
  char buffer[16384];
  for (;;) {
    const ssize_t n = ::read(outputFd_, buffer, sizeof buffer);
    if (n > 0) {
      Q_EMIT output(QByteArray(buffer, static_cast<int>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) closeOutput();  // every writer is gone
    return;                     // EAGAIN: all read for now
  }
}

void ChildProcess::closeOutput() {
  delete notifier_;
  notifier_ = nullptr;
  if (outputFd_ >= 0) ::close(outputFd_);
  outputFd_ = -1;
}

bool ChildProcess::reap(bool block) {
  if (pid_ <= 0) return true;
  int status = 0;
  pid_t r;
  do r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == 0) return false;  // still running
  readOutput();              // what it wrote last; a grandchild holding the pipe is not waited for
  closeOutput();
  pid_ = -1;
  reaper_.stop();
  const bool crashed = r > 0 && WIFSIGNALED(status);
  const int code = r < 0 ? -1 : crashed ? WTERMSIG(status) : WEXITSTATUS(status);
  Q_EMIT finished(code, crashed);
  return true;
}

bool ChildProcess::waitForFinished(int msecs) {
  QDeadlineTimer deadline(msecs);
  while (pid_ > 0) {
    if (reap(false)) return true;
    const qint64 left = deadline.remainingTime();
    if (left == 0) return false;
    const int slice = static_cast<int>(left < 0 || left > 20 ? 20 : left);
    if (outputFd_ >= 0) {
      pollfd p{outputFd_, POLLIN, 0};
      if (::poll(&p, 1, slice) > 0) readOutput();
    } else {
      ::usleep(static_cast<useconds_t>(slice) * 1000);
    }
  }
  return true;
}

}  // namespace noisescope::ui
