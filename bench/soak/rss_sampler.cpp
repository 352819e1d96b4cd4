#include "rss_sampler.h"

#include <QDateTime>

#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

namespace noisescope::soak {

double residentMiB() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      double kib = 0;
      status >> kib;
      return kib / 1024.0;
    }
    status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::numeric_limits<double>::quiet_NaN();
}

RssSampler::RssSampler(const QString& csvPath, int intervalMs, QObject* parent)
    : QObject(parent), csv_(csvPath), startMs_(QDateTime::currentMSecsSinceEpoch()) {
  if (!csv_.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
    throw std::runtime_error(csvPath.toStdString() +
                             ": cannot write: " + csv_.errorString().toStdString());
  csv_.write("seconds,rss_mib,cycle,step\n");
  timer_.setInterval(intervalMs);
  connect(&timer_, &QTimer::timeout, this, &RssSampler::sampleNow);
  timer_.start();
  sampleNow();
}

void RssSampler::sampleNow() {
  const double seconds = (QDateTime::currentMSecsSinceEpoch() - startMs_) / 1000.0;
  const double mib = residentMiB();
  samples_.push_back({seconds, mib, cycle_});
  csv_.write(QStringLiteral("%1,%2,%3,%4\n")
                 .arg(seconds, 0, 'f', 1)
                 .arg(mib, 0, 'f', 1)
                 .arg(cycle_)
                 .arg(step_)
                 .toUtf8());
  csv_.flush();
}

}  // namespace noisescope::soak
