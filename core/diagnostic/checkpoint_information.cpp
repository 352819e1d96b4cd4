// Information matrices of a TorchScript checkpoint's last linear layer.
//
// With a = W·h + b the layer's output and h its input, the Gauss–Newton block of (W, b) is
// E[(J_aᵀJ_a) ⊗ h̃h̃ᵀ] with h̃ = (h, 1). We reduce it to the input factor E[c²·h̃h̃ᵀ] (exact when
// the model output is c(σ)·a reshaped, as in a last layer followed by preconditioning; otherwise
// the output factor is replaced by its mean trace c² = tr(J_aJ_aᵀ)/rows, the usual Kronecker
// reduction). The factor is read from gradients without hooks: for a Rademacher vector r per
// sample, G = ∂(Σ_i r_iᵀ D(y_i))/∂[W b] = Σ_i J_aᵢᵀr_i h̃_iᵀ, and E_r[GᵀG]/rows = Σ_i c_i²·h̃_ih̃_iᵀ.
// With one sample per pass it is exact (|r|² = rows); with B samples the cross terms average out,
// at a variance of order B/rows, so B is capped at rows/8.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/script.h>

#include <algorithm>
#include <cmath>

#include "data/dataset.h"
#include "diagnostic/checkpoint_information.h"
#include "tensor/device.h"
#include "tensor/torchscript_model.h"
#include "util/error.h"

namespace noisescope::schedule {

InformationMatrices checkpointInformation(const std::string& modelPath, const Dataset& data,
                                          const std::vector<double>& sigma,
                                          const CheckpointInformationOptions& options) {
  if (sigma.empty()) throw InputError(modelPath, "no σ levels");
  if (data.size() < 1) throw InputError(data.source, "the dataset is empty");
  if (options.samples < 1 || options.samples > 1000000)
    throw InputError("--samples", "must be in [1, 1e6]");
  const c10::Device device = resolveDevice(options.device);
  TorchScriptDenoiser denoiser(modelPath, Prediction::X0, device);
  torch::jit::Module& module = denoiser.module();

  // Pick the weight: by name, or the last 2-D parameter whose name ends in "weight".
  std::string weightName, biasName;
  at::Tensor weight, bias;
  for (const auto& p : module.named_parameters(/*recurse=*/true)) {
    p.value.requires_grad_(false);
    const bool isWeight = p.value.dim() == 2 && p.name.size() >= 6 &&
                          p.name.compare(p.name.size() - 6, 6, "weight") == 0;
    if (options.parameter.empty() ? isWeight : p.name == options.parameter) {
      weightName = p.name;
      weight = p.value;
    }
  }
  if (!weight.defined())
    throw InputError(modelPath, options.parameter.empty()
                                    ? "has no 2-D '*weight' parameter (a linear layer)"
                                    : "has no parameter named '" + options.parameter + "'");
  if (weight.dim() != 2) throw InputError(modelPath, "parameter '" + weightName + "' is not 2-D");
  const std::string prefix = weightName.substr(0, weightName.size() - 6);
  for (const auto& p : module.named_parameters(true))
    if (p.name == prefix + "bias" && p.value.dim() == 1) {
      biasName = p.name;
      bias = p.value;
    }
  const int64_t rows = weight.size(0), inputs = weight.size(1);
  const int64_t width = inputs + (bias.defined() ? 1 : 0);
  if (width > 8192) throw InputError(modelPath, "the last layer has more than 8192 inputs");
  weight.requires_grad_(true);
  if (bias.defined()) bias.requires_grad_(true);

  const int64_t batch = std::max<int64_t>(1, std::min<int64_t>(options.batch, rows / 8));
  std::vector<int64_t> shape = {0};
  shape.insert(shape.end(), data.sampleShape.begin(), data.sampleShape.end());
  at::Generator generator = at::detail::createCPUGenerator(options.seed);
  const auto floatCpu = at::TensorOptions().dtype(at::kFloat);
  // The same (x, ε) at every level (common random numbers), drawn once on the CPU.
  const at::Tensor rowsPicked =
      at::randint(data.size(), {options.samples}, generator, at::TensorOptions().dtype(at::kLong));
  const at::Tensor all =
      at::from_blob(const_cast<float*>(data.values.data()), {data.size(), data.dim()}, floatCpu);
  const at::Tensor x0 = all.index_select(0, rowsPicked).to(device);
  const at::Tensor noise = at::randn({options.samples, data.dim()}, generator, floatCpu).to(device);

  InformationMatrices out;
  out.sigma = sigma;
  out.model = "checkpoint-last-layer";
  for (std::size_t g = 0; g < sigma.size(); ++g) {
    at::Tensor factor = at::zeros({width, width}, at::TensorOptions().dtype(at::kDouble));
    for (int64_t start = 0; start < options.samples; start += batch) {
      options.progress.throwIfCancelled();
      const int64_t count = std::min<int64_t>(batch, options.samples - start);
      shape[0] = count;
      const at::Tensor y =
          (x0.narrow(0, start, count) + noise.narrow(0, start, count) * sigma[g]).reshape(shape);
      const at::Tensor s = at::full({count}, sigma[g], floatCpu.device(device));
      at::Tensor output;
      try {
        output = module.forward({y, s}).toTensor();
      } catch (const std::exception& e) {
        throw InputError(modelPath,
                         std::string("forward(x, sigma) failed on the data's shape: ") + e.what());
      }
      // Rademacher directions in output space, one independent vector per sample.
      const at::Tensor r =
          at::randint(2, output.sizes(), generator, floatCpu).mul_(2).sub_(1).to(device);
      const at::Tensor objective = (output * r).sum();
      std::vector<at::Tensor> inputsToGrad = {weight};
      if (bias.defined()) inputsToGrad.push_back(bias);
      const auto grads = torch::autograd::grad({objective}, inputsToGrad);
      at::Tensor gMatrix = grads[0];
      if (bias.defined()) gMatrix = at::cat({gMatrix, grads[1].unsqueeze(1)}, 1);
      gMatrix = gMatrix.to(at::kDouble).cpu();
      factor += gMatrix.t().mm(gMatrix) / double(rows);
    }
    factor /= double(options.samples);
    Eigen::MatrixXd h(width, width);
    const at::Tensor contiguous = factor.contiguous();
    std::copy(contiguous.data_ptr<double>(), contiguous.data_ptr<double>() + width * width,
              h.data());
    out.information.push_back(0.5 * (h + h.transpose()));
    options.progress.report(double(g + 1) / sigma.size(),
                            "information at σ = " + std::to_string(sigma[g]));
  }
  weight.requires_grad_(false);
  if (bias.defined()) bias.requires_grad_(false);
  out.parameters = {{"samples", double(options.samples)},
                    {"batch", double(batch)},
                    {"rows", double(rows)},
                    {"inputs", double(inputs)},
                    {"seed", double(options.seed)}};
  out.notes = {{"checkpoint", modelPath},
               {"parameter", weightName},
               {"bias", biasName.empty() ? "none" : biasName},
               {"dataset", data.source.empty() ? data.name : data.source},
               {"device", device.str()}};
  out.description = "TorchScript checkpoint, last linear layer '" + weightName +
                    "' (Kronecker-reduced Gauss–Newton, Rademacher gradient estimator)";
  return out;
}

}  // namespace noisescope::schedule
