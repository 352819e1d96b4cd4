#pragma once
// Data-parallel training across processes through PyTorch's own distributed layer (c10d). The
// rendezvous is torchrun's: MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE. Rank 0 hosts the TCPStore.
// Collectives run on Gloo; tensors on a GPU are staged through host memory, because Debian's
// LibTorch is built without NCCL (see docs/training.md).
#include <ATen/core/Tensor.h>

#include <memory>
#include <string>

namespace noisescope::train {

struct DistributedEnvironment {
  std::string masterAddr = "127.0.0.1";
  int masterPort = 29500;
  int rank = 0;
  int worldSize = 1;
};

// Reads the four variables. All absent (or WORLD_SIZE = 1): a single process. Anything present
// but malformed or inconsistent throws InputError naming the variable.
DistributedEnvironment distributedEnvironmentFromEnv();

class Communicator {
 public:
  // Connects to the group (blocks until every rank has joined or the timeout passes).
  explicit Communicator(const DistributedEnvironment& env, int timeoutSeconds = 300);
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int rank() const { return env_.rank; }
  int worldSize() const { return env_.worldSize; }

  // In place: every rank ends with the element-wise sum over ranks.
  void allReduceSum(at::Tensor& tensor);
  // In place: every rank ends with rank `root`'s values.
  void broadcast(at::Tensor& tensor, int root = 0);
  void barrier();

 private:
  struct Impl;
  DistributedEnvironment env_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace noisescope::train
