#pragma once
// Work split across processes through PyTorch's own distributed layer (c10d), for the trainer
// (data parallel) and the sharded diagnostic (prior sharded, queries shared). The rendezvous is
// torchrun's: MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE, LOCAL_RANK; rank 0 hosts the TCPStore
// unless torchrun's agent already does. Collectives run on NCCL for CUDA tensors when this
// LibTorch has it (a CUDA build from a PyTorch install), else on Gloo, staging GPU tensors
// through host memory (Debian's LibTorch has Gloo only; see docs/training.md).
//
// Failure: every wait is bounded by the timeout. A rank that cannot reach the rendezvous, or whose
// peer died mid-run, gets DistributedError naming itself, the address and what failed, instead of
// hanging.
#include <ATen/core/Tensor.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace noisescope {

struct DistributedEnvironment {
  std::string masterAddr = "127.0.0.1";
  int masterPort = 29500;
  int rank = 0;
  int worldSize = 1;
  int localRank = 0;  // this process's index on its node: the GPU it uses ("cuda:LOCAL_RANK")
};

// Reads the variables. All absent (or WORLD_SIZE = 1): a single process. Anything present but
// malformed or inconsistent throws InputError naming the variable.
DistributedEnvironment distributedEnvironmentFromEnv();

// "cuda:LOCAL_RANK" for `requested` = "auto" or "cuda" when this build sees GPUs, else `requested`
// unchanged: under torchrun each local rank takes its own GPU.
std::string deviceForLocalRank(const std::string& requested, const DistributedEnvironment& env);

// A collective or the rendezvous failed (peer lost, timeout, unreachable master).
class DistributedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Communicator {
 public:
  // Connects to the group; waits at most `timeoutSeconds` for every rank to join, and bounds
  // every later collective by the same timeout. Throws DistributedError.
  explicit Communicator(const DistributedEnvironment& env, int timeoutSeconds = 300);
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int rank() const { return env_.rank; }
  int worldSize() const { return env_.worldSize; }
  const DistributedEnvironment& environment() const { return env_; }
  // In place: every rank ends with the element-wise sum (max) over ranks.
  void allReduceSum(at::Tensor& tensor);
  void allReduceMax(at::Tensor& tensor);
  // In place: every rank ends with rank `root`'s values.
  void broadcast(at::Tensor& tensor, int root = 0);
  void barrier();
  // Bytes this process has handed to collectives so far (payload only), for the cost model.
  int64_t bytesCommunicated() const { return bytes_; }

 private:
  struct Impl;
  void allReduce(at::Tensor& tensor, int op, const char* what);
  [[noreturn]] void fail(const char* what, const std::exception& e) const;
  DistributedEnvironment env_;
  int timeoutSeconds_;
  int64_t bytes_ = 0;
  std::unique_ptr<Impl> impl_;
};

}  // namespace noisescope
