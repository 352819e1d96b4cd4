#include "util/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "util/error.h"

namespace noisescope {

namespace {

// Removes TARGET.tmp.PID files in the target's folder whose writer is gone (killed mid-write).
// A live PID's file is left alone: that process may still rename it into place.
void removeStaleTemporaries(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".tmp.";
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
    const long pid = std::strtol(digits.c_str(), nullptr, 10);
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      ::unlink((slash == std::string::npos ? name : folder + name).c_str());
  }
  ::closedir(dir);
}

// Writes all of `bytes` to `fd`; false with errno set when a write fails.
bool writeAll(int fd, const std::string& bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    written += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& bytes) {
  removeStaleTemporaries(path);
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(path, std::string("cannot create file: ") + std::strerror(errno));
  if (!writeAll(fd, bytes)) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(temporary.c_str());
    throw InputError(path, "write failed: " + reason);
  }
  // The descriptor is closed whether fsync fails or not: a workbench that goes on after a full
  // disk must not leak one per failed save.
  const bool synced = ::fsync(fd) == 0;
  const int syncError = errno;
  const bool closed = ::close(fd) == 0;
  if (!synced || !closed) {
    const std::string reason = std::strerror(synced ? errno : syncError);
    ::unlink(temporary.c_str());
    throw InputError(path, "write failed: " + reason);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    throw InputError(path, "cannot replace file: " + reason);
  }
}

void appendToFile(const std::string& path, const std::string& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(path, std::string("cannot append: ") + std::strerror(errno));
  struct stat before {};
  const bool sized = ::fstat(fd, &before) == 0;
  if (!writeAll(fd, bytes)) {
    const std::string reason = std::strerror(errno);
    // One writer appends to its files, so the length before this write is where its record began.
    if (sized) (void)::ftruncate(fd, before.st_size);
    ::close(fd);
    throw InputError(path, "append failed: " + reason);
  }
  if (::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    throw InputError(path, "append failed: " + reason);
  }
}

}  // namespace noisescope
