#include "diagnostic/queries.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <stdexcept>

namespace noisescope {

QuerySet drawQueries(int64_t datasetSize, int64_t dim, int64_t count, uint64_t seed) {
  if (datasetSize < 1 || dim < 1 || count < 1)
    throw std::invalid_argument("drawQueries: empty dataset or no queries");
  at::Generator generator = at::detail::createCPUGenerator(seed);
  const auto options = at::TensorOptions().dtype(at::kLong);
  at::Tensor index = at::randint(datasetSize, {count}, generator, options);
  at::Tensor noise = at::randn({count, dim}, generator, at::TensorOptions().dtype(at::kDouble));
  QuerySet out;
  out.dim = dim;
  out.index.assign(index.data_ptr<int64_t>(), index.data_ptr<int64_t>() + count);
  out.noise.assign(noise.data_ptr<double>(), noise.data_ptr<double>() + count * dim);
  return out;
}

}  // namespace noisescope

namespace noisescope {

std::vector<int64_t> heldOutOrder(int64_t heldOutSize, uint64_t seed) {
  if (heldOutSize < 1) throw std::invalid_argument("heldOutOrder: no held-out points");
  // A generator of its own (seed offset), so the order does not shift the noise draws.
  at::Generator generator = at::detail::createCPUGenerator(seed ^ 0x5eedf00dULL);
  at::Tensor order = at::randperm(heldOutSize, generator, at::TensorOptions().dtype(at::kLong));
  return {order.data_ptr<int64_t>(), order.data_ptr<int64_t>() + heldOutSize};
}

QuerySet drawHeldOutQueries(const std::vector<int64_t>& order, int64_t dim, int64_t count,
                            uint64_t seed) {
  if (order.empty() || dim < 1 || count < 1)
    throw std::invalid_argument("drawHeldOutQueries: no points or no queries");
  at::Generator generator = at::detail::createCPUGenerator(seed);
  at::Tensor noise = at::randn({count, dim}, generator, at::TensorOptions().dtype(at::kDouble));
  const int64_t used = std::min<int64_t>(count, static_cast<int64_t>(order.size()));
  QuerySet out;
  out.dim = dim;
  out.index.resize(static_cast<size_t>(count));
  for (int64_t j = 0; j < count; ++j) out.index[j] = order[static_cast<size_t>(j % used)];
  out.noise.assign(noise.data_ptr<double>(), noise.data_ptr<double>() + count * dim);
  return out;
}

}  // namespace noisescope
