// c10d's Gloo headers are guarded by this macro; Debian's libtorch_cpu is built with Gloo.
#ifndef USE_C10D_GLOO
#define USE_C10D_GLOO 1
#endif
#include "tensor/communicator.h"

#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef NOISESCOPE_WITH_NCCL
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <cstdlib>
#include <string>

#include "tensor/device.h"
#include "util/error.h"

namespace noisescope {
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

// c10's messages carry a C++ backtrace; the user needs the first line of what happened.
std::string reason(const std::exception& e) {
  if (const auto* c10 = dynamic_cast<const c10::Error*>(&e)) return c10->what_without_backtrace();
  return e.what();
}

}  // namespace

DistributedEnvironment distributedEnvironmentFromEnv() {
  DistributedEnvironment env;
  const bool hasWorld = readInt("WORLD_SIZE", env.worldSize, 1, 65536);
  const bool hasRank = readInt("RANK", env.rank, 0, 65535);
  readInt("MASTER_PORT", env.masterPort, 1, 65535);
  readInt("LOCAL_RANK", env.localRank, 0, 65535);
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

std::string deviceForLocalRank(const std::string& requested, const DistributedEnvironment& env) {
  if (requested != "auto" && requested != "cuda") return requested;
  for (const std::string& name : availableDeviceNames())
    if (name.rfind("cuda", 0) == 0) return "cuda:" + std::to_string(env.localRank);
  return requested;
}

struct Communicator::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> gloo;
#ifdef NOISESCOPE_WITH_NCCL
  c10::intrusive_ptr<c10d::ProcessGroupNCCL> nccl;  // created on first use with a CUDA tensor
#endif
};

Communicator::Communicator(const DistributedEnvironment& env, int timeoutSeconds)
    : env_(env), timeoutSeconds_(timeoutSeconds), impl_(std::make_unique<Impl>()) {
  const std::chrono::milliseconds timeout(int64_t(timeoutSeconds) * 1000);
  try {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(env.masterPort);
    // Under torchrun the agent already serves the store at MASTER_PORT; every rank is a client.
    const char* agentStore = std::getenv("TORCHELASTIC_USE_AGENT_STORE");
    const bool useAgentStore = agentStore && std::string(agentStore) == "True";
    options.isServer = env.rank == 0 && !useAgentStore;
    options.numWorkers = static_cast<std::size_t>(env.worldSize);
    // The Gloo rendezvous below waits for every rank (bounded by the timeout); the store does not
    // wait a second time.
    options.waitWorkers = false;
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
    impl_->gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(impl_->store, env.rank, env.worldSize,
                                                              groupOptions);
  } catch (const std::exception& e) {
    throw DistributedError("distributed rendezvous at " + env.masterAddr + ":" +
                           std::to_string(env.masterPort) + " (rank " + std::to_string(env.rank) +
                           " of " + std::to_string(env.worldSize) + ") failed within " +
                           std::to_string(timeoutSeconds) + " s: " + reason(e));
  }
}

Communicator::~Communicator() = default;

void Communicator::fail(const char* what, const std::exception& e) const {
  throw DistributedError("rank " + std::to_string(env_.rank) + " of " +
                         std::to_string(env_.worldSize) + ": " + what +
                         " failed (another rank stopped, or did not answer within " +
                         std::to_string(timeoutSeconds_) + " s): " + reason(e));
}

void Communicator::allReduce(at::Tensor& tensor, int op, const char* what) {
  bytes_ += tensor.numel() * static_cast<int64_t>(tensor.element_size());
  c10d::AllreduceOptions options;
  options.reduceOp = static_cast<c10d::ReduceOp::RedOpType>(op);
  try {
#ifdef NOISESCOPE_WITH_NCCL
    if (tensor.is_cuda()) {
      if (!impl_->nccl) {
        auto o = c10d::ProcessGroupNCCL::Options::create();
        o->timeout = std::chrono::milliseconds(int64_t(timeoutSeconds_) * 1000);
        impl_->nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(
            c10::make_intrusive<c10d::PrefixStore>("nccl", impl_->store), env_.rank, env_.worldSize,
            o);
      }
      std::vector<at::Tensor> tensors{tensor};
      impl_->nccl->allreduce(tensors, options)->wait();
      return;
    }
#endif
    // Gloo works on host memory; a GPU tensor makes a round trip.
    at::Tensor host = tensor.device().is_cpu() ? tensor : tensor.to(at::kCPU);
    std::vector<at::Tensor> tensors{host};
    impl_->gloo->allreduce(tensors, options)->wait();
    if (!tensor.device().is_cpu()) tensor.copy_(host);
  } catch (const DistributedError&) {
    throw;
  } catch (const std::exception& e) {
    fail(what, e);
  }
}

void Communicator::allReduceSum(at::Tensor& tensor) {
  allReduce(tensor, c10d::ReduceOp::SUM, "all-reduce (sum)");
}

void Communicator::allReduceMax(at::Tensor& tensor) {
  allReduce(tensor, c10d::ReduceOp::MAX, "all-reduce (max)");
}

void Communicator::broadcast(at::Tensor& tensor, int root) {
  bytes_ += tensor.numel() * static_cast<int64_t>(tensor.element_size());
  try {
    at::Tensor host = tensor.device().is_cpu() ? tensor : tensor.to(at::kCPU);
    std::vector<at::Tensor> tensors{host};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    impl_->gloo->broadcast(tensors, options)->wait();
    if (!tensor.device().is_cpu()) tensor.copy_(host);
  } catch (const std::exception& e) {
    fail("broadcast", e);
  }
}

void Communicator::barrier() {
  try {
    impl_->gloo->barrier()->wait();
  } catch (const std::exception& e) {
    fail("barrier", e);
  }
}

}  // namespace noisescope
