#pragma once
// What the GUI-against-CLI parity tests share: running the CLI, and the fields that may differ
// between two faces' files (who wrote them, when, and how long it took).
#include <QFile>
#include <QProcess>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <string>

#include "test_paths.h"

namespace noisescope::parity {

// Runs the built noisescope-cli to completion; its stderr goes to `errors`. True when it exited
// normally with code 0.
inline bool runCli(const QStringList& arguments, QByteArray& errors) {
  QProcess cli;
  cli.start(QString::fromStdString(noisescope::test::cliPath()), arguments);
  if (!cli.waitForFinished(240000) || cli.exitStatus() != QProcess::NormalExit) return false;
  errors = cli.readAllStandardError();
  return cli.exitCode() == 0;
}

// Removes, wherever they stand, the producer, the time stamps (every key ending in time_utc, a
// bound's held_out_time_utc too) and the timings (wall_seconds, an execution record's seconds_*).
inline void scrub(nlohmann::json& j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      const std::string& key = it.key();
      const bool stamp = key.size() >= 8 && key.compare(key.size() - 8, 8, "time_utc") == 0;
      if (key == "producer" || stamp || key == "wall_seconds" || key.rfind("seconds_", 0) == 0) {
        it = j.erase(it);
      } else {
        scrub(it.value());
        ++it;
      }
    }
  } else if (j.is_array()) {
    for (nlohmann::json& item : j) scrub(item);
  }
}

// A file's bytes; empty when it cannot be read.
inline QByteArray contents(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace noisescope::parity
