#include "train/trainer.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/provenance.h"
#include "io/run_events.h"
#include "io/schedule_io.h"
#include "schedule/families.h"
#include "tensor/communicator.h"
#include "tensor/device.h"
#include "train/checkpoint.h"
#include "train/dataset_tensor.h"
#include "train/feature_network.h"
#include "train/networks.h"
#include "train/run_directory.h"
#include "train/torchscript_export.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/file_seal.h"

namespace noisescope::train {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// SplitMix64 finaliser: decorrelates the per-step seeds of neighbouring steps and ranks.
uint64_t mixSeed(uint64_t seed, uint64_t rank, uint64_t step) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ULL ^ (rank + 1) * 0xBF58476D1CE4E5B9ULL ^
               (step + 1) * 0x94D049BB133111EBULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double unixTime() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

schedule::LossWeight lossWeightFor(const NoiseSettings& n, double sigmaData) {
  schedule::LossWeight w;
  w.kind = schedule::lossWeightKindFromString(n.lossWeight, "noise.loss_weight");
  w.sigmaData = sigmaData;
  w.gamma = n.minSnrGamma;
  return w;
}

}  // namespace

schedule::Schedule baseScheduleFor(const TrainConfig& config, double sigmaData, int bins) {
  const auto& n = config.noise;
  const auto grid = schedule::LogSigmaGrid::uniform(n.sigmaMin, n.sigmaMax, bins);
  if (isSchedulePreset(n.schedule)) {
    schedule::Schedule s = schedule::makePresetSchedule(n.schedule, grid, n.scheduleParams);
    s.lossWeight = lossWeightFor(n, sigmaData);
    return s;
  }
  schedule::Schedule s = readSchedule(n.schedule);
  if (s.sigmaMin() < n.sigmaMin * (1 - 1e-9) || s.sigmaMax() > n.sigmaMax * (1 + 1e-9)) {
    double lost = 0;
    s = s.truncated(n.sigmaMin, n.sigmaMax, &lost);
    if (lost > 0.5)
      throw InputError(n.schedule,
                       "more than half of the schedule lies outside [noise.sigma_min, "
                       "noise.sigma_max]");
  }
  // A schedule file is trained with its own loss weight: its π was made for that w (the
  // allocation it stands for is π·w). A config that names another weight is refused, never
  // silently overruled in either direction.
  const schedule::LossWeight& file = s.lossWeight;
  if (file.kind == schedule::LossWeight::Kind::Elbo)
    throw InputError(config.source,
                     "key 'noise.schedule': the schedule file '" + n.schedule +
                         "' carries the ELBO loss weight, which depends on π and cannot be a "
                         "training weight; write the schedule with another weight");
  const schedule::LossWeight named = lossWeightFor(n, sigmaData);
  const bool kindDiffers = n.lossWeightGiven && named.kind != file.kind;
  const bool gammaDiffers = n.minSnrGammaGiven && file.kind == schedule::LossWeight::Kind::MinSnr &&
                            std::abs(named.gamma - file.gamma) > 1e-9 * file.gamma;
  if (kindDiffers || gammaDiffers)
    throw InputError(config.source,
                     std::string("key '") +
                         (kindDiffers ? "noise.loss_weight" : "noise.min_snr_gamma") +
                         "': the schedule file '" + n.schedule + "' is made for the loss weight " +
                         file.label() + ", the config names " + named.label() +
                         "; a schedule file is trained with its own weight: leave the key out or "
                         "make it agree with the file ('" +
                         file.name() + "')");
  return s;
}

NoiseSampler resolveNoiseSampler(TrainConfig& config, bool discreteData, double sigmaData) {
  auto& n = config.noise;
  if (!n.gateC) n.gateC = schedule::defaults::autoGateC(discreteData);
  // AdaptiveSettings' fields in their order: the config's noise settings of the same names.
  const AdaptiveSettings a{n.warmupSteps, n.refreshEvery, n.statDecay, n.smoothingPasses,
                           n.minBinCount, *n.gateC,       n.gateN,     n.uniformMix};
  schedule::Schedule base = baseScheduleFor(config, sigmaData);
  const schedule::LossWeight weight = base.lossWeight;  // a schedule file's own
  return NoiseSampler(
      samplerKindFromString(n.sampler, config.source + ": key 'noise.sampler'"), std::move(base),
      schedule::LogSigmaGrid::uniform(n.sigmaMin, n.sigmaMax, int(n.bins)), weight, a);
}

struct Trainer::Impl {
  TrainConfig& config;
  TrainingData data;
  TrainerOptions options;
  int rank = 0, world = 1;
  c10::Device device{c10::kCPU};
  NetworkSpec spec;
  std::unique_ptr<Denoiser> model, ema;
  std::unique_ptr<torch::optim::Adam> adam;
  std::unique_ptr<NoiseSampler> sampler;
  std::unique_ptr<Evaluator> evaluator;
  RunDirectory run;
  at::Tensor trainData;  // [N, ...] on the device
  int64_t step = 0;      // optimizer steps done
  BinStatistics total, logWindow;
  double logLossSum = 0;
  int64_t logSteps = 0;
  Clock::time_point logStart;
  Clock::time_point runStart;
  json provenance;
  bool gateAuto = false;        // gate_c was "auto" and was resolved from the data
  bool weightFromFile = false;  // the loss weight is the schedule file's

  Impl(TrainConfig& c, TrainingData d, TrainerOptions o)
      : config(c), data(std::move(d)), options(std::move(o)), run(options.runDir) {}

  bool writer() const { return rank == 0; }

  RunEvent::LossWeight lossWeightRecord() const {
    const auto& w = sampler->lossWeight();
    return {w.name(), w.label(), weightFromFile ? "schedule file" : "config", w.sigmaData, w.gamma};
  }

  void event(json e) {
    if (!writer()) return;
    e["time"] = unixTime();
    try {
      run.appendEvent(e);
    } catch (const InputError& fault) {
      stopForFault(fault, false);
    }
  }

  // What a run that could not write says to whoever resumes it: the step it stopped at and the
  // checkpoint it will resume from.
  std::string stoppedText() const {
    const auto last = run.latestCheckpointStep();
    std::string text = "; the run stopped at step " + std::to_string(step);
    if (last)
      text += ", its last good checkpoint is " +
              std::filesystem::path(run.checkpointPath(*last)).filename().string() + " (step " +
              std::to_string(*last) + "), and `noisescope-cli train --out " + run.path() +
              "` resumes from it";
    else
      text += " before its first checkpoint";
    return text;
  }

  // A file of the run directory could not be written (full disk, I/O error): record that in
  // events.jsonl when the file that failed is not events.jsonl itself, and stop with an error
  // naming the file and the system error. The checkpoints already written stay as they were.
  [[noreturn]] void stopForFault(const InputError& fault, bool record) {
    std::string problem = fault.problem() + stoppedText();
    if (record) {
      json e{{"event", "error"},
             {"step", step},
             {"time", unixTime()},
             {"message", fault.source() + ": " + problem}};
      if (const auto last = run.latestCheckpointStep())
        e["last_checkpoint"] =
            "checkpoints/" + std::filesystem::path(run.checkpointPath(*last)).filename().string();
      try {
        run.appendEvent(e);
      } catch (const InputError& also) {
        problem += " (" + std::string(also.what()) + ", so this is not in events.jsonl)";
      }
    } else {
      problem += " (not recorded in events.jsonl, which is what failed)";
    }
    throw InputError(fault.source(), problem);
  }

  void note(const std::string& text) {
    if (options.note) options.note(text);
    event({{"event", "note"}, {"step", step}, {"message", text}});
  }

  // ------------------------------------------------------------------------------ setup

  void setup() {
    if (options.communicator) {
      rank = options.communicator->rank();
      world = options.communicator->worldSize();
    }
    try {
      device = resolveDevice(config.optim.device);
    } catch (const InputError& e) {
      throw InputError(config.source, "key 'optim.device': " + e.problem());
    }
    // Before any torch work: a run sharing the machine takes only its share of the cores, and
    // config.json and the start event say what it got.
    if (config.optim.threads > 0) initTorchThreads(static_cast<int>(config.optim.threads));
    config.optim.threads = at::get_num_threads();
    if (data.train.size() < 1 || data.test.size() < 1)
      throw InputError(config.source,
                       "key 'dataset.path': the training and held-out sets must "
                       "both hold samples");
    // Resolve the settings that depend on the data, so config.json says what was used.
    if (!(config.optim.sigmaData > 0)) config.optim.sigmaData = data.sigmaData;
    // gate_c "auto" picks c from the kind of data (THEORY §6); a number, 0 included (no gate),
    // is used as it is.
    gateAuto = !config.noise.gateC.has_value();
    const double sd = config.optim.sigmaData;
    // The static / warm-up schedule and the weight the run trains with (a schedule file's own).
    sampler = std::make_unique<NoiseSampler>(resolveNoiseSampler(config, data.discrete, sd));
    weightFromFile = !isSchedulePreset(config.noise.schedule);
    const schedule::LossWeight weight = sampler->lossWeight();
    config.noise.lossWeight = weight.name();
    if (weight.kind == schedule::LossWeight::Kind::MinSnr) config.noise.minSnrGamma = weight.gamma;

    spec = resolveNetworkSpec(config.model, data.train.sampleShape, data.train.kind, sd,
                              config.source);
    config.model.kind = spec.kind;
    torch::manual_seed(config.optim.seed);
    model = std::make_unique<Denoiser>(spec, device);
    ema = std::make_unique<Denoiser>(spec, device);
    ema->copyParametersFrom(*model);
    ema->setTraining(false);
    const auto& o = config.optim;
    adam = std::make_unique<torch::optim::Adam>(
        model->parameters(), torch::optim::AdamOptions(o.lr).betas({o.beta1, o.beta2}).eps(o.eps));

    const auto& n = config.noise;
    total = BinStatistics(int(n.bins));
    logWindow = BinStatistics(int(n.bins));
    trainData = datasetTensor(data.train).to(device);
    if (writer())
      evaluator = std::make_unique<Evaluator>(data.test, config.eval, n.sigmaMin, n.sigmaMax, sd,
                                              config.optim.seed, device, data.discrete);
    json params = toJson(config);
    params["dataset"]["train"] = describeDataset(data.train);
    params["dataset"]["test"] = describeDataset(data.test);
    provenance = makeProvenance("noisescope-cli train", params);
  }

  // ------------------------------------------------------------------------------ checkpoints

  json meta() const {
    json m;
    m["format"] = kCheckpointFormat;
    m["step"] = step;
    m["network"] = toJson(spec);
    std::vector<std::string> names;
    for (const auto& [name, p] : model->namedParameters()) names.push_back(name);
    m["parameter_names"] = names;
    m["config"] = toJson(config);
    m["sampler"] = sampler->state();
    m["total_statistics"] = {{"error_sum", total.errorSum}, {"count", total.count}};
    m["random"] = {{"scheme", "per-step generator seeded with splitmix(seed, rank, step)"},
                   {"seed", config.optim.seed}};
    m["world_size"] = world;
    m["provenance"] = provenance;
    return m;
  }

  std::string checkpointBytes() const {
    torch::serialize::OutputArchive archive;
    archive.write("meta", c10::IValue(meta().dump()));
    torch::serialize::OutputArchive modelGroup, emaGroup, optimGroup;
    const auto mp = model->parameters(), ep = ema->parameters();
    for (size_t i = 0; i < mp.size(); ++i) {
      modelGroup.write(checkpointParameterKey(i), mp[i].detach().to(torch::kCPU));
      emaGroup.write(checkpointParameterKey(i), ep[i].detach().to(torch::kCPU));
    }
    adam->save(optimGroup);
    archive.write("model", modelGroup);
    archive.write("ema", emaGroup);
    archive.write("optimizer", optimGroup);
    std::ostringstream out;
    archive.save_to(out);
    return out.str();
  }

  void restore(const std::string& bytes, const std::string& source) {
    try {
      torch::serialize::InputArchive archive;
      archive.load_from(bytes.data(), bytes.size(), device);
      c10::IValue metaValue;
      if (!archive.try_read("meta", metaValue) || !metaValue.isString())
        throw InputError(source, "not a NoiseScope training checkpoint");
      const json m = json::parse(metaValue.toStringRef());
      if (m.value("format", "") != kCheckpointFormat)
        throw InputError(source, "unknown checkpoint format");
      if (m.at("network") != toJson(spec))
        throw InputError(source,
                         "the checkpoint's network differs from the one this config "
                         "builds; resume with the run's own config.json");
      torch::NoGradGuard noGrad;
      torch::serialize::InputArchive modelGroup, emaGroup, optimGroup;
      archive.read("model", modelGroup);
      archive.read("ema", emaGroup);
      archive.read("optimizer", optimGroup);
      const auto mp = model->parameters(), ep = ema->parameters();
      for (size_t i = 0; i < mp.size(); ++i) {
        at::Tensor a, b;
        modelGroup.read(checkpointParameterKey(i), a);
        emaGroup.read(checkpointParameterKey(i), b);
        if (!a.sizes().equals(mp[i].sizes()) || !b.sizes().equals(ep[i].sizes()))
          throw InputError(source, "parameter shapes differ from the network's");
        mp[i].copy_(a);
        ep[i].copy_(b);
      }
      adam->load(optimGroup);
      sampler->restoreState(m.at("sampler"), source);
      total.errorSum = m.at("total_statistics").at("error_sum").get<std::vector<double>>();
      total.count = m.at("total_statistics").at("count").get<std::vector<double>>();
      if (total.bins() != sampler->grid().bins())
        throw InputError(source, "statistics have the wrong number of bins");
      step = m.at("step").get<int64_t>();
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {
      throw InputError(source, std::string("cannot resume from the checkpoint: ") + e.what());
    }
  }

  // Every rank must start from identical weights, optimizer and sampler state: rank 0's.
  void shareState(std::string& bytes) {
    if (world == 1) return;
    auto length = torch::tensor({int64_t(bytes.size())}, torch::kLong);
    options.communicator->broadcast(length, 0);
    auto buffer = torch::zeros({length.item<int64_t>()}, torch::kUInt8);
    if (rank == 0) std::memcpy(buffer.data_ptr(), bytes.data(), bytes.size());
    options.communicator->broadcast(buffer, 0);
    if (rank != 0)
      bytes.assign(static_cast<const char*>(buffer.data_ptr()), size_t(buffer.numel()));
  }

  void writeCheckpoint() {
    if (!writer()) return;
    RunEvent e = newEvent(RunEvent::Kind::Checkpoint, step);
    e.path = "checkpoints/" + std::filesystem::path(run.checkpointPath(step)).filename().string();
    try {
      run.create();
      writeFileAtomically(run.checkpointPath(step), sealBytes(checkpointBytes()));
      if (config.checkpoint.exportTorchScript) {
        exportTorchScriptDenoiser(*ema, run.exportPath(step));
        e.exportPath =
            "checkpoints/" + std::filesystem::path(run.exportPath(step)).filename().string();
      }
      writeSchedule(run.schedulesDir() + "/latest.schedule.json", sampler->current(),
                    makeProvenance("noisescope-cli train", {{"run", run.path()}, {"step", step}}));
    } catch (const InputError& fault) {
      // A checkpoint is whole only with every file of it; without them it is not one, and the
      // previous checkpoint stays the last good one.
      std::error_code ec;
      std::filesystem::remove(run.checkpointPath(step), ec);
      std::filesystem::remove(run.exportPath(step), ec);
      stopForFault(fault, true);
    }
    run.pruneCheckpoints(config.checkpoint.keep);
    event(e);
  }

  // ------------------------------------------------------------------------------ events

  // Every event is a RunEvent written by the one writer of the schema (io/run_events.h).
  static RunEvent newEvent(RunEvent::Kind kind, int64_t atStep) {
    RunEvent e;
    e.kind = kind;
    e.step = atStep;
    return e;
  }
  void event(const RunEvent& e) { event(runEventJson(e)); }

  RunEvent scheduleEvent(bool refreshed) const {
    RunEvent e = newEvent(RunEvent::Kind::Schedule, step);
    e.sampler = toString(sampler->kind());
    e.refresh = sampler->refreshCount();
    const auto& grid = sampler->grid();
    e.logSigmaEdges = grid.edges;
    e.sigma = grid.sigmaCenters();
    if (refreshed) {
      const auto& r = sampler->lastRefresh();
      e.mhat = r.mhat;
      e.rho = r.rho;
      e.pi = r.pi;
      e.cdfChange = r.cdfChange;
    } else {
      e.pi = sampler->current().massesOn(grid);
    }
    return e;
  }

  void evaluationEvent(TrainSummary& summary) {
    if (!writer()) return;
    model->setTraining(false);
    const Denoiser& net = *ema;
    summary.lastEvaluation = evaluator->evaluate(
        [&net](const at::Tensor& x, const at::Tensor& s) { return net.forward(x, s); });
    model->setTraining(true);
    const auto& r = summary.lastEvaluation;
    RunEvent e = newEvent(RunEvent::Kind::Eval, step);
    e.sigma = r.sigmas;
    e.error = r.error;
    e.elbo = r.elbo;
    e.edm = r.edm;
    e.quality = r.quality;
    e.reference = config.eval.reference;
    e.swd = r.swd;
    e.qualitySamples = r.qualitySamples;
    e.heunSteps = r.heunSteps;
    e.fd = r.fd;
    e.kmerJs = r.kmerJs;
    if (const FeatureNetwork* f = evaluator->featureNetwork()) {
      e.featureNetwork = f->info().path;
      e.featureAccuracy = f->info().testAccuracy;
    }
    event(e);
  }

  void trainEvent(double lr) {
    const double seconds = std::chrono::duration<double>(Clock::now() - logStart).count();
    const double samples = double(logSteps) * double(config.optim.batchSize) * double(world);
    RunEvent e = newEvent(RunEvent::Kind::Train, step);
    e.loss = logLossSum / double(std::max<int64_t>(logSteps, 1));
    e.lr = lr;
    e.samplesPerSecond = seconds > 0 ? samples / seconds : 0.0;
    e.stepsPerSecond = seconds > 0 ? double(logSteps) / seconds : 0.0;
    e.binError = logWindow.means(std::numeric_limits<double>::quiet_NaN());  // null when empty
    e.binCount = logWindow.count;
    event(e);
    logWindow.clear();
    logLossSum = 0;
    logSteps = 0;
    logStart = Clock::now();
  }

  // ------------------------------------------------------------------------------ one step

  // One step's draws, seeded by (seed, rank, step): data rows, σ by the sampler's inverse CDF of
  // uniforms, their loss weights and bins, and the noisy inputs.
  struct NoisyBatch {
    at::Tensor x0, y, sigma, weight, bin;
  };

  NoisyBatch drawBatch() {
    const int64_t batch = config.optim.batchSize;
    auto gen =
        at::detail::createCPUGenerator(mixSeed(config.optim.seed, uint64_t(rank), uint64_t(step)));
    const auto rows = torch::randint(trainData.size(0), {batch}, gen, torch::kLong);
    const auto uniforms = torch::rand({batch}, gen, torch::kDouble);
    std::vector<int64_t> shape{batch};
    shape.insert(shape.end(), spec.sampleShape.begin(), spec.sampleShape.end());
    const auto noise = torch::randn(shape, gen, torch::kFloat).to(device);

    std::vector<double> sigmas(batch), weights(batch);
    std::vector<int64_t> bins(batch);
    const double* u = uniforms.data_ptr<double>();
    const auto& weight = sampler->lossWeight();
    for (int64_t i = 0; i < batch; ++i) {
      sigmas[i] = sampler->sigmaFromUniform(u[i]);
      weights[i] = weight.at(sigmas[i]);
      bins[i] = sampler->binOf(sigmas[i]);
    }
    NoisyBatch b;
    b.sigma = torch::tensor(sigmas, torch::kDouble).to(torch::kFloat).to(device);
    b.weight = torch::tensor(weights, torch::kDouble).to(torch::kFloat).to(device);
    b.bin = torch::tensor(bins, torch::kLong).to(device);
    b.x0 = trainData.index_select(0, rows.to(device));
    std::vector<int64_t> view(b.x0.dim(), 1);
    view[0] = batch;
    b.y = b.x0 + b.sigma.view(view) * noise;
    return b;
  }

  // Sums each sample's unweighted error into its σ bin: the sampler's statistics.
  static std::pair<at::Tensor, at::Tensor> binTotals(const at::Tensor& err, const at::Tensor& bin,
                                                     int bins) {
    const auto e = err.detach();
    auto sum = torch::zeros({bins}, e.options()).index_add_(0, bin, e);
    auto count = torch::zeros({bins}, e.options()).index_add_(0, bin, torch::ones_like(e));
    return {sum, count};
  }

  // Across ranks in one collective: the gradients averaged, the bin totals summed, and the mean
  // loss returned (this rank's loss when alone).
  double reduceAcrossRanks(std::vector<at::Tensor>& params, at::Tensor& binSum,
                           at::Tensor& binCount, const at::Tensor& loss) {
    if (world <= 1) return loss.item<double>();
    const int64_t bins = binSum.numel();
    std::vector<at::Tensor> pieces;
    for (auto& p : params) pieces.push_back(p.grad().flatten());
    pieces.push_back(binSum);
    pieces.push_back(binCount);
    pieces.push_back(loss.detach().reshape({1}));
    auto flat = torch::cat(pieces);
    options.communicator->allReduceSum(flat);
    int64_t offset = 0;
    for (auto& p : params) {
      const int64_t n = p.numel();
      p.mutable_grad().copy_(flat.narrow(0, offset, n).view_as(p).div(double(world)));
      offset += n;
    }
    binSum = flat.narrow(0, offset, bins);
    binCount = flat.narrow(0, offset + bins, bins);
    return flat[offset + 2 * bins].item<double>() / double(world);
  }

  void optimiserStep(std::vector<at::Tensor>& params, double lr) {
    if (config.optim.gradClip > 0) torch::nn::utils::clip_grad_norm_(params, config.optim.gradClip);
    for (auto& group : adam->param_groups())
      static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
    adam->step();
  }

  // EMA with the usual early ramp so that the first steps are not frozen at initialisation.
  void updateEma(const std::vector<at::Tensor>& params) {
    torch::NoGradGuard noGrad;
    const double decay =
        std::min(config.optim.emaDecay, (1.0 + double(step)) / (10.0 + double(step)));
    const auto ep = ema->parameters();
    for (size_t i = 0; i < params.size(); ++i)
      ep[i].mul_(decay).add_(params[i].detach(), 1 - decay);
  }

  // The step's bin totals to the online sampler, the run's totals and the log window.
  void recordBins(const at::Tensor& binSum, const at::Tensor& binCount, int bins) {
    BinStatistics stats(bins);
    const auto sumHost = binSum.to(torch::kCPU, torch::kDouble).contiguous();
    const auto countHost = binCount.to(torch::kCPU, torch::kDouble).contiguous();
    std::copy(sumHost.data_ptr<double>(), sumHost.data_ptr<double>() + bins,
              stats.errorSum.begin());
    std::copy(countHost.data_ptr<double>(), countHost.data_ptr<double>() + bins,
              stats.count.begin());
    sampler->record(stats);
    total.add(stats);
    logWindow.add(stats);
  }

  void trainStep(double lr) {
    const int bins = sampler->grid().bins();
    const NoisyBatch b = drawBatch();
    const auto d = model->forward(b.y, b.sigma);
    const auto err = (d - b.x0).pow(2).flatten(1).sum(1);  // unweighted, summed over dimensions
    const auto loss = (b.weight * err).mean() / double(b.x0[0].numel());
    adam->zero_grad();
    loss.backward();

    auto [binSum, binCount] = binTotals(err, b.bin, bins);
    auto params = model->parameters();
    logLossSum += reduceAcrossRanks(params, binSum, binCount, loss);
    optimiserStep(params, lr);
    updateEma(params);
    recordBins(binSum, binCount, bins);
    ++logSteps;
    ++step;
  }

  double learningRate() const {
    const auto& o = config.optim;
    if (o.lrWarmupSteps <= 0) return o.lr;
    return o.lr * std::min(1.0, double(step + 1) / double(o.lrWarmupSteps));
  }

  // ------------------------------------------------------------------------------ the run

  TrainSummary runAll() {
    TrainSummary summary;
    runStart = Clock::now();
    const auto latest = run.latestCheckpointStep();
    if (writer() && options.requireResume && !latest)
      throw InputError(run.path(), "--resume was given but the run directory has no checkpoint");
    std::string state;
    bool resumed = false;
    std::vector<std::string> notes;  // damaged checkpoints and torn event lines skipped
    if (writer()) {
      const auto good = latest ? run.newestGoodCheckpoint(notes) : std::nullopt;
      if (latest && !good) {
        std::string all;
        for (const std::string& n : notes) all += "\n  " + n;
        throw InputError(run.path(),
                         "every checkpoint is damaged, none is loaded; move checkpoints/ away "
                         "to train this directory afresh:" +
                             all);
      }
      if (good) {
        state = good->bytes;
        restore(state, run.checkpointPath(good->step));
        resumed = true;
      } else {
        state = checkpointBytes();
      }
    }
    if (world > 1) {
      auto flag = torch::tensor({int64_t(resumed ? 1 : 0)}, torch::kLong);
      options.communicator->broadcast(flag, 0);
      resumed = flag.item<int64_t>() != 0;
      shareState(state);
      if (rank != 0) restore(state, "checkpoint broadcast from rank 0");
    }
    summary.startStep = step;

    if (writer()) {
      run.create();
      if (resumed) {
        for (std::string& n : run.truncateEventsAfter(step)) notes.push_back(std::move(n));
      } else {
        writeFileAtomically(run.eventsPath(), "");
      }
      json cfg = toJson(config);
      cfg["provenance"] = provenance;
      run.writeJson(run.configPath(), cfg);
      RunEvent start = newEvent(resumed ? RunEvent::Kind::Resume : RunEvent::Kind::Start, step);
      start.steps = config.optim.steps;
      start.worldSize = world;
      start.device = describeDevice(device);
      start.threads = config.optim.threads;
      start.network = toJson(spec);
      start.parameters = model->parameterCount();
      start.sigmaData = config.optim.sigmaData;
      start.discrete = data.discrete;
      start.trainSamples = data.train.size();
      start.testSamples = data.test.size();
      start.test = data.testDescription;
      start.bins = config.noise.bins;
      start.gateC = *config.noise.gateC;
      start.gate = gateAuto ? "auto" : *config.noise.gateC > 0 ? "set" : "off";
      start.lossWeight = lossWeightRecord();
      event(start);
      for (const std::string& n : notes) note(n);
      if (!resumed) event(scheduleEvent(false));
    }

    model->setTraining(true);
    logStart = Clock::now();
    const auto& progress = options.progress;
    while (step < config.optim.steps) {
      progress.throwIfCancelled();
      const double lr = learningRate();
      trainStep(lr);
      if (sampler->maybeRefresh(step) && writer()) event(scheduleEvent(true));
      if (step % config.logEvery == 0 || step == config.optim.steps) trainEvent(lr);
      if (config.eval.every > 0 && step % config.eval.every == 0 && step < config.optim.steps)
        evaluationEvent(summary);
      if (step % config.checkpoint.every == 0 && step < config.optim.steps) writeCheckpoint();
      progress.report(double(step) / double(config.optim.steps),
                      "step " + std::to_string(step) + "/" + std::to_string(config.optim.steps));
      if (options.stopAfterStep >= 0 && step >= options.stopAfterStep) {
        summary.step = step;
        return summary;
      }
    }
    evaluationEvent(summary);
    writeCheckpoint();
    if (writer()) {
      summary.lastCheckpoint = run.checkpointPath(step);
      summary.scheduleFile = run.schedulesDir() + "/final.schedule.json";
      try {
        writeSchedule(
            summary.scheduleFile, sampler->current(),
            makeProvenance("noisescope-cli train", {{"run", run.path()}, {"step", step}}));
      } catch (const InputError& fault) {
        stopForFault(fault, true);
      }
      RunEvent end = newEvent(RunEvent::Kind::End, step);
      end.seconds = std::chrono::duration<double>(Clock::now() - runStart).count();
      event(end);
    }
    summary.step = step;
    return summary;
  }
};

Trainer::Trainer(TrainConfig config, TrainingData data, TrainerOptions options)
    : config_(std::move(config)),
      impl_(std::make_unique<Impl>(config_, std::move(data), std::move(options))) {
  impl_->setup();
}

Trainer::~Trainer() = default;

TrainSummary Trainer::run() {
  return impl_->runAll();
}

const NoiseSampler& Trainer::sampler() const {
  return *impl_->sampler;
}

std::vector<std::pair<std::string, at::Tensor>> Trainer::modelParameters() const {
  return impl_->model->namedParameters();
}

std::vector<std::pair<std::string, at::Tensor>> Trainer::emaParameters() const {
  return impl_->ema->namedParameters();
}

const BinStatistics& Trainer::totalStatistics() const {
  return impl_->total;
}

}  // namespace noisescope::train
