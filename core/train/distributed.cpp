// c10d's Gloo headers are guarded by this macro; Debian's libtorch_cpu is built with Gloo.
#ifndef USE_C10D_GLOO
#define USE_C10D_GLOO 1
#endif
#include "train/distributed.h"

#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <cstdlib>
#include <string>

#include "util/error.h"

namespace noisescope::train {
namespace {

bool readInt(const char* name, int& out, int lo, int hi) {
  const char* v = std::getenv(name);
  if (!v || !*v) return false;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  if (*end != '\0' || x < lo || x > hi)
    throw InputError(std::string("environment variable ") + name,
                     "'" + std::string(v) + "' is not an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
  out = static_cast<int>(x);
  return true;
}

}  // namespace

DistributedEnvironment distributedEnvironmentFromEnv() {
  DistributedEnvironment env;
  const bool hasWorld = readInt("WORLD_SIZE", env.worldSize, 1, 65536);
  const bool hasRank = readInt("RANK", env.rank, 0, 65535);
  readInt("MASTER_PORT", env.masterPort, 1, 65535);
  if (const char* addr = std::getenv("MASTER_ADDR"); addr && *addr) env.masterAddr = addr;
  if (!hasWorld) env.worldSize = 1;
  if (env.worldSize > 1 && !hasRank)
    throw InputError("environment variable RANK", "missing while WORLD_SIZE > 1");
  if (hasRank && env.rank >= env.worldSize)
    throw InputError(
        "environment variable RANK",
        std::to_string(env.rank) + " is not below WORLD_SIZE " + std::to_string(env.worldSize));
  return env;
}

struct Communicator::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
};

Communicator::Communicator(const DistributedEnvironment& env, int timeoutSeconds)
    : env_(env), impl_(std::make_unique<Impl>()) {
  const std::chrono::milliseconds timeout(int64_t(timeoutSeconds) * 1000);
  try {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(env.masterPort);
    // Under torchrun the agent already serves the store at MASTER_PORT; every rank is a client.
    const char* agentStore = std::getenv("TORCHELASTIC_USE_AGENT_STORE");
    const bool useAgentStore = agentStore && std::string(agentStore) == "True";
    options.isServer = env.rank == 0 && !useAgentStore;
    options.numWorkers = static_cast<std::size_t>(env.worldSize);
    options.waitWorkers = true;
    options.timeout = timeout;
    impl_->store = c10::make_intrusive<c10d::TCPStore>(env.masterAddr, options);
    auto groupOptions = c10d::ProcessGroupGloo::Options::create(timeout);
    // GLOO_SOCKET_IFNAME picks the interface as in PyTorch; otherwise the address this host's
    // name resolves to (loopback when that is all there is).
    if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
      groupOptions->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
    else if (env.masterAddr == "127.0.0.1" || env.masterAddr == "localhost")
      groupOptions->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    else
      groupOptions->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    groupOptions->threads = 2;
    impl_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(impl_->store, env.rank,
                                                               env.worldSize, groupOptions);
  } catch (const std::exception& e) {
    throw InputError("distributed rendezvous at " + env.masterAddr + ":" +
                         std::to_string(env.masterPort) + " (rank " + std::to_string(env.rank) +
                         " of " + std::to_string(env.worldSize) + ")",
                     e.what());
  }
}

Communicator::~Communicator() = default;

void Communicator::allReduceSum(at::Tensor& tensor) {
  // Gloo works on host memory here; a GPU tensor makes a round trip (no NCCL in this LibTorch).
  at::Tensor host = tensor.device().is_cpu() ? tensor : tensor.to(at::kCPU);
  std::vector<at::Tensor> tensors{host};
  impl_->group->allreduce(tensors)->wait();
  if (!tensor.device().is_cpu()) tensor.copy_(host);
}

void Communicator::broadcast(at::Tensor& tensor, int root) {
  at::Tensor host = tensor.device().is_cpu() ? tensor : tensor.to(at::kCPU);
  std::vector<at::Tensor> tensors{host};
  c10d::BroadcastOptions options;
  options.rootRank = root;
  impl_->group->broadcast(tensors, options)->wait();
  if (!tensor.device().is_cpu()) tensor.copy_(host);
}

void Communicator::barrier() {
  impl_->group->barrier()->wait();
}

}  // namespace noisescope::train
