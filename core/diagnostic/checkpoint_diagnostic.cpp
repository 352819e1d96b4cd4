#include "diagnostic/checkpoint_diagnostic.h"

#include <ATen/core/grad_mode.h>
#include <torch/script.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "data/statistics.h"
#include "diagnostic/diagnostic_options.h"
#include "diagnostic/queries.h"
#include "io/provenance.h"
#include "tensor/device.h"
#include "tensor/torchscript_model.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope {

namespace {

at::Tensor batchOf(const Dataset& dataset, const std::vector<int64_t>& rows,
                   const c10::Device& device) {
  std::vector<int64_t> shape = {static_cast<int64_t>(rows.size())};
  shape.insert(shape.end(), dataset.sampleShape.begin(), dataset.sampleShape.end());
  at::Tensor out = at::empty(shape, at::kFloat);
  float* dst = out.data_ptr<float>();
  const int64_t d = dataset.dim();
  for (size_t r = 0; r < rows.size(); ++r)
    std::copy(dataset.sample(rows[r]), dataset.sample(rows[r]) + d, dst + r * d);
  return out.to(device);
}

void requireUsable(const Dataset& dataset) {
  if (dataset.size() < 1 || dataset.dim() < 1)
    throw InputError(dataset.sourceOrName(), "the evaluation dataset is empty");
}

}  // namespace

void checkCheckpoint(const std::string& path, Prediction prediction, const Dataset& dataset,
                     const std::string& device) {
  requireUsable(dataset);
  const c10::Device dev = resolveDevice(device);
  c10::InferenceMode inference;
  TorchScriptDenoiser model(path, prediction, dev);
  const auto& declared = model.declaredSampleShape();
  if (!declared.empty() && declared != dataset.sampleShape)
    throw InputError(path, "the model was made for samples of shape " + shapeText(declared) +
                               ", but the dataset's samples have shape " +
                               shapeText(dataset.sampleShape));
  const std::vector<int64_t> rows = {0, std::min<int64_t>(1, dataset.size() - 1)};
  at::Tensor x = batchOf(dataset, rows, dev);
  at::Tensor sigma = at::full({2}, 1.0, at::TensorOptions().dtype(at::kFloat).device(dev));
  model.denoise(x, sigma);
}

Profile computeCheckpointProfile(const Dataset& evaluation, const CheckpointOptions& options,
                                 const Progress& progress) {
  requireUsable(evaluation);
  const DiagnosticOptions& grid = options.grid;
  grid.validate();
  if (options.batchSize < 1) throw InputError(settings::kBatchSize, "must be at least 1");
  const auto started = std::chrono::steady_clock::now();
  const c10::Device device = resolveDevice(grid.device);
  checkCheckpoint(options.path, options.prediction, evaluation, grid.device);

  c10::InferenceMode inference;
  TorchScriptDenoiser model(options.path, options.prediction, device);
  const std::vector<double> sigma = logSigmaLevels(grid.levels, grid.sigmaMin, grid.sigmaMax);
  const QuerySet queries =
      drawQueries(evaluation.size(), evaluation.dim(), grid.queries, grid.seed);
  const int64_t m = grid.queries;
  const int64_t d = evaluation.dim();
  at::Tensor clean = batchOf(evaluation, queries.index, device);
  at::Tensor noise = at::from_blob(const_cast<double*>(queries.noise.data()), {m, d},
                                   at::TensorOptions().dtype(at::kDouble))
                         .to(at::kFloat)
                         .to(device)
                         .view(clean.sizes());

  std::vector<double> perQuery(static_cast<size_t>(grid.levels) * static_cast<size_t>(m));
  const int64_t batches = (m + options.batchSize - 1) / options.batchSize;
  const auto floats = at::TensorOptions().dtype(at::kFloat).device(device);
  for (int l = 0; l < grid.levels; ++l) {
    for (int64_t b = 0; b < batches; ++b) {
      progress.throwIfCancelled();
      const int64_t start = b * options.batchSize;
      const int64_t count = std::min(options.batchSize, m - start);
      at::Tensor x0 = clean.narrow(0, start, count);
      const double s = sigma[static_cast<size_t>(l)];
      at::Tensor y = x0 + noise.narrow(0, start, count) * s;
      at::Tensor estimate = model.denoise(y, at::full({count}, s, floats));
      at::Tensor error = (estimate - x0).to(at::kDouble).pow(2).view({count, -1}).sum(1).cpu();
      std::copy(error.data_ptr<double>(), error.data_ptr<double>() + count,
                perQuery.begin() + static_cast<size_t>(l) * m + start);
      progress.report(
          static_cast<double>(l * batches + b + 1) / static_cast<double>(grid.levels * batches),
          "σ level " + std::to_string(l + 1) + "/" + std::to_string(grid.levels));
    }
  }

  Profile profile;
  profile.kind = "checkpoint";
  profile.sigma = sigma;
  profile.dim = d;
  profile.datasetSize = evaluation.size();
  profile.sigmaData = measureSigmaData(evaluation);
  profile.queries = m;
  profile.estimates.push_back(summarizeEstimate(
      "x0_error",
      "mean over queries of |x_j - D(x_j + sigma eps_j; sigma)|^2 (upper bound on MMSE)", perQuery,
      grid.levels, m));
  profile.rates = computeRates(sigma, profile.primary());
  nlohmann::json parameters = {
      {"checkpoint", options.path},
      {"prediction", toString(options.prediction)},
      {"levels", grid.levels},
      {"sigma_min", grid.sigmaMin},
      {"sigma_max", grid.sigmaMax},
      {"queries", m},
      {"batch_size", options.batchSize},
      {"evaluation_set", options.evaluationSet},
      {"query_sampling",
       "j uniform over the evaluation set with replacement; the same (j, eps) at every sigma"},
  };
  profile.provenance = makeProvenance("noisescope checkpoint diagnostic", parameters);
  profile.provenance["dataset"] = describeDataset(evaluation);
  profile.provenance["seed"] = grid.seed;
  profile.provenance["device"] = describeDevice(device);
  profile.provenance["wall_seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return profile;
}

}  // namespace noisescope
