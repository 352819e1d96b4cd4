#include "train/train_config.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/formats/latent_spaces.h"
#include "schedule/families.h"
#include "util/error.h"

namespace noisescope::train {
namespace {

using nlohmann::json;

// Reads the keys of one JSON object, checking type and range, and remembers which keys it saw so
// that finish() can reject every key nobody asked for (a misspelt setting must not be ignored).
class Section {
 public:
  Section(const json& object, std::string prefix, const std::string& source)
      : object_(object), prefix_(std::move(prefix)), source_(source) {
    if (!object_.is_object())
      throw InputError(source_, "key '" + prefix_ + "': expected an object, got " +
                                    std::string(object_.type_name()));
  }

  void number(const char* key, double& out, double lo, double hi, bool openLow = false) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_number()) fail(key, "expected a number, got " + std::string(v->type_name()));
    const double x = v->get<double>();
    if (!std::isfinite(x) || x < lo || x > hi || (openLow && x == lo))
      fail(key, "value " + v->dump() + " is out of range " + (openLow ? "(" : "[") + fmt(lo) +
                    ", " + fmt(hi) + "]");
    out = x;
  }

  void integer(const char* key, int64_t& out, int64_t lo, int64_t hi) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_number_integer())
      fail(key,
           "expected an integer, got " + std::string(v->is_number() ? v->dump() : v->type_name()));
    if (v->is_number_unsigned() && v->get<uint64_t>() > static_cast<uint64_t>(hi))
      fail(key, "value " + v->dump() + " is out of range [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "]");
    const int64_t x = v->get<int64_t>();
    if (x < lo || x > hi)
      fail(key, "value " + v->dump() + " is out of range [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "]");
    out = x;
  }

  void seed(const char* key, uint64_t& out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_number_integer() ||
        (v->is_number_integer() && !v->is_number_unsigned() && v->get<int64_t>() < 0))
      fail(key, "expected a non-negative integer, got " + v->dump());
    out = v->get<uint64_t>();
  }

  void boolean(const char* key, bool& out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_boolean()) fail(key, "expected true or false, got " + v->dump());
    out = v->get<bool>();
  }

  void text(const char* key, std::string& out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_string()) fail(key, "expected a string, got " + std::string(v->type_name()));
    out = v->get<std::string>();
  }

  void choice(const char* key, std::string& out, const std::vector<std::string>& allowed) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_string()) fail(key, "expected a string, got " + std::string(v->type_name()));
    const std::string s = v->get<std::string>();
    for (const auto& a : allowed)
      if (a == s) {
        out = s;
        return;
      }
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    fail(key, "'" + s + "' is not one of: " + list);
  }

  // A number in [lo, hi] or the word `word` (→ empty).
  void numberOrWord(const char* key, std::optional<double>& out, const char* word, double lo,
                    double hi) {
    const json* v = find(key);
    if (!v) return;
    if (v->is_string()) {
      if (v->get<std::string>() != word)
        fail(key, "expected a number or \"" + std::string(word) + "\", got " + v->dump());
      out.reset();
      return;
    }
    if (!v->is_number())
      fail(key, "expected a number or \"" + std::string(word) + "\", got " +
                    std::string(v->type_name()));
    const double x = v->get<double>();
    if (!std::isfinite(x) || x < lo || x > hi)
      fail(key, "value " + v->dump() + " is out of range [" + fmt(lo) + ", " + fmt(hi) + "]");
    out = x;
  }

  // True when the object holds `key` with a non-null value.
  bool given(const char* key) const {
    const auto it = object_.find(key);
    return it != object_.end() && !it->is_null();
  }

  void numberMap(const char* key, std::map<std::string, double>& out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_object()) fail(key, "expected an object of numbers");
    for (auto it = v->begin(); it != v->end(); ++it) {
      if (!it->is_number()) fail(std::string(key) + "." + it.key(), "expected a number");
      out[it.key()] = it->get<double>();
    }
  }

  // A nested object (absent: an empty one, so defaults apply).
  Section sub(const char* key) {
    const json* v = find(key);
    static const json empty = json::object();
    return Section(v ? *v : empty, name(key), source_);
  }

  void allow(const char* key) { seen_.insert(key); }

  void finish() const {
    for (auto it = object_.begin(); it != object_.end(); ++it)
      if (!seen_.count(it.key()))
        throw InputError(source_, "key '" + name(it.key()) + "' is not a known setting");
  }

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw InputError(source_, "key '" + name(key) + "': " + problem);
  }

  std::string name(const std::string& key) const {
    return prefix_.empty() ? key : prefix_ + "." + key;
  }

 private:
  const json* find(const char* key) {
    seen_.insert(key);
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return nullptr;
    return &*it;
  }
  static std::string fmt(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  }

  const json& object_;
  std::string prefix_;
  const std::string& source_;
  std::set<std::string> seen_;
};

constexpr int64_t kBig = std::numeric_limits<int32_t>::max();
// More threads than any machine NoiseScope runs on has cores: surely a typo.
constexpr int64_t kMaxThreads = 4096;

std::string resolvePath(const std::string& path, const std::string& baseDir) {
  if (path.empty() || baseDir.empty() || path.rfind("synthetic:", 0) == 0) return path;
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(baseDir) / p).lexically_normal().string();
}

// The `noise` section: read by parseTrainConfig and, on its own, by parseNoiseSettings.
void readNoise(Section& s, NoiseSettings& n, const std::string& source,
               const std::string& baseDir) {
  s.choice("sampler", n.sampler, samplerKindNames());
  s.text("schedule", n.schedule);
  s.numberMap("schedule_params", n.scheduleParams);
  s.number("sigma_min", n.sigmaMin, 0.0, 1e6, true);
  s.number("sigma_max", n.sigmaMax, 0.0, 1e6, true);
  s.choice("loss_weight", n.lossWeight, {"edm", "uniform", "epsilon", "v", "min-snr", "flow-v"});
  s.number("min_snr_gamma", n.minSnrGamma, 0.0, 1e9, true);
  n.lossWeightGiven = s.given("loss_weight");
  n.minSnrGammaGiven = s.given("min_snr_gamma");
  s.integer("bins", n.bins, 2, 4096);
  s.integer("warmup_steps", n.warmupSteps, 0, kBig);
  s.integer("refresh_every", n.refreshEvery, 1, kBig);
  s.number("stat_decay", n.statDecay, 0.0, 0.999999);
  s.integer("smoothing_passes", n.smoothingPasses, 0, 64);
  s.integer("min_bin_count", n.minBinCount, 1, kBig);
  s.numberOrWord("gate_c", n.gateC, "auto", 0.0, 1e6);
  s.number("gate_n", n.gateN, 0.0, 64.0, true);
  s.number("uniform_mix", n.uniformMix, 0.0, 1.0);
  s.finish();
  if (!(n.sigmaMax > n.sigmaMin)) s.fail("sigma_max", "must be larger than noise.sigma_min");
  if (n.schedule.empty()) s.fail("schedule", "must name a schedule family or a schedule file");
  if (isSchedulePreset(n.schedule)) {
    const auto& preset = schedule::preset(n.schedule);
    schedule::ParameterValues merged = preset.parameters;
    for (const auto& [k, v] : n.scheduleParams) merged[k] = v;
    schedule::completeParameters(schedule::family(preset.family), merged,
                                 source + ": key 'noise.schedule_params'");
  } else {
    if (!n.scheduleParams.empty())
      s.fail("schedule_params", "parameters apply to a preset, not to a schedule file");
    n.schedule = resolvePath(n.schedule, baseDir);
    if (!std::filesystem::is_regular_file(n.schedule))
      s.fail("schedule", "'" + n.schedule + "' is neither a schedule preset nor a file");
  }
}

}  // namespace

bool isSchedulePreset(const std::string& name) {
  for (const auto& p : schedule::presets())
    if (p.name == name) return true;
  return false;
}

TrainConfig parseTrainConfig(const json& root, const std::string& source,
                             const std::string& baseDir) {
  TrainConfig c;
  c.source = source;
  Section top(root, "", source);
  {
    std::string format;
    top.text("format", format);
    if (!format.empty() && format != "noisescope.train-config/1")
      top.fail("format", "'" + format + "' is not noisescope.train-config/1");
    top.allow("provenance");  // written into config.json by a run; informational
  }
  {
    Section s = top.sub("dataset");
    auto& d = c.dataset;
    s.text("path", d.path);
    s.text("test_path", d.testPath);
    s.number("test_fraction", d.testFraction, 0.0, 0.9, true);
    s.choice("transform", d.transform, {"none", "binarize"});
    s.number("binarize_threshold", d.binarizeThreshold, -1.0, 1.0);
    s.integer("limit", d.limit, 0, std::numeric_limits<int64_t>::max());
    s.integer("test_limit", d.testLimit, 0, std::numeric_limits<int64_t>::max());
    s.integer("fasta_window", d.fastaWindow, 1, 1 << 20);
    s.integer("fasta_stride", d.fastaStride, 1, 1 << 20);
    s.text("hdf5_dataset", d.hdf5Dataset);
    s.text("latents", d.latents);
    s.finish();
    if (!d.latents.empty() && !findLatentCacheKind(d.latents))
      s.fail("latents",
             "'" + d.latents +
                 "' is not a known trainer and model (TOOL:MODEL, e.g. sd-scripts:sdxl)");
    if (d.path.empty()) s.fail("path", "missing: the config must name the training dataset");
    d.path = resolvePath(d.path, baseDir);
    d.testPath = resolvePath(d.testPath, baseDir);
  }
  {
    Section s = top.sub("model");
    auto& m = c.model;
    s.choice("kind", m.kind, {"auto", "mlp", "unet", "conv1d"});
    s.integer("width", m.width, 4, 8192);
    s.integer("depth", m.depth, 1, 32);
    s.integer("channels", m.channels, 4, 1024);
    s.integer("blocks", m.blocks, 1, 64);
    s.integer("embedding", m.embedding, 4, 4096);
    s.finish();
    if (m.embedding % 2 != 0) s.fail("embedding", "must be even (sine and cosine pairs)");
  }
  {
    Section s = top.sub("optim");
    auto& o = c.optim;
    s.integer("steps", o.steps, 1, std::numeric_limits<int64_t>::max() / 4);
    s.integer("batch_size", o.batchSize, 1, 1 << 20);
    s.number("lr", o.lr, 0.0, 10.0, true);
    s.integer("lr_warmup_steps", o.lrWarmupSteps, 0, kBig);
    s.number("beta1", o.beta1, 0.0, 0.999999);
    s.number("beta2", o.beta2, 0.0, 0.99999999);
    s.number("eps", o.eps, 0.0, 1.0, true);
    s.number("ema_decay", o.emaDecay, 0.0, 0.999999999);
    s.number("grad_clip", o.gradClip, 0.0, 1e9);
    s.seed("seed", o.seed);
    s.text("device", o.device);
    s.number("sigma_data", o.sigmaData, 0.0, 1e6);
    s.integer("threads", o.threads, 0, kMaxThreads);
    s.finish();
    if (o.device != "auto" && o.device != "cpu" && o.device.rfind("cuda", 0) != 0)
      s.fail("device", "'" + o.device + "' is not auto, cpu, cuda or cuda:N");
  }
  {
    Section s = top.sub("noise");
    readNoise(s, c.noise, source, baseDir);
  }
  {
    Section s = top.sub("eval");
    auto& e = c.eval;
    s.integer("every", e.every, 0, kBig);
    s.integer("samples", e.samples, 1, 1 << 20);
    s.integer("levels", e.levels, 2, 4096);
    s.choice("reference", e.reference, {"elbo", "edm"});
    s.choice("sample_quality", e.sampleQuality, {"auto", "on", "off"});
    s.integer("heun_steps", e.heunSteps, 2, 4096);
    s.number("heun_rho", e.heunRho, 0.0, 100.0, true);
    s.integer("swd_projections", e.swdProjections, 1, 1 << 16);
    s.integer("swd_samples", e.swdSamples, 2, 1 << 20);
    s.text("feature_network", e.featureNetwork);
    s.integer("quality_samples", e.qualitySamples, 2, 1 << 20);
    s.text("heun_sigma_steps", e.heunSigmaSteps);
    s.finish();
    e.featureNetwork = resolvePath(e.featureNetwork, baseDir);
    e.heunSigmaSteps = resolvePath(e.heunSigmaSteps, baseDir);
  }
  {
    Section s = top.sub("checkpoint");
    auto& k = c.checkpoint;
    s.integer("every", k.every, 1, kBig);
    s.integer("keep", k.keep, 1, 1000);
    s.boolean("export_torchscript", k.exportTorchScript);
    s.finish();
  }
  top.integer("log_every", c.logEvery, 1, kBig);
  top.finish();
  return c;
}

NoiseSettings parseNoiseSettings(const json& noise, const std::string& source,
                                 const std::string& baseDir) {
  NoiseSettings n;
  Section s(noise, "noise", source);
  readNoise(s, n, source, baseDir);
  return n;
}

TrainConfig readTrainConfig(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the config file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  json root;
  try {
    root = json::parse(buffer.str());
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e999
    throw InputError(path, std::string("not valid JSON: ") + e.what());
  }
  const std::string base = std::filesystem::path(path).parent_path().string();
  return parseTrainConfig(root, path, base);
}

json toJson(const TrainConfig& c) {
  json j;
  j["format"] = "noisescope.train-config/1";
  const auto& d = c.dataset;
  j["dataset"] = {{"path", d.path},
                  {"test_path", d.testPath},
                  {"test_fraction", d.testFraction},
                  {"transform", d.transform},
                  {"binarize_threshold", d.binarizeThreshold},
                  {"limit", d.limit},
                  {"test_limit", d.testLimit},
                  {"fasta_window", d.fastaWindow},
                  {"fasta_stride", d.fastaStride},
                  {"hdf5_dataset", d.hdf5Dataset},
                  {"latents", d.latents}};
  const auto& m = c.model;
  j["model"] = {{"kind", m.kind},         {"width", m.width},   {"depth", m.depth},
                {"channels", m.channels}, {"blocks", m.blocks}, {"embedding", m.embedding}};
  const auto& o = c.optim;
  j["optim"] = {{"steps", o.steps},
                {"batch_size", o.batchSize},
                {"lr", o.lr},
                {"lr_warmup_steps", o.lrWarmupSteps},
                {"beta1", o.beta1},
                {"beta2", o.beta2},
                {"eps", o.eps},
                {"ema_decay", o.emaDecay},
                {"grad_clip", o.gradClip},
                {"seed", o.seed},
                {"device", o.device},
                {"sigma_data", o.sigmaData},
                {"threads", o.threads}};
  const auto& n = c.noise;
  j["noise"] = {{"sampler", n.sampler},
                {"schedule", n.schedule},
                {"schedule_params", n.scheduleParams},
                {"sigma_min", n.sigmaMin},
                {"sigma_max", n.sigmaMax},
                {"loss_weight", n.lossWeight},
                {"min_snr_gamma", n.minSnrGamma},
                {"bins", n.bins},
                {"warmup_steps", n.warmupSteps},
                {"refresh_every", n.refreshEvery},
                {"stat_decay", n.statDecay},
                {"smoothing_passes", n.smoothingPasses},
                {"min_bin_count", n.minBinCount},
                {"gate_c", n.gateC ? json(*n.gateC) : json("auto")},
                {"gate_n", n.gateN},
                {"uniform_mix", n.uniformMix}};
  const auto& e = c.eval;
  j["eval"] = {{"every", e.every},
               {"samples", e.samples},
               {"levels", e.levels},
               {"reference", e.reference},
               {"sample_quality", e.sampleQuality},
               {"heun_steps", e.heunSteps},
               {"heun_rho", e.heunRho},
               {"swd_projections", e.swdProjections},
               {"swd_samples", e.swdSamples},
               {"feature_network", e.featureNetwork},
               {"quality_samples", e.qualitySamples},
               {"heun_sigma_steps", e.heunSigmaSteps}};
  const auto& k = c.checkpoint;
  j["checkpoint"] = {
      {"every", k.every}, {"keep", k.keep}, {"export_torchscript", k.exportTorchScript}};
  j["log_every"] = c.logEvery;
  return j;
}

const char* toString(SamplerKind kind) {
  switch (kind) {
    case SamplerKind::Static:
      return "static";
    case SamplerKind::InfoNoise:
      return "infonoise";
    case SamplerKind::SqrtEntropy:
      return "sqrt-entropy";
  }
  return "static";
}

std::vector<std::string> samplerKindNames() {
  return {toString(SamplerKind::Static), toString(SamplerKind::InfoNoise),
          toString(SamplerKind::SqrtEntropy)};
}

SamplerKind samplerKindFromString(const std::string& name, const std::string& source) {
  for (SamplerKind kind : {SamplerKind::Static, SamplerKind::InfoNoise, SamplerKind::SqrtEntropy})
    if (name == toString(kind)) return kind;
  throw InputError(source, "unknown sampler '" + name + "' (static, infonoise, sqrt-entropy)");
}

}  // namespace noisescope::train
