#pragma once
// The process's resident memory (VmRSS of /proc/self/status), sampled on a timer and written to
// a CSV file as it goes, so that a soak stopped early still leaves its figures.
#include <QFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <vector>

namespace noisescope::soak {

double residentMiB();  // NaN where /proc/self/status cannot be read

class RssSampler : public QObject {
  Q_OBJECT

 public:
  struct Sample {
    double seconds, mib;
    int cycle;
  };
  // Writes "seconds,rss_mib,cycle,step" rows to csvPath; throws std::runtime_error naming it.
  RssSampler(const QString& csvPath, int intervalMs, QObject* parent = nullptr);

  void setPosition(int cycle, const QString& step) {
    cycle_ = cycle;
    step_ = step;
  }
  void sampleNow();
  const std::vector<Sample>& samples() const { return samples_; }

 private:
  QFile csv_;
  QTimer timer_;
  qint64 startMs_;
  int cycle_ = 0;
  QString step_;
  std::vector<Sample> samples_;
};

}  // namespace noisescope::soak
