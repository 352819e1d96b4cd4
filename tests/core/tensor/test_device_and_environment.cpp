// core/tensor's two readers of outside input: device names (the --device flag, the GUI's device
// box) and torchrun's environment variables. Bad values are refused with the name of what was bad.
#include <QObject>
#include <QTest>

#include <cstdlib>
#include <string>
#include <vector>

#include "tensor/communicator.h"
#include "tensor/device.h"
#include "util/error.h"

using namespace noisescope;

namespace {

const char* const kVariables[] = {"MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE", "LOCAL_RANK"};

// Sets exactly the given torchrun variables (the others unset) for one check.
void setEnvironment(const std::vector<std::pair<const char*, const char*>>& values) {
  for (const char* name : kVariables) unsetenv(name);
  for (const auto& [name, value] : values) setenv(name, value, 1);
}

// The message of the InputError that `f` throws, or "" when it does not throw one.
template <class F>
std::string inputErrorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestDeviceAndEnvironment : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void cleanup() { setEnvironment({}); }

  void noVariablesMeanOneProcess() {
    setEnvironment({});
    const DistributedEnvironment env = distributedEnvironmentFromEnv();
    QCOMPARE(env.worldSize, 1);
    QCOMPARE(env.rank, 0);
    QCOMPARE(env.localRank, 0);
  }

  void torchrunVariablesAreRead() {
    setEnvironment({{"MASTER_ADDR", "10.0.0.7"},
                    {"MASTER_PORT", "29611"},
                    {"RANK", "3"},
                    {"WORLD_SIZE", "4"},
                    {"LOCAL_RANK", "1"}});
    const DistributedEnvironment env = distributedEnvironmentFromEnv();
    QCOMPARE(env.masterAddr, std::string("10.0.0.7"));
    QCOMPARE(env.masterPort, 29611);
    QCOMPARE(env.rank, 3);
    QCOMPARE(env.worldSize, 4);
    QCOMPARE(env.localRank, 1);
  }

  void malformedVariablesAreNamed() {
    setEnvironment({{"WORLD_SIZE", "two"}});
    QVERIFY(inputErrorOf(distributedEnvironmentFromEnv).find("WORLD_SIZE") != std::string::npos);
    setEnvironment({{"WORLD_SIZE", "2"}, {"RANK", "1"}, {"MASTER_PORT", "70000"}});
    QVERIFY(inputErrorOf(distributedEnvironmentFromEnv).find("MASTER_PORT") != std::string::npos);
    setEnvironment({{"WORLD_SIZE", "2"}});  // a group without this process's rank
    const std::string missing = inputErrorOf(distributedEnvironmentFromEnv);
    QVERIFY2(
        missing.find("RANK") != std::string::npos && missing.find("missing") != std::string::npos,
        missing.c_str());
    setEnvironment({{"WORLD_SIZE", "2"}, {"RANK", "2"}});
    const std::string above = inputErrorOf(distributedEnvironmentFromEnv);
    QVERIFY2(above.find("not below WORLD_SIZE 2") != std::string::npos, above.c_str());
    setEnvironment({{"WORLD_SIZE", "2"}, {"RANK", "-1"}});
    QVERIFY(inputErrorOf(distributedEnvironmentFromEnv).find("RANK") != std::string::npos);
  }

  void deviceNamesResolveOrAreRefused() {
    QVERIFY(resolveDevice("cpu").is_cpu());
    const std::vector<std::string> names = availableDeviceNames();
    QVERIFY(std::find(names.begin(), names.end(), "auto") != names.end());
    QVERIFY(std::find(names.begin(), names.end(), "cpu") != names.end());
    const bool cuda = std::find(names.begin(), names.end(), "cuda") != names.end();
    // "auto" is CUDA exactly when this build and machine have it.
    QCOMPARE(resolveDevice("auto").is_cuda(), cuda);
    QVERIFY(!inputErrorOf([] { resolveDevice("tpu"); }).empty());
    if (!cuda) QVERIFY(!inputErrorOf([] { resolveDevice("cuda"); }).empty());
  }

  void eachLocalRankTakesItsOwnGpu() {
    DistributedEnvironment env;
    env.localRank = 2;
    const std::vector<std::string> names = availableDeviceNames();
    const bool cuda = std::find(names.begin(), names.end(), "cuda") != names.end();
    QCOMPARE(deviceForLocalRank("auto", env), std::string(cuda ? "cuda:2" : "auto"));
    QCOMPARE(deviceForLocalRank("cuda", env), std::string(cuda ? "cuda:2" : "cuda"));
    QCOMPARE(deviceForLocalRank("cpu", env), std::string("cpu"));  // an explicit choice stays
  }
};

QTEST_APPLESS_MAIN(TestDeviceAndEnvironment)
#include "test_device_and_environment.moc"
