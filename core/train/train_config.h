#pragma once
// Every setting of a training run, with its default. A run is fully described by this struct; the
// run directory's config.json is its resolved form (toJson), and parsing that file again gives
// the same struct. Defaults are documented in docs/training.md.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "schedule/engine_defaults.h"

namespace noisescope::train {

struct DatasetSettings {
  std::string path;           // file, folder or "synthetic:..." spec (required)
  std::string testPath;       // held-out set; empty: split testFraction off `path`
  double testFraction = 0.1;  // used only without testPath
  // Readers already give the working scaling (images in [-1,1], DNA one-hot ±1); "binarize"
  // maps values > 0 to +1 and the rest to −1.
  std::string transform = "none";  // "none", "binarize"
  double binarizeThreshold = 0.0;
  int64_t limit = 0;          // use at most this many training samples (0: all)
  int64_t testLimit = 2048;   // keep at most this many held-out samples (0: all)
  int64_t fastaWindow = 200;  // FASTA: bases per sample
  int64_t fastaStride = 200;  // FASTA: bases between window starts
  std::string hdf5Dataset;    // HDF5: path of the array inside the file
  // A latent cache's trainer and model, "TOOL:MODEL": train on the scale that trainer noises
  // (data/formats/latent_spaces.h). "": as read.
  std::string latents;
};

struct ModelSettings {
  std::string kind = "auto";  // "auto", "mlp", "unet", "conv1d"
  int64_t width = 256;        // MLP hidden width
  int64_t depth = 3;          // MLP hidden layers
  int64_t channels = 8;       // U-Net base channels / conv1d channels (sized for 2 CPU cores)
  int64_t blocks = 4;         // conv1d residual blocks
  int64_t embedding = 64;     // size of the noise-level embedding
};

struct OptimSettings {
  int64_t steps = 2000;
  int64_t batchSize = 32;  // per process (sized for 2 CPU cores)
  double lr = 1e-3;
  int64_t lrWarmupSteps = 100;  // linear ramp from 0
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double emaDecay = 0.999;  // effective decay min(emaDecay, (1+step)/(10+step))
  double gradClip = 0.0;    // global-norm clip; 0: off
  uint64_t seed = 1;
  std::string device = "auto";
  double sigmaData = 0.0;  // 0: measured from the training data
  // Torch CPU threads of this run (intra-op). 0: the process's count (the CLI's --threads, else
  // every core); the trainer applies a positive value and writes the count it used back here.
  // Runs sharing a machine each take a share (the GUI's race: cores / 3).
  int64_t threads = 0;
};

// Bins of the static / warm-up schedule: the preset discretised exactly on this many log-σ bins.
inline constexpr int kBaseScheduleBins = 512;

// The online samplers a run's noise.sampler names (train/noise_sampler.h draws from them).
enum class SamplerKind { Static, InfoNoise, SqrtEntropy };
const char* toString(SamplerKind kind);
SamplerKind samplerKindFromString(const std::string& name, const std::string& source);
std::vector<std::string> samplerKindNames();  // "static", "infonoise", "sqrt-entropy"

struct NoiseSettings {
  std::string sampler = "static";  // "static", "infonoise", "sqrt-entropy"
  // Static schedule, and the warm-up schedule of the adaptive samplers: a preset of the schedule
  // model ("edm", "edm2-img512", "log-uniform", ...) or the path of a noisescope.schedule/1 file.
  std::string schedule = "edm";
  std::map<std::string, double> scheduleParams;  // overrides of the preset's parameters
  double sigmaMin = schedule::defaults::kSigmaMin;
  double sigmaMax = schedule::defaults::kSigmaMax;
  // The loss weight of a preset schedule: "edm", "uniform", "epsilon", "v", "min-snr", "flow-v".
  // A schedule *file* is trained with the weight it carries (its allocation is π·w); a config
  // that names a different weight for it is refused (docs/training.md).
  std::string lossWeight = "edm";
  double minSnrGamma = schedule::defaults::kMinSnrGamma;
  bool lossWeightGiven = false;   // the config file named loss_weight (set by the parser)
  bool minSnrGammaGiven = false;  // the config file named min_snr_gamma (set by the parser)
  // Adaptive samplers (THEORY §8).
  int64_t bins = 64;
  int64_t warmupSteps = 200;  // first refresh within about a minute on 2 cores
  int64_t refreshEvery = 100;
  double statDecay = 0.9;       // EMA of per-bin errors across refreshes (weight of the old value)
  int64_t smoothingPasses = 1;  // passes of the [¼ ½ ¼] kernel over neighbouring bins
  int64_t minBinCount = 16;     // a bin's samples accumulate until there are this many
  // c of the low-noise gate g = σⁿ/(σⁿ+cⁿ) (THEORY §6): 0 means no gate, as everywhere; empty
  // means "auto": 0.15, or 0.2 for discrete data, resolved by the trainer.
  std::optional<double> gateC;
  double gateN = schedule::defaults::kGateN;
  double uniformMix = 0.0;  // fraction of π spread uniformly over log σ (keeps every bin observed)
};

struct EvalSettings {
  int64_t every = 250;                 // steps between evaluations (0: only at the end)
  int64_t samples = 256;               // held-out samples per level
  int64_t levels = 24;                 // log-spaced σ levels on [σ_min, σ_max]
  std::string reference = "elbo";      // scalar quality: "elbo" or "edm"
  std::string sampleQuality = "auto";  // "auto" (flat data with D ≤ 16), "on", "off"
  int64_t heunSteps = 32;
  double heunRho = 7.0;
  int64_t swdProjections = 64;
  int64_t swdSamples = 512;
  // Sample quality of images and sequences (THEORY §11): Fréchet distance in the features of a
  // network from `noisescope-cli quality train-features` (images need one; "" = none), and for
  // DNA also the k-mer spectrum JS. Computed when sample_quality is not "off" and there is a
  // feature network or the data is DNA.
  std::string featureNetwork;
  int64_t qualitySamples = 256;  // Heun samples scored (FD is biased at small counts)
  std::string heunSigmaSteps;    // σ-steps file for the Heun sampler; "": EDM's ρ steps
};

struct CheckpointSettings {
  int64_t every = 1000;
  int64_t keep = 3;  // native checkpoints kept (older ones removed)
  bool exportTorchScript = true;
};

struct TrainConfig {
  DatasetSettings dataset;
  ModelSettings model;
  OptimSettings optim;
  NoiseSettings noise;
  EvalSettings eval;
  CheckpointSettings checkpoint;
  int64_t logEvery = 50;  // steps between "train" events
  std::string source;     // where the config came from (for error messages)
};

// Parses and validates a config. Every problem (unknown key, wrong type, value out of range,
// missing dataset) throws InputError(source, "key 'a.b': ..."). Relative paths are resolved
// against baseDir when it is not empty.
TrainConfig parseTrainConfig(const nlohmann::json& json, const std::string& source,
                             const std::string& baseDir = {});
TrainConfig readTrainConfig(const std::string& path);
// The `noise` section alone (an object), checked as parseTrainConfig checks it ("key 'noise.x'").
NoiseSettings parseNoiseSettings(const nlohmann::json& noise, const std::string& source,
                                 const std::string& baseDir = {});
// True when `name` is a preset of the schedule model (else noise.schedule is a file).
bool isSchedulePreset(const std::string& name);
// The full resolved config, every key present ("format": "noisescope.train-config/1").
nlohmann::json toJson(const TrainConfig& config);

}  // namespace noisescope::train
