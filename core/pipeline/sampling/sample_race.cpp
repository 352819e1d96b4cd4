#include "pipeline/sampling/sample_race.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "pipeline/diagnose/run_profile.h"
#include "pipeline/internal/quality_floor.h"
#include "pipeline/sampling/sample_race_plan.h"
#include "tensor/device.h"
#include "tensor/torchscript_model.h"
#include "train/dataset_tensor.h"
#include "train/evaluation.h"
#include "train/feature_network.h"
#include "train/run_directory.h"
#include "train/sample_quality.h"
#include "train/train_config.h"
#include "train/training_data.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::pipeline {
namespace {

at::Tensor gaussian(std::vector<int64_t> shape, int64_t rows, uint64_t seed) {
  shape.insert(shape.begin(), rows);
  auto gen = at::detail::createCPUGenerator(seed);
  return at::randn(shape, gen, at::kFloat);
}

void checkGridSigmas(const RaceGrid& grid, int64_t steps, const std::vector<double>& s) {
  bool ok = int64_t(s.size()) == steps;
  for (size_t i = 0; ok && i < s.size(); ++i)
    ok = std::isfinite(s[i]) && s[i] > 0 && (i == 0 || s[i] <= s[i - 1]);
  if (!ok)
    throw InputError("grid " + grid.name,
                     "does not give " + std::to_string(steps) + " descending positive σ steps");
}

}  // namespace

SampleRaceOptions SampleRaceOptions::quick() {
  SampleRaceOptions o;
  o.gridSet = "quick";
  o.nfe = {8, 16};
  o.seeds = {1, 2};
  o.samples = 128;
  o.floorRepeats = 2;
  o.elbo = false;
  return o;
}

std::string sampleRaceSettingsText(const SampleRaceOptions& o) {
  std::string text = "NFE";
  for (int64_t n : o.nfe) text += " " + std::to_string(n);
  text += " · seeds";
  for (uint64_t s : o.seeds) text += " " + std::to_string(s);
  text += " · " +
          (o.samples > 0 ? std::to_string(o.samples) : "the config's eval.quality_samples") +
          " samples per cell · " + std::to_string(o.floorRepeats) + " floor draws · " +
          (o.elbo ? "with" : "no") + " ELBO";
  return text;
}

std::vector<std::string> defaultGridsOf(const SampleRaceOptions& o,
                                        const RaceGridContext& context) {
  if (o.gridSet == "full") return defaultRaceGridSpecs(context);
  if (o.gridSet == "quick") return quickRaceGridSpecs(context);
  // Set by a face, never typed: a wrong name is a bug.
  throw std::invalid_argument("grid set \"" + o.gridSet + "\" is neither \"full\" nor \"quick\"");
}

SampleRaceResult runSampleRace(const SampleRaceOptions& o, const Progress& progress,
                               const SampleRaceObserver& onCell) {
  if (o.nfe.empty() || o.seeds.empty())
    throw InputError("sample-race", "needs at least one NFE and one seed");
  for (int64_t n : o.nfe)
    if (n < 1)
      throw InputError(settings::kNfe, "every NFE must be at least 1, not " + std::to_string(n));
  const SampleRacePlan plan = planSampleRace(o);
  const std::string& modelPath = plan.model;
  const std::string& configPath = plan.config;
  const train::TrainConfig config = train::readTrainConfig(configPath);
  const c10::Device device = resolveDevice(o.device);
  TorchScriptDenoiser model(modelPath, Prediction::X0, device);
  const train::DenoiseFunction denoise = [&model](const at::Tensor& x, const at::Tensor& s) {
    return model.denoise(x, s);
  };
  const train::TrainingData data = train::loadTrainingData(config, progress.sub(0.0, 0.02));
  const std::string featurePath =
      o.featureNetwork.empty() ? config.eval.featureNetwork : o.featureNetwork;
  std::unique_ptr<train::FeatureNetwork> features;
  if (!featurePath.empty()) {
    features = std::make_unique<train::FeatureNetwork>(featurePath);
    if (features->info().sampleShape != data.test.sampleShape)
      throw InputError(featurePath, "the feature network was trained on other shapes than " +
                                        data.test.shapeString());
  }

  SampleRaceResult r;
  r.model = modelPath;
  r.source = plan.source;
  r.sampler = toString(plan.sampler);
  r.samples = o.samples > 0 ? o.samples : config.eval.qualitySamples;
  r.reference = data.test.size();
  r.test = data.testDescription;
  r.seeds = o.seeds;
  r.nfe = o.nfe;
  if (features) {
    r.featureNetwork = featurePath;
    r.featureAccuracy = features->info().testAccuracy;
  }
  const std::vector<RaceGrid> grids = raceGrids(plan.grids, plan.context);
  for (const auto& g : grids) r.grids.push_back({g.name, g.rule});

  // The floor first: it also fails early for data that no measure can score.
  progress.report(0.02, "floor: real against real");
  const QualityFloor floor =
      qualityFloor(data, features.get(), r.samples, o.floorRepeats, defaultFloorSeed(config));
  if (!floor.fd.empty()) r.floor["fd"] = floor.fd;
  if (!floor.kmerJs.empty()) r.floor["kmer_js"] = floor.kmerJs;
  r.floorCount = floor.count;

  const int64_t elboRows = o.elbo ? std::min(config.eval.samples, data.test.size()) : 0;
  r.elboSamples = elboRows;
  const at::Tensor elboX0 =
      elboRows > 0 ? train::datasetTensor(data.test, elboRows).to(device) : at::Tensor();

  // Work in denoiser evaluations, for a progress bar that moves evenly. Budget by budget, so
  // every grid's cheapest cell is shown first.
  std::vector<SampleRaceCell> cells;
  double total = 0;
  for (int64_t n : o.nfe)
    for (const auto& g : grids) {
      SampleRaceCell c;
      c.grid = g.name;
      c.nfe = n;
      c.steps = schedule::stepsForEvaluations(plan.sampler, n);
      if (c.steps < 2)
        throw InputError(settings::kNfe, "NFE " + std::to_string(n) + " leaves the " + r.sampler +
                                             " sampler fewer than 2 σ steps");
      c.evaluations = schedule::samplerEvaluations(plan.sampler, c.steps);
      c.sigma = g.sigmas(c.steps);
      checkGridSigmas(g, c.steps, c.sigma);
      c.sigma.push_back(0.0);
      total += double(c.evaluations + (elboRows > 0 ? c.steps : 0)) * double(o.seeds.size());
      cells.push_back(std::move(c));
    }
  const Progress work = progress.sub(0.05, 1.0);
  double done = 0;
  r.provenance = {{"config", configPath},
                  {"device", describeDevice(device)},
                  {"floor_seed", floor.seed},
                  {"floor_repeats", o.floorRepeats},
                  {"sigma_min", config.noise.sigmaMin},
                  {"sigma_max", config.noise.sigmaMax}};
  r.state = SampleRaceState::Running;
  if (onCell) onCell(r);  // the grids and the floor, before any cell
  for (auto& c : cells) {
    // A seed's start (and ELBO) noise is drawn again for every cell: the same draws, so grids
    // stay paired by seed.
    for (const uint64_t seed : o.seeds) {
      const at::Tensor start = gaussian(data.test.sampleShape, r.samples, seed).to(device);
      const std::string what =
          c.grid + ", NFE " + std::to_string(c.nfe) + ", seed " + std::to_string(seed);
      const double span = double(c.evaluations) / total;
      const Progress step = work.sub(done / total, done / total + span);
      step.report(0.0, what);
      const at::Tensor samples =
          train::sampleWith(plan.sampler, denoise, start, c.sigma, seed ^ 0xa11ce57ULL, step);
      const auto q =
          train::scoreSamples(samples.to(at::kCPU), data.test, data.discrete, features.get());
      if (!std::isnan(q.fd)) c.values["fd"].push_back(q.fd);
      if (!std::isnan(q.kmerJs)) c.values["kmer_js"].push_back(q.kmerJs);
      done += double(c.evaluations);
      if (elboRows > 0) {
        progress.throwIfCancelled();
        const at::Tensor elboNoise =
            gaussian(data.test.sampleShape, elboRows, seed ^ 0xe1b0ULL).to(device);
        double elbo = train::gridElbo(denoise, elboX0, elboNoise, c.sigma);
        // Discrete data: the end terms at the grid's own ends, so grids that end elsewhere
        // compare as bounds on the same −log p.
        if (data.discrete)
          elbo += train::discreteElboEnds(elboX0, elboNoise, c.sigma[c.steps - 1], c.sigma[0]);
        c.values["elbo"].push_back(elbo);
        done += double(c.steps);
      }
    }
    r.cells.push_back(c);
    if (onCell) onCell(r);
  }
  r.state = SampleRaceState::Complete;
  progress.report(1.0, "done");
  return r;
}

render::ChartSpec sampleRaceChart(const SampleRaceResult& r, const std::string& measure) {
  render::ChartSpec chart;
  chart.title = "Sample race: " + measure + " against NFE (" + r.sampler + ", " +
                std::to_string(r.seeds.size()) + " seeds, 95 % t bands)";
  chart.xLabel = "denoiser evaluations (NFE budget)";
  chart.yLabel = measure;
  chart.logX = true;
  for (const auto& g : r.grids) {
    render::ChartSeries s;
    s.label = g.name;
    for (int64_t n : r.nfe) {
      const auto* c = r.cell(g.name, n);
      if (!c || !c->values.count(measure)) continue;
      const MeanInterval m = meanInterval(c->values.at(measure));
      const double h = std::isnan(m.halfWidth) ? 0.0 : m.halfWidth;
      s.x.push_back(double(n));
      s.y.push_back(m.mean);
      s.low.push_back(m.mean - h);
      s.high.push_back(m.mean + h);
    }
    if (!s.x.empty()) chart.series.push_back(std::move(s));
  }
  if (r.floor.count(measure) && !r.nfe.empty()) {
    const double f = meanInterval(r.floor.at(measure)).mean;
    render::ChartSeries s;
    s.label = "floor (real vs held-out)";
    s.dashed = true;
    s.x = {double(*std::min_element(r.nfe.begin(), r.nfe.end())),
           double(*std::max_element(r.nfe.begin(), r.nfe.end()))};
    s.y = {f, f};
    chart.series.push_back(std::move(s));
  }
  return chart;
}

std::string sampleRaceText(const SampleRaceResult& result) {
  return sampleRaceTable(result);
}

void writeSampleRaceJson(const std::string& path, const SampleRaceResult& result) {
  writeSampleRace(path, result);
}

void writeSampleRaceChart(const std::string& path, const SampleRaceResult& result,
                          const std::string& measure) {
  render::writeChart(path, sampleRaceChart(result, measure));
}

}  // namespace noisescope::pipeline
