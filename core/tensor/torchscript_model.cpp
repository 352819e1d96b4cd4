#include "tensor/torchscript_model.h"

#include <filesystem>
#include <sstream>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope {

const char* toString(Prediction prediction) {
  switch (prediction) {
    case Prediction::X0:
      return "x0";
    case Prediction::Epsilon:
      return "eps";
    case Prediction::V:
      return "v";
  }
  return "x0";
}

Prediction predictionFromString(const std::string& text) {
  if (text == "x0") return Prediction::X0;
  if (text == "eps" || text == "epsilon") return Prediction::Epsilon;
  if (text == "v") return Prediction::V;
  throw InputError(std::string(settings::kPrediction) + " " + text, "expected x0, eps or v");
}

namespace {

std::string firstLine(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

std::string shapeText(at::IntArrayRef shape) {
  return noisescope::shapeText(shape.vec());
}

}  // namespace

void saveTorchScriptAtomically(torch::jit::Module& module, const std::string& path,
                               const std::string& what) {
  try {
    std::ostringstream bytes;
    module.save(bytes);
    writeFileAtomically(path, bytes.str());
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path, "cannot save " + what + ": " + e.what());
  }
}

TorchScriptDenoiser::TorchScriptDenoiser(const std::string& path, Prediction prediction,
                                         const c10::Device& device)
    : path_(path), prediction_(prediction) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path, "no such file");
  if (!fs::is_regular_file(path, ec)) throw InputError(path, "not a regular file");
  try {
    module_ = torch::jit::load(path, device);
  } catch (const std::exception& e) {
    throw InputError(path, "not a TorchScript model file (torch::jit::load failed: " +
                               firstLine(e.what()) + ")");
  }
  module_.eval();
  if (module_.hasattr("sample_shape")) {
    const c10::IValue shape = module_.attr("sample_shape");
    if (shape.isIntList()) declaredShape_ = shape.toIntVector();
  }
  const auto method = module_.find_method("forward");
  if (!method) throw InputError(path, "the TorchScript module has no forward method");
  const auto& arguments = method->function().getSchema().arguments();
  // arguments[0] is `self`; the convention needs exactly (x, sigma) without defaults.
  int64_t required = 0;
  for (size_t i = 1; i < arguments.size(); ++i) {
    if (!arguments[i].default_value()) ++required;
  }
  if (arguments.size() < 3 || required != 2) {
    throw InputError(path, "forward takes " + std::to_string(arguments.size() - 1) + " input(s) (" +
                               std::to_string(required) +
                               " without default); the convention is "
                               "forward(x: Tensor[B, ...], sigma: Tensor[B]) -> Tensor");
  }
}

at::Tensor TorchScriptDenoiser::denoise(const at::Tensor& y, const at::Tensor& sigma) {
  at::Tensor shaped = sigma.view({-1});
  std::vector<int64_t> broadcast(static_cast<size_t>(y.dim()), 1);
  broadcast[0] = y.size(0);
  at::Tensor s = shaped.view(broadcast);
  at::Tensor input = y;
  at::Tensor alpha, spread;
  if (prediction_ == Prediction::V) {
    alpha = (s * s + 1.0).rsqrt();
    spread = s * alpha;
    input = y * alpha;
  }
  at::Tensor out = call(input, shaped);
  switch (prediction_) {
    case Prediction::X0:
      return out;
    case Prediction::Epsilon:
      return y - s * out;
    case Prediction::V:
      return alpha * input - spread * out;
  }
  return out;
}

at::Tensor TorchScriptDenoiser::call(const at::Tensor& x, const at::Tensor& sigma) {
  c10::IValue result;
  try {
    result = module_.forward({x, sigma});
  } catch (const std::exception& e) {
    // Most often the model was made for samples of another shape: name both.
    const std::vector<int64_t> sample(x.sizes().begin() + 1, x.sizes().end());
    throw InputError(
        path_, "the model failed on samples of shape " + shapeText(sample) + " (a batch of shape " +
                   shapeText(x.sizes()) + "); " +
                   (declaredShape_.empty()
                        ? std::string("the model records no sample shape of its own")
                        : "the model records sample shape " + shapeText(declaredShape_)) +
                   ": " + firstLine(e.what()));
  }
  if (!result.isTensor())
    throw InputError(path_, "forward returned " + result.tagKind() + ", expected a Tensor");
  at::Tensor out = result.toTensor();
  if (out.sizes() != x.sizes())
    throw InputError(path_, "forward returned shape " + shapeText(out.sizes()) +
                                " for the dataset's samples, a batch of shape " +
                                shapeText(x.sizes()) +
                                " (a denoiser returns the shape of its input; is it a model "
                                "for this dataset?)");
  if (!out.is_floating_point())
    throw InputError(path_, "forward returned a tensor of integer type");
  out = out.to(at::kFloat);
  if (!at::isfinite(out).all().item<bool>()) {
    const double smallest = sigma.min().item<double>();
    const double largest = sigma.max().item<double>();
    throw InputError(path_, "the model returned NaN or infinity (sigma in [" +
                                std::to_string(smallest) + ", " + std::to_string(largest) + "])");
  }
  return out;
}

}  // namespace noisescope
