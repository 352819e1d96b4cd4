// Information matrices of a TorchScript checkpoint's output layer.
//
// With a_p = W·ũ_p the layer's output at position p (one position for a linear layer applied to
// a [B, in] input; every output pixel of a conv, ũ_p its input patch) and ũ = (u, 1) when there is
// a bias, the Gauss–Newton block of (W, b) is Σ_p E[(J_pᵀJ_p) ⊗ ũ_pũ_pᵀ], J_p = ∂x̂0/∂a_p. We
// reduce it to the input factor E[Σ_p c_p²·ũ_pũ_pᵀ] with c_p² = tr(J_pᵀJ_p)/rows (exact when the
// model output is c(σ)·a reshaped, as in a last layer followed by preconditioning; otherwise the
// usual Kronecker reduction). The patches and a_p come from the forward pass itself: the forward
// graph is instrumented to store each candidate layer's input and output in module attributes,
// and c_p² is read from g = ∂(rᵀx̂0)/∂a for a Rademacher r (|g_p|² has mean tr(J_pᵀJ_p), and is
// exactly that for J_p = c·I). Samples do not mix, so batching costs no accuracy.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/script.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "data/dataset.h"
#include "diagnostic/checkpoint_information.h"
#include "tensor/device.h"
#include "tensor/torchscript_model.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::schedule {

namespace {

namespace jit = torch::jit;

// A linear or conv call in forward whose weight is a parameter: a candidate output layer.
struct LayerSite {
  std::string weightName, biasName;  // as in named_parameters(); bias empty when none
  int convDims = 0;                  // 0: linear; 1 or 2: conv1d / conv2d
  std::vector<int64_t> stride, padding, dilation;
  std::string inputSlot, outputSlot;  // module attributes the instrumented forward fills
  // "linear", "conv2d 3x3", ...
  std::string describe(const at::Tensor& weight) const {
    if (convDims == 0) return "linear";
    std::string k;
    for (int64_t d = 2; d < weight.dim(); ++d)
      k += (k.empty() ? "" : "x") + std::to_string(weight.size(d));
    return "conv" + std::to_string(convDims) + "d " + k;
  }
};

// A constant int list, folded already or still a ListConstruct of constants (as in a graph
// that has not been optimised yet).
std::optional<std::vector<int64_t>> constantInts(jit::Value* v) {
  if (const auto value = jit::toIValue(v)) {
    if (!value->isIntList()) return std::nullopt;
    return value->toIntVector();
  }
  if (v->node()->kind() != jit::prim::ListConstruct) return std::nullopt;
  std::vector<int64_t> out;
  for (jit::Value* item : v->node()->inputs()) {
    const auto value = jit::toIValue(item);
    if (!value || !value->isInt()) return std::nullopt;
    out.push_back(value->toInt());
  }
  return out;
}

// Parameter names of GetAttr chains that start at the module (forward's first input).
void nameValues(jit::Block* block, jit::Value* self, std::map<jit::Value*, std::string>& names) {
  for (jit::Node* node : block->nodes()) {
    if (node->kind() == jit::prim::GetAttr) {
      jit::Value* owner = node->input(0);
      const std::string field = node->s(jit::attr::name);
      if (owner == self) {
        names[node->output()] = field;
      } else if (const auto it = names.find(owner); it != names.end()) {
        names[node->output()] = it->second + "." + field;
      }
    }
    for (jit::Block* inner : node->blocks()) nameValues(inner, self, names);
  }
}

void collectSites(jit::Block* block, const std::map<jit::Value*, std::string>& names,
                  const std::set<std::string>& parameters,
                  std::vector<std::pair<jit::Node*, LayerSite>>& sites) {
  for (jit::Node* node : block->nodes()) {
    for (jit::Block* inner : node->blocks()) collectSites(inner, names, parameters, sites);
    const std::string kind = node->kind().toQualString();
    const bool linear = kind == "aten::linear";
    const bool conv = kind == "aten::conv1d" || kind == "aten::conv2d";
    const bool generic = kind == "aten::_convolution";
    if (!(linear || conv || generic) || node->inputs().size() < 3) continue;
    const auto weight = names.find(node->input(1));
    if (weight == names.end() || !parameters.count(weight->second)) continue;
    LayerSite site;
    site.weightName = weight->second;
    if (const auto bias = names.find(node->input(2));
        bias != names.end() && parameters.count(bias->second))
      site.biasName = bias->second;
    else if (!node->input(2)->type()->cast<c10::NoneType>())
      continue;  // a bias computed in the graph: not a plain layer
    if (!linear) {
      if (node->inputs().size() < (generic ? 9u : 7u)) continue;
      const auto stride = constantInts(node->input(3));
      const auto padding = constantInts(node->input(4));
      const auto dilation = constantInts(node->input(5));
      if (!stride || !padding || !dilation) continue;  // e.g. padding="same"
      const auto groups = jit::toIValue(node->input(generic ? 8 : 6));
      if (!groups || !groups->isInt() || groups->toInt() != 1) continue;
      if (generic) {
        const auto transposed = jit::toIValue(node->input(6));
        if (!transposed || !transposed->isBool() || transposed->toBool()) continue;
      }
      site.stride = *stride;
      site.padding = *padding;
      site.dilation = *dilation;
      site.convDims = int(site.stride.size());
      if (site.convDims < 1 || site.convDims > 2 || site.padding.size() != site.stride.size() ||
          site.dilation.size() != site.stride.size())
        continue;
    }
    sites.emplace_back(node, std::move(site));
  }
}

// Instruments forward (before its first run) so that each candidate layer stores its input and
// output in module attributes, and makes it run without autodiff subgraphs: the stored output
// must be the very tensor the rest of the graph uses, for the gradient with respect to it.
std::vector<LayerSite> instrumentForward(jit::Module& module, const std::string& path) {
  jit::GraphFunction* forward = nullptr;
  try {
    forward = &jit::toGraphFunction(module.get_method("forward").function());
  } catch (const std::exception&) {
    throw InputError(path, "forward is not a TorchScript graph function");
  }
  forward->ensure_defined();
  forward->_set_initial_executor_execution_mode(jit::ExecutorExecutionMode::SIMPLE);
  std::shared_ptr<jit::Graph> graph = forward->graph();
  jit::Inline(*graph);
  jit::Value* self = graph->inputs().at(0);

  std::set<std::string> parameters;
  for (const auto& p : module.named_parameters(/*recurse=*/true)) parameters.insert(p.name);
  std::map<jit::Value*, std::string> names;
  nameValues(graph->block(), self, names);
  std::vector<std::pair<jit::Node*, LayerSite>> found;
  collectSites(graph->block(), names, parameters, found);

  std::vector<LayerSite> sites;
  for (auto& [node, site] : found) {
    const std::string slot = "_noisescope_probe_" + std::to_string(sites.size());
    site.inputSlot = slot + "_input";
    site.outputSlot = slot + "_output";
    for (const std::string& s : {site.inputSlot, site.outputSlot})
      module.register_attribute(s, c10::TensorType::get(), at::zeros({0}), false);
    jit::Node* storeInput = graph->createSetAttr(self, site.inputSlot, node->input(0));
    storeInput->insertAfter(node);
    graph->createSetAttr(self, site.outputSlot, node->output())->insertAfter(storeInput);
    sites.push_back(std::move(site));
  }
  return sites;
}

at::Tensor parameter(jit::Module& module, const std::string& name) {
  for (const auto& p : module.named_parameters(true))
    if (p.name == name) return p.value;
  return {};
}

at::Tensor slot(jit::Module& module, const std::string& name) {
  return module.attr(name).toTensor();
}

// [B, P, width]: the layer's input per output position, with a 1 appended for the bias.
at::Tensor inputPatches(const LayerSite& site, const at::Tensor& weight, const at::Tensor& input,
                        bool bias) {
  const int64_t batch = input.size(0);
  at::Tensor patches;
  if (site.convDims == 0) {
    patches = input.reshape({batch, -1, input.size(-1)});
  } else {
    // conv1d as a conv2d of height 1, so that one unfold serves both.
    const bool one = site.convDims == 1;
    const at::Tensor image = one ? input.unsqueeze(2) : input;
    auto two = [one](const std::vector<int64_t>& v, int64_t pad) {
      return one ? std::vector<int64_t>{pad, v[0]} : v;
    };
    const std::vector<int64_t> kernel = one ? std::vector<int64_t>{1, weight.size(2)}
                                            : std::vector<int64_t>{weight.size(2), weight.size(3)};
    patches =
        at::im2col(image, kernel, two(site.dilation, 1), two(site.padding, 0), two(site.stride, 1))
            .transpose(1, 2);  // [B, P, Cin·k]
  }
  patches = patches.to(at::kDouble);
  if (bias) patches = at::cat({patches, at::ones_like(patches.narrow(2, 0, 1))}, 2);
  return patches;
}

// [B, P, rows]: ∂(rᵀx̂0)/∂a arranged like the patches.
at::Tensor outputGradients(const LayerSite& site, const at::Tensor& g) {
  const int64_t batch = g.size(0);
  if (site.convDims == 0) return g.reshape({batch, -1, g.size(-1)}).to(at::kDouble);
  return g.flatten(2).transpose(1, 2).to(at::kDouble);
}

int64_t perSample(const at::Tensor& t) {
  return t.numel() / std::max<int64_t>(1, t.size(0));
}

// The same (x, ε) at every level (common random numbers), drawn once on the CPU: noisy inputs
// x + σ·ε of any slice of them, shaped as the model takes them.
class CommonDraws {
 public:
  CommonDraws(const Dataset& data, int64_t samples, at::Generator& generator,
              const c10::Device& device)
      : device_(device) {
    shape_ = {0};
    shape_.insert(shape_.end(), data.sampleShape.begin(), data.sampleShape.end());
    const at::Tensor rows =
        at::randint(data.size(), {samples}, generator, at::TensorOptions().dtype(at::kLong));
    const at::Tensor all =
        at::from_blob(const_cast<float*>(data.values.data()), {data.size(), data.dim()}, kFloatCpu);
    x0_ = all.index_select(0, rows).to(device);
    noise_ = at::randn({samples, data.dim()}, generator, kFloatCpu).to(device);
  }
  at::Tensor noisy(int64_t start, int64_t count, double sigma) const {
    std::vector<int64_t> shape = shape_;
    shape[0] = count;
    return (x0_.narrow(0, start, count) + noise_.narrow(0, start, count) * sigma).reshape(shape);
  }
  at::Tensor levels(int64_t count, double sigma) const {
    return at::full({count}, sigma, kFloatCpu.device(device_));
  }

  static inline const at::TensorOptions kFloatCpu = at::TensorOptions().dtype(at::kFloat);

 private:
  c10::Device device_;
  std::vector<int64_t> shape_;
  at::Tensor x0_, noise_;
};

const std::string kHowToName = "; name the output layer's weight with --parameter NAME";

// The layer whose weight is `name`, or an error that says why it cannot be used.
const LayerSite& namedLayer(const std::vector<LayerSite>& sites, jit::Module& module,
                            const std::string& name, const std::string& modelPath) {
  for (const LayerSite& s : sites)
    if (s.weightName == name) return s;
  if (!parameter(module, name).defined())
    throw InputError(modelPath, "has no parameter named '" + name + "'");
  throw InputError(modelPath, "parameter '" + name +
                                  "' is not the weight of a linear, conv1d or conv2d call in "
                                  "forward (groups 1, constant padding)");
}

// Whether the output moves affinely with `site`'s weight: perturbed by ±δ, the output moves by
// exactly ∓ the same amount (to 10⁻³ of the first difference).
bool outputIsAffineIn(const LayerSite& site, jit::Module& module, TorchScriptDenoiser& denoiser,
                      const at::Tensor& y, const at::Tensor& s, const at::Tensor& base,
                      at::Generator& generator) {
  at::Tensor weight = parameter(module, site.weightName);
  const at::Tensor saved = weight.clone();
  const double rms = weight.to(at::kDouble).square().mean().sqrt().item<double>();
  const at::Tensor delta =
      at::randn(weight.sizes(), generator, CommonDraws::kFloatCpu).to(weight.device()) *
      std::max(rms, 0.1);
  bool isAffine = false;
  try {
    weight.add_(delta);
    const at::Tensor up = denoiser.denoise(y, s).to(at::kDouble);
    weight.copy_(saved).sub_(delta);
    const at::Tensor down = denoiser.denoise(y, s).to(at::kDouble);
    const double first = (up - down).norm().item<double>();
    const double second = (up + down - 2.0 * base).norm().item<double>();
    isAffine = first > 1e-9 * (1.0 + base.norm().item<double>()) && second <= 1e-3 * first;
  } catch (const InputError&) {
    isAffine = false;  // the perturbed model returned NaN: nothing linear about it
  }
  weight.copy_(saved);
  return isAffine;
}

// The output layer found from a probe batch at the middle level: the one layer whose output has
// as many entries as the model's and which the output depends on affinely.
const LayerSite& affineOutputLayer(const std::vector<LayerSite>& sites, jit::Module& module,
                                   TorchScriptDenoiser& denoiser, const CommonDraws& draws,
                                   int64_t probe, double mid, at::Generator& generator,
                                   const std::string& modelPath) {
  at::NoGradGuard noGrad;
  const at::Tensor y = draws.noisy(0, probe, mid), s = draws.levels(probe, mid);
  const at::Tensor base = denoiser.denoise(y, s).to(at::kDouble);
  std::vector<const LayerSite*> affine;
  std::string candidates;
  for (const LayerSite& site : sites) {
    if (perSample(slot(module, site.outputSlot)) != perSample(base)) continue;
    candidates += (candidates.empty() ? "" : ", ") + site.weightName;
    if (outputIsAffineIn(site, module, denoiser, y, s, base, generator)) affine.push_back(&site);
  }
  if (affine.size() == 1) return *affine.front();
  std::string found;
  for (const LayerSite* a : affine) found += (found.empty() ? "" : ", ") + a->weightName;
  throw InputError(
      modelPath,
      affine.empty()
          ? "cannot identify the output layer: no linear or conv layer with an output of the "
            "model's size (" +
                std::to_string(perSample(base)) +
                " per sample) enters the output affinely (candidates by size: " +
                (candidates.empty() ? std::string("none") : candidates) + ")" + kHowToName
          : "cannot identify the output layer: the output is affine in several layers (" + found +
                ")" + kHowToName);
}

// The chosen layer with what the information matrix is built from.
struct OutputLayer {
  const LayerSite* site = nullptr;
  at::Tensor weight, bias;  // bias undefined when the layer has none
  int64_t rows = 0, inputs = 0, width = 0;
};

// One level's Kronecker-reduced Gauss–Newton factor E[Σ_p g_p² · a_p a_pᵀ] / rows over the
// samples, with Rademacher directions r in output space (g = ∂(rᵀx̂0)/∂(layer output)). `batch`
// adapts to keep a batch's patches near 8M doubles; `positions` is the layer's output positions.
Eigen::MatrixXd informationAtLevel(double sigma, const OutputLayer& layer,
                                   TorchScriptDenoiser& denoiser, jit::Module& module,
                                   const CommonDraws& draws, at::Generator& generator,
                                   const CheckpointInformationOptions& options,
                                   const std::string& modelPath, int64_t& batch,
                                   int64_t& positions) {
  const LayerSite& site = *layer.site;
  const int64_t width = layer.width;
  at::Tensor factor = at::zeros({width, width}, at::TensorOptions().dtype(at::kDouble));
  for (int64_t start = 0; start < options.samples; start += batch) {
    options.progress.throwIfCancelled();
    const int64_t count = std::min<int64_t>(batch, options.samples - start);
    const at::Tensor estimate =
        denoiser.denoise(draws.noisy(start, count, sigma), draws.levels(count, sigma));
    const at::Tensor layerOutput = slot(module, site.outputSlot);
    const at::Tensor patches = inputPatches(
        site, layer.weight, slot(module, site.inputSlot).detach(), layer.bias.defined());
    const at::Tensor r = at::randint(2, estimate.sizes(), generator, CommonDraws::kFloatCpu)
                             .mul_(2)
                             .sub_(1)
                             .to(estimate.device());
    const at::Tensor gradient =
        torch::autograd::grad({(estimate * r).sum()}, {layerOutput}, {}, false, false, true)[0];
    if (!gradient.defined())
      throw InputError(
          modelPath, "the output does not depend on layer '" + site.weightName + "'" + kHowToName);
    const at::Tensor g2 = outputGradients(site, gradient).square().sum(2).div_(double(layer.rows));
    if (patches.size(1) != g2.size(1))
      throw InputError(modelPath, "layer '" + site.weightName +
                                      "': its input patches and outputs do not line up");
    positions = patches.size(1);
    const at::Tensor weighted = (patches * g2.sqrt().unsqueeze(2)).reshape({-1, width}).cpu();
    factor += weighted.t().mm(weighted);
    batch = std::clamp<int64_t>((int64_t{8} << 20) / std::max<int64_t>(1, positions * width), 1,
                                std::max(1, options.batch));
  }
  factor /= double(options.samples);
  Eigen::MatrixXd h(width, width);
  const at::Tensor contiguous = factor.contiguous();
  std::copy(contiguous.data_ptr<double>(), contiguous.data_ptr<double>() + width * width, h.data());
  return 0.5 * (h + h.transpose());
}

}  // namespace

InformationMatrices checkpointInformation(const std::string& modelPath, const Dataset& data,
                                          const std::vector<double>& sigma,
                                          const CheckpointInformationOptions& options) {
  if (sigma.empty()) throw InputError(modelPath, "no σ levels");
  if (data.size() < 1) throw InputError(data.source, "the dataset is empty");
  if (options.samples < 1 || options.samples > 1000000)
    throw InputError(settings::kMonteCarloSamples, "must be in [1, 1e6]");
  const c10::Device device = resolveDevice(options.device);
  TorchScriptDenoiser denoiser(modelPath, options.prediction, device);
  jit::Module& module = denoiser.module();
  for (const auto& p : module.named_parameters(true)) p.value.requires_grad_(false);
  const std::vector<LayerSite> sites = instrumentForward(module, modelPath);
  at::Generator generator = at::detail::createCPUGenerator(options.seed);
  const CommonDraws draws(data, options.samples, generator, device);

  OutputLayer layer;
  std::string how;
  if (!options.parameter.empty()) {
    layer.site = &namedLayer(sites, module, options.parameter, modelPath);
    how = "named by --parameter";
  } else {
    layer.site =
        &affineOutputLayer(sites, module, denoiser, draws, std::min<int64_t>(4, options.samples),
                           sigma[sigma.size() / 2], generator, modelPath);
    how = "automatic: the one layer the output depends on affinely";
  }
  const LayerSite& chosen = *layer.site;
  layer.weight = parameter(module, chosen.weightName);
  if (!chosen.biasName.empty()) layer.bias = parameter(module, chosen.biasName);
  layer.rows = layer.weight.size(0);
  layer.inputs = layer.weight.numel() / layer.rows;
  layer.width = layer.inputs + (layer.bias.defined() ? 1 : 0);
  if (layer.width > 8192)
    throw InputError(modelPath, "the output layer '" + chosen.weightName + "' has " +
                                    std::to_string(layer.width) +
                                    " inputs per output (at most 8192)");
  // Gradients are needed with respect to the layer's output only; its weight requiring them is
  // what puts that output on the autograd tape.
  layer.weight.requires_grad_(true);

  InformationMatrices out;
  out.sigma = sigma;
  out.model = "checkpoint-last-layer";
  int64_t batch = std::max(1, options.batch), positions = 0;
  for (std::size_t g = 0; g < sigma.size(); ++g) {
    out.information.push_back(informationAtLevel(sigma[g], layer, denoiser, module, draws,
                                                 generator, options, modelPath, batch, positions));
    options.progress.report(double(g + 1) / sigma.size(),
                            "information at σ = " + std::to_string(sigma[g]));
  }
  layer.weight.requires_grad_(false);
  out.parameters = {{"samples", double(options.samples)}, {"batch", double(batch)},
                    {"rows", double(layer.rows)},         {"inputs", double(layer.inputs)},
                    {"positions", double(positions)},     {"seed", double(options.seed)}};
  out.notes = {{"checkpoint", modelPath},
               {"parameter", chosen.weightName},
               {"bias", chosen.biasName.empty() ? "none" : chosen.biasName},
               {"layer", chosen.describe(layer.weight)},
               {"layer_choice", how},
               {"prediction", toString(options.prediction)},
               {"dataset", data.sourceOrName()},
               {"device", device.str()}};
  out.description = "TorchScript checkpoint, output layer '" + chosen.weightName + "' (" +
                    chosen.describe(layer.weight) + ", " + toString(options.prediction) +
                    " prediction; Kronecker-reduced Gauss–Newton of the x0 estimate)";
  return out;
}

}  // namespace noisescope::schedule
