// Writers under injected I/O faults (libfiu): for every writer of a profile, a schedule (JSON,
// CSV, HDF5) and a σ-steps file, the k-th open/write/fsync/close/rename call it makes fails with
// ENOSPC or EIO, for every k up to the number of calls the write makes. Afterwards the target
// holds the old bytes or the complete new ones — never a torn file — no temporary file is left,
// and the error names the file and the system error.
//
// Runs with LD_PRELOAD=fiu_posix_preload.so (tests/core/io/CMakeLists.txt), which routes those
// libc calls through libfiu's failure points; the counting callback below decides which one fails.
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <fiu-control.h>
#include <fiu.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "io/profile_io.h"
#include "io/schedule_io.h"
#include "io/sigma_steps_io.h"
#include "profile/profile.h"
#include "schedule/families.h"
#include "util/error.h"

using namespace noisescope;
namespace fs = std::filesystem;

namespace {

const char* const kPoints[] = {"posix/io/oc/open",    "posix/io/rw/write", "posix/io/rw/pwrite",
                               "posix/io/sync/fsync", "posix/io/oc/close", "posix/io/dir/rename"};

// The callback's state: calls are counted only while `armed`, so the test's own output is not.
bool armed = false;
int calls = 0;
int failAt = 0;  // 0: count only

int decide(const char*, int*, void**, unsigned int*) {
  if (!armed) return 0;
  ++calls;
  return calls == failAt ? 1 : 0;
}

void enableAll(int error) {
  for (const char* name : kPoints)
    QVERIFY(fiu_enable_external(name, 1, reinterpret_cast<void*>(static_cast<intptr_t>(error)), 0,
                                decide) == 0);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Everything in `dir` but `keep`: what a failed write must not leave behind.
std::vector<std::string> strays(const fs::path& dir, const std::string& keep) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename() != keep) out.push_back(entry.path().filename().string());
  return out;
}

struct Writer {
  std::string name, file;
  std::function<void(const std::string&, int version)> write;  // version 1 = old, 2 = new
};

Profile profileVersion(int version) {
  Profile p;
  p.kind = "table";
  p.sigma = {0.1, 1.0, 10.0};
  p.dim = 4;
  MmseEstimate e;
  e.name = "mmse";
  e.description = "test";
  e.mean = {0.01 * version, 0.5 * version, 3.0};
  e.standardError = {0, 0, 0};
  e.ciLow = e.mean;
  e.ciHigh = e.mean;
  p.estimates.push_back(e);
  p.rates = computeRates(p.sigma, p.primary());
  return p;
}

schedule::Schedule scheduleVersion(int version) {
  return schedule::makePresetSchedule(version == 1 ? "edm" : "log-uniform",
                                      schedule::LogSigmaGrid::uniform(0.002, 80.0, 64));
}

std::vector<Writer> writers() {
  return {
      {"profile JSON", "p.json",
       [](const std::string& f, int v) { writeProfile(f, profileVersion(v)); }},
      {"profile CSV", "p.csv",
       [](const std::string& f, int v) { writeProfileCsv(f, profileVersion(v)); }},
      {"schedule JSON", "s.json",
       [](const std::string& f, int v) { writeSchedule(f, scheduleVersion(v)); }},
      {"schedule CSV", "s.csv",
       [](const std::string& f, int v) { writeSchedule(f, scheduleVersion(v)); }},
#ifdef NOISESCOPE_WITH_HDF5
      {"schedule HDF5", "s.h5",
       [](const std::string& f, int v) { writeSchedule(f, scheduleVersion(v)); }},
#endif
      {"σ-steps", "t.json",
       [](const std::string& f, int v) {
         SigmaSteps s;
         s.sigma = {0.01 * v, 0.5, 80.0};
         s.schedule = "test";
         s.curve = "phi";
         writeSigmaSteps(f, s);
       }},
  };
}

}  // namespace

class TestInjectedWriteFaults : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(fiu_init(0) == 0);
    enableAll(ENOSPC);
  }

  void everyCallOfEveryWriterFails() {
    for (const Writer& w : writers()) {
      for (int error : {ENOSPC, EIO}) {
        for (const char* name : kPoints) fiu_disable(name);
        enableAll(error);
        QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / w.file).string();
        w.write(path, 1);
        const std::string oldBytes = slurp(path);
        // How many calls a whole write makes.
        w.write(path, 2);
        const std::string newBytes = slurp(path);
        QVERIFY2(newBytes != oldBytes, w.name.c_str());
        failAt = 0;
        calls = 0;
        armed = true;
        w.write(path, 1);
        armed = false;
        const int total = calls;
        QVERIFY2(total >= 3, qPrintable(QString("%1: %2 calls").arg(w.name.c_str()).arg(total)));
        for (int k = 1; k <= total; ++k) {
          w.write(path, 1);  // the old version
          calls = 0;
          failAt = k;
          armed = true;
          std::string message;
          try {
            w.write(path, 2);
          } catch (const InputError& e) {
            message = e.what();
          }
          armed = false;
          failAt = 0;
          const QString where = QString("%1, call %2 of %3 fails with %4")
                                    .arg(w.name.c_str())
                                    .arg(k)
                                    .arg(total)
                                    .arg(std::strerror(error));
          const std::string now = slurp(path);
          QVERIFY2(now == oldBytes || now == newBytes, qPrintable(where + ": torn file"));
          const std::vector<std::string> left = strays(dir.path().toStdString(), w.file);
          QVERIFY2(left.empty(), qPrintable(where + ": left " +
                                            QString::fromStdString(left.empty() ? "" : left[0])));
          if (now == oldBytes) {  // the write failed: it must have said so, naming file and cause
            QVERIFY2(message.find(path) != std::string::npos,
                     qPrintable(where + ": " + message.c_str()));
            QVERIFY2(message.find(std::strerror(error)) != std::string::npos,
                     qPrintable(where + ": " + message.c_str()));
          }
        }
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestInjectedWriteFaults)
#include "test_injected_write_faults.moc"
