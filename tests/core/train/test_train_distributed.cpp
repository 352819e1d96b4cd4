// Data-parallel training over c10d/Gloo: two local processes on loopback (this test binary started
// twice as workers) train together; their parameters stay identical, the per-bin statistics are
// the sums over both ranks, and only rank 0 writes the run directory.
#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <torch/torch.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "tensor/communicator.h"
#include "train/trainer.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::train;
using nlohmann::json;

namespace {

constexpr int64_t kSteps = 60, kBatch = 16, kLogEvery = 20;

Dataset clusters(int64_t n, uint32_t seed) {
  Dataset d;
  d.name = "clusters";
  d.source = "test";
  d.kind = SampleKind::Points;
  d.sampleShape = {3};
  std::mt19937 engine(seed);
  std::normal_distribution<float> normal(0.0f, 0.1f);
  for (int64_t i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) d.values.push_back((j == i % 3 ? 0.8f : -0.3f) + normal(engine));
  return d;
}

// Worker mode: train with the rendezvous from the environment, then dump what the test compares.
int runWorker(const std::string& outPath, const std::string& runDir) {
  try {
    at::set_num_threads(1);
    json j = json::parse(R"({
      "dataset": {"path": "synthetic:unused"},
      "model": {"width": 16, "depth": 1, "embedding": 8},
      "optim": {"batch_size": 16, "seed": 3, "device": "cpu"},
      "noise": {"sampler": "infonoise", "warmup_steps": 20, "refresh_every": 20, "min_bin_count": 1},
      "eval": {"every": 0, "samples": 16, "levels": 4, "sample_quality": "off"},
      "checkpoint": {"every": 30}})");
    j["optim"]["steps"] = kSteps;
    j["log_every"] = kLogEvery;
    const TrainConfig config = parseTrainConfig(j, "distributed.json");
    TrainingData data;
    data.train = clusters(300, 1);
    data.test = clusters(40, 2);
    data.sigmaData = measureSigmaData(data.train);
    Communicator communicator(distributedEnvironmentFromEnv(), 60);
    TrainerOptions options;
    options.runDir = runDir;
    options.communicator = &communicator;
    Trainer trainer(config, std::move(data), options);
    trainer.run();
    std::vector<float> flat;
    for (const auto& [name, p] : trainer.modelParameters()) {
      const auto c = p.detach().contiguous();
      flat.insert(flat.end(), c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    }
    json result{{"rank", communicator.rank()},
                {"parameters", flat},
                {"error_sum", trainer.totalStatistics().errorSum},
                {"count", trainer.totalStatistics().count},
                {"sampler", trainer.sampler().state()}};
    std::ofstream(outPath) << result.dump();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "worker failed: %s\n", e.what());
    return 3;
  }
}

int freeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace

class TestTrainDistributed : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void environmentIsValidated() {
    ::setenv("WORLD_SIZE", "2", 1);
    ::unsetenv("RANK");
    QVERIFY_THROWS_EXCEPTION(InputError, distributedEnvironmentFromEnv());
    ::setenv("RANK", "2", 1);
    QVERIFY_THROWS_EXCEPTION(InputError, distributedEnvironmentFromEnv());
    ::setenv("RANK", "one", 1);
    QVERIFY_THROWS_EXCEPTION(InputError, distributedEnvironmentFromEnv());
    ::setenv("RANK", "1", 1);
    ::setenv("MASTER_PORT", "70000", 1);
    QVERIFY_THROWS_EXCEPTION(InputError, distributedEnvironmentFromEnv());
    ::setenv("MASTER_PORT", "29511", 1);
    const auto env = distributedEnvironmentFromEnv();
    QCOMPARE(env.rank, 1);
    QCOMPARE(env.worldSize, 2);
    QCOMPARE(env.masterPort, 29511);
    for (const char* v : {"WORLD_SIZE", "RANK", "MASTER_PORT"}) ::unsetenv(v);
    QCOMPARE(distributedEnvironmentFromEnv().worldSize, 1);
  }

  void twoProcessesTrainAsOne() {
    const QString dir = QDir::tempPath() + "/noisescope_train_distributed_test";
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    const QString self = QFileInfo("/proc/self/exe").symLinkTarget();
    const int port = freeLoopbackPort();
    QProcess workers[2];
    for (int rank = 0; rank < 2; ++rank) {
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert("MASTER_ADDR", "127.0.0.1");
      env.insert("MASTER_PORT", QString::number(port));
      env.insert("WORLD_SIZE", "2");
      env.insert("RANK", QString::number(rank));
      env.insert("OMP_NUM_THREADS", "1");
      env.insert("NOISESCOPE_DIST_WORKER_OUT", dir + QString("/rank%1.json").arg(rank));
      env.insert("NOISESCOPE_DIST_RUN", dir + "/run");
      workers[rank].setProcessEnvironment(env);
      workers[rank].setProcessChannelMode(QProcess::ForwardedChannels);
      workers[rank].start(self, {});
      QVERIFY(workers[rank].waitForStarted());
    }
    for (auto& w : workers) {
      QVERIFY(w.waitForFinished(240000));
      QCOMPARE(w.exitStatus(), QProcess::NormalExit);
      QCOMPARE(w.exitCode(), 0);
    }
    json r[2];
    for (int rank = 0; rank < 2; ++rank) {
      std::ifstream in((dir + QString("/rank%1.json").arg(rank)).toStdString());
      r[rank] = json::parse(in);
    }
    // Gradients were averaged: both ranks hold the same parameters, bit for bit.
    QVERIFY(!r[0]["parameters"].empty());
    QVERIFY(r[0]["parameters"] == r[1]["parameters"]);
    // Statistics were summed: every step counts the samples of both ranks.
    QVERIFY(r[0]["count"] == r[1]["count"]);
    QVERIFY(r[0]["error_sum"] == r[1]["error_sum"]);
    double total = 0;
    for (const auto& c : r[0]["count"]) total += c.get<double>();
    QCOMPARE(total, double(kSteps * kBatch * 2));
    // The samplers refreshed on the same reduced statistics.
    QCOMPARE(r[0]["sampler"].dump(), r[1]["sampler"].dump());
    QVERIFY(r[0]["sampler"]["refreshes"].get<int>() == 3);
    // Rank 0 wrote the run directory, reporting the world size and global throughput counts.
    std::ifstream events((dir + "/run/events.jsonl").toStdString());
    int trainEvents = 0;
    for (std::string line; std::getline(events, line);) {
      const json e = json::parse(line);
      if (e["event"] == "start") QCOMPARE(e["world_size"].get<int>(), 2);
      if (e["event"] != "train") continue;
      ++trainEvents;
      double count = 0;
      for (const auto& c : e["bin_count"]) count += c.get<double>();
      QCOMPARE(count, double(kLogEvery * kBatch * 2));
    }
    QCOMPARE(trainEvents, int(kSteps / kLogEvery));
  }
};

int main(int argc, char** argv) {
  const char* out = std::getenv("NOISESCOPE_DIST_WORKER_OUT");
  const char* run = std::getenv("NOISESCOPE_DIST_RUN");
  if (out && run) return runWorker(out, run);
  TestTrainDistributed test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_train_distributed.moc"
