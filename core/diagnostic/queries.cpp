#include "diagnostic/queries.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

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
