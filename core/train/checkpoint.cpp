#include "train/checkpoint.h"

#include <torch/serialize.h>

#include <c10/core/GradMode.h>

#include <cstdio>
#include <filesystem>

#include "train/run_directory.h"
#include "util/error.h"

namespace noisescope::train {

std::string checkpointParameterKey(size_t index) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "p%04zu", index);
  return buffer;
}

LoadedDenoiser loadCheckpointDenoiser(const std::string& path, c10::Device device, bool ema) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path, "no such checkpoint file");
  LoadedDenoiser out;
  try {
    // Checked before torch parses a byte: a cut or damaged file is refused, never loaded.
    const std::string bytes = readCheckpointFile(path);
    torch::serialize::InputArchive archive;
    archive.load_from(bytes.data(), bytes.size(), c10::Device(c10::kCPU));
    c10::IValue metaValue;
    if (!archive.try_read("meta", metaValue) || !metaValue.isString())
      throw InputError(path, "not a NoiseScope training checkpoint (no meta record)");
    out.meta = nlohmann::json::parse(metaValue.toStringRef());
    if (out.meta.value("format", "") != kCheckpointFormat)
      throw InputError(path, "checkpoint format is '" + out.meta.value("format", "") +
                                 "', expected " + kCheckpointFormat);
    out.step = out.meta.at("step").get<int64_t>();
    out.spec = networkSpecFromJson(out.meta.at("network"), path);
    const auto names = out.meta.at("parameter_names").get<std::vector<std::string>>();
    auto network = std::make_shared<Denoiser>(out.spec, c10::Device(c10::kCPU));
    const auto params = network->namedParameters();
    if (params.size() != names.size())
      throw InputError(path, "checkpoint holds " + std::to_string(names.size()) +
                                 " parameters; the network it describes has " +
                                 std::to_string(params.size()));
    torch::serialize::InputArchive group;
    if (!archive.try_read(ema ? "ema" : "model", group))
      throw InputError(path,
                       std::string("checkpoint has no '") + (ema ? "ema" : "model") + "' weights");
    c10::AutoGradMode noGrad(false);
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i].first != names[i])
        throw InputError(path, "parameter " + std::to_string(i) + " is '" + names[i] +
                                   "', the network expects '" + params[i].first + "'");
      at::Tensor value;
      if (!group.try_read(checkpointParameterKey(i), value))
        throw InputError(path, "parameter '" + names[i] + "' is missing");
      if (value.sizes() != params[i].second.sizes() || value.scalar_type() != at::kFloat)
        throw InputError(path, "parameter '" + names[i] + "' has the wrong shape or type");
      params[i].second.copy_(value);
    }
    if (device != c10::Device(c10::kCPU)) {
      auto moved = std::make_shared<Denoiser>(out.spec, device);
      moved->copyParametersFrom(*network);
      network = moved;
    }
    network->setTraining(false);
    out.network = network;
    out.denoise = [network](const at::Tensor& x, const at::Tensor& sigma) {
      c10::AutoGradMode noGradInside(false);
      return network->forward(x, sigma);
    };
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path, std::string("cannot read the checkpoint: ") + e.what());
  }
  return out;
}

}  // namespace noisescope::train
