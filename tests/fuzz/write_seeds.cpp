// Writes the seed corpora of tests/fuzz/corpus/<harness>/ with the project's own writers (and the
// data tests' fixture writers), so the seeds are the files users actually have. Run through
// tests/fuzz/make_corpus.sh; the output is committed.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <hdf5.h>
#include <nlohmann/json.hpp>

#include "../core/data/fixtures.h"
#include "fuzz_support.h"
#include "io/profile_io.h"
#include "io/schedule_io.h"
#include "schedule/families.h"
#include "train/train_config.h"

namespace fs = std::filesystem;
using namespace noisescope;

namespace {

std::string root;

std::string seedPath(const std::string& harness, const std::string& name) {
  fs::create_directories(root + "/" + harness);
  return root + "/" + harness + "/" + name;
}
void seed(const std::string& harness, const std::string& name, const std::string& bytes) {
  fixtures::writeBytes(seedPath(harness, name), bytes);
}
std::string slurp(const std::string& path) {
  return fixtures::readBytes(path);
}
std::string u16(size_t n) {
  return std::string{static_cast<char>(n & 255), static_cast<char>(n >> 8)};
}
std::vector<uint8_t> ramp(size_t n, int step = 7) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * step);
  return v;
}

void idxSeeds() {
  const std::string labels = fixtures::idxBytes({3}, {0, 1, 2});
  const std::string images = fixtures::idxBytes({3, 4, 4}, ramp(48));
  const std::string vectors = fixtures::idxBytes({2, 5}, ramp(10));
  const std::string extra = fixtures::idxBytes({2}, {7, 9});
  for (const char* h : {"idx", "idx_gz"}) {
    const std::string flags = std::string(h) == "idx_gz" ? std::string(1, '\0') : "";
    seed(h, "images-with-labels", flags + u16(labels.size()) + labels + images);
    seed(h, "vectors", flags + u16(0) + vectors);
    seed(h, "label-count-mismatch", flags + u16(extra.size()) + extra + images);
  }
  seed("idx", "gzip-images", u16(0) + fuzz::gzipBytes(images.data(), images.size()));
  seed("idx_gz", "lying-trailer", std::string(1, '\1') + u16(0) + images);
}

void cifarSeeds() {
  // The harness names the file by size % 3 (data_batch_1.bin, train.bin, batch.bin).
  std::string ten, hundred;
  for (int r = 0; r < 3; ++r) {
    ten += static_cast<char>(r);
    const auto pixels = ramp(3072, 3 + r);
    ten.append(pixels.begin(), pixels.end());
  }
  hundred += '\3';
  hundred += '\x2a';
  const auto pixels = ramp(3072, 5);
  hundred.append(pixels.begin(), pixels.end());
  seed("cifar", "cifar10-data-batch", ten);                   // 9219 bytes: data_batch_1.bin
  seed("cifar", "cifar10-unnamed", ten.substr(0, 2 * 3073));  // 6146: batch.bin
  seed("cifar", "cifar100-unnamed", hundred);                 // 3074: batch.bin
}

void npySeeds() {
  const auto bytes = ramp(24);
  seed("npy", "uint8-2x3x4",
       fixtures::npyBytes("|u1", {2, 3, 4}, std::string(bytes.begin(), bytes.end())));
  seed("npy", "float32-3x2",
       fixtures::npyBytes("<f4", {3, 2}, fixtures::rawBytes<float>({0, .5f, 1, -1, 2, 3})));
  seed("npy", "float64-v2",
       fixtures::npyBytes("<f8", {4}, fixtures::rawBytes<double>({1, 2, 3, 4}), 2));
  seed("npy", "float32-v3",
       fixtures::npyBytes("<f4", {2, 1}, fixtures::rawBytes<float>({1, 2}), 3));
  const auto hwc = ramp(2 * 2 * 2 * 3);
  seed("npy", "channels-last",
       fixtures::npyBytes("|u1", {2, 2, 2, 3}, std::string(hwc.begin(), hwc.end())));
  std::vector<float> onehot(2 * 3 * 4, 0.0f);
  for (int i = 0; i < 6; ++i) onehot[i * 4 + i % 4] = 1.0f;
  seed("npy", "one-hot", fixtures::npyBytes("<f4", {2, 3, 4}, fixtures::rawBytes(onehot)));
}

// [format byte][file]: 0 names it .npy, 1 an IDX images file, 2 a CIFAR-10 batch.
void streamedPriorSeeds() {
  const auto bytes = ramp(24);
  seed("streamed_prior", "npy-uint8-2x3x4",
       std::string(1, '\0') +
           fixtures::npyBytes("|u1", {2, 3, 4}, std::string(bytes.begin(), bytes.end())));
  seed("streamed_prior", "npy-float32-images",
       std::string(1, '\0') +
           fixtures::npyBytes(
               "<f4", {2, 2, 3},
               fixtures::rawBytes<float>({0, 50, 100, 150, 200, 250, 5, 10, 15, 20, 25, 30})));
  const auto pixels = ramp(3 * 4 * 5);
  seed("streamed_prior", "idx-3x4x5", std::string(1, '\1') + fixtures::idxBytes({3, 4, 5}, pixels));
  std::string batch(1, '\2');
  for (int r = 0; r < 2; ++r) {
    batch += static_cast<char>(r);
    const auto image = ramp(3072, 7 + r);
    batch.append(image.begin(), image.end());
  }
  seed("streamed_prior", "cifar10-2-records", batch);
}

void hdf5Seeds() {
  const auto bytes = ramp(32);
  fixtures::writeHdf5(seedPath("hdf5", "uint8-2x4x4.h5"), "/images", {2, 4, 4},
                      fixtures::hdf5Uint8(), bytes.data());
  const std::vector<float> f = {0, 1, 2, 3, 4, 5};
  const std::string two = seedPath("hdf5", "two-datasets.h5");
  fixtures::writeHdf5(two, "/train", {3, 2}, fixtures::hdf5Float(), f.data());
  const std::vector<double> d = {1, 2, 3};
  fixtures::writeHdf5(two, "/test", {3}, fixtures::hdf5Double(), d.data(), true);
  const auto grid = schedule::LogSigmaGrid::uniform(0.002, 80.0, 8);
  writeScheduleHdf5(seedPath("hdf5", "schedule.h5"), schedule::makePresetSchedule("edm", grid),
                    nlohmann::json::object());
}

void fastaSeeds() {
  // [window][stride][policy] then the text (see targets/fasta.cpp).
  const std::string text = ">r1 first\nACGTACGTNNACGT\nacgtac\n;comment\n>r2\nGGGGCCCCAAAATTTT\n";
  seed("fasta", "records-w8-s4", std::string("\x07\x03\x00", 3) + text);
  seed("fasta", "unknown-kept", std::string("\x03\x01\x01", 3) + text);
  seed("fasta", "plain-sequence", std::string("\x04\x04\x00", 3) + "ACGTTGCAACGT\r\nACGT\n");
  seed("fasta", "gzip", std::string("\x05\x02\x00", 3) + fuzz::gzipBytes(text.data(), text.size()));
}

void imageSeeds() {
  fixtures::writePng(seedPath("image", "grey-4x3.png"), 4, 3, 1, ramp(12, 20));
  fixtures::writePng(seedPath("image", "rgb-5x4.png"), 5, 4, 3, ramp(60, 4));
  fixtures::writeJpeg(seedPath("image", "grey-8x8.jpg"), 8, 8, 1, ramp(64, 4), 90);
  fixtures::writeJpeg(seedPath("image", "rgb-9x7.jpg"), 9, 7, 3, ramp(189, 1), 75);
}

// Latent caches as the trainers write them, a plain tensor, and EDM / EDM2 dataset ZIPs.
void latentCacheSeeds() {
  const std::string f32 = fixtures::rawBytes<float>({0.5f, -1.25f, 2.f, 3.f, -0.75f, 1.f});
  const std::string bf16 = fixtures::rawBytes<uint16_t>({0x3f80, 0xbfc0, 0x4000, 0x3f00});
  seed("safetensors", "musubi-bf16",
       fixtures::safetensorsBytes({{"latents_1x2x2_bf16", "BF16", {1, 1, 2, 2}, bf16}}));
  seed("safetensors", "sd-scripts-buckets",
       fixtures::safetensorsBytes({{"latents_2x3", "F32", {1, 2, 3}, f32},
                                   {"latents_3x2", "F32", {1, 3, 2}, f32},
                                   {"original_size", "F32", {2}, f32.substr(0, 8)}}));
  seed(
      "safetensors", "plain-f16",
      fixtures::safetensorsBytes(
          {{"x", "F16", {3, 2}, fixtures::rawBytes<uint16_t>({0x3c00, 0, 0xbc00, 0x4000, 1, 2})}}));
  const std::string latents = fixtures::npyBytes("<f4", {1, 2, 3}, f32);
  seed("npz", "sd-scripts",
       fixtures::zipBytes({{"latents.npy", latents},
                           {"original_size.npy", fixtures::npyBytes("|u1", {2}, "\x40\x40")}}));
  seed("npz", "bucket-key", fixtures::zipBytes({{"latents_2x3.npy", latents}}));
  seed("npz", "plain", fixtures::zipBytes({{"arr_0.npy", fixtures::npyBytes("<f4", {3, 2}, f32)}}));
  const std::string png = slurp(seedPath("image", "rgb-5x4.png"));
  seed("edm_zip", "images-labels",
       fixtures::zipBytes({{"00000/img00000000.png", png},
                           {"00000/img00000001.png", png},
                           {"dataset.json", R"({"labels": [["00000/img00000000.png", 0],
                                                            ["00000/img00000001.png", 1]]})"}}));
  std::vector<float> meanStd(8 * 2 * 2, 0.25f);
  seed("edm_zip", "edm2-mean-std",
       fixtures::zipBytes({{"00000/img-mean-std-00000000.npy",
                            fixtures::npyBytes("<f4", {8, 2, 2}, fixtures::rawBytes(meanStd))}}));
}

void syntheticSeeds() {
  const char* specs[] = {"synthetic:two-moons",
                         "synthetic:dirac-mixture?n=64&d=3&k=5&seed=7",
                         "synthetic:gaussian?n=10&d=4&scale=2.5&noise=0.1",
                         "synthetic:circle?n=16&noise=0.05",
                         "synthetic:swiss-roll?n=20&d=2",
                         "synthetic:hypercube?n=8&d=6&scale=1&seed=18446744073709551615"};
  int i = 0;
  for (const char* s : specs) seed("synthetic", "spec-" + std::to_string(i++), s);
}

Profile sampleProfile(const std::string& kind) {
  Profile p;
  p.kind = kind;
  p.sigma = {0.01, 0.1, 1.0, 10.0};
  p.dim = 2;
  p.datasetSize = 8;
  p.queries = 3;
  p.sigmaData = 0.7;
  std::vector<double> perQuery;
  for (int l = 0; l < 4; ++l)
    for (int q = 0; q < 3; ++q) perQuery.push_back(0.1 * l * l + 0.01 * q);
  p.estimates.push_back(summarizeEstimate("rao_blackwell", "posterior variance", perQuery, 4, 3));
  p.estimates.push_back(summarizeEstimate("direct", "squared error", perQuery, 4, 3));
  p.rates = computeRates(p.sigma, p.primary());
  if (kind == "empirical") {
    p.posterior.maxWeight = {1.0, 0.9, 0.5, 0.2};
    p.posterior.weightEntropy = {0.0, 0.3, 1.0, 2.0};
    p.posterior.effectiveSampleSize = {1.0, 1.2, 3.0, 7.0};
    p.posterior.prunedWeightBound = 1e-12;
    p.posterior.pruneLogRatio = 40.0;
  }
  p.provenance = {{"dataset", "synthetic:two-moons"}};
  return p;
}

void profileSeeds() {
  writeProfile(seedPath("profile", "empirical.json"), sampleProfile("empirical"));
  writeProfile(seedPath("profile", "checkpoint.json"), sampleProfile("checkpoint"));
}

void scheduleSeeds() {
  const auto grid = schedule::LogSigmaGrid::uniform(0.002, 80.0, 8);
  const auto edm = schedule::makePresetSchedule("edm", grid);
  const auto atoms =
      schedule::Schedule::fromAtoms({{0.05, 0.2}, {0.8, 0.5}, {12.0, 0.3}}, 0.002, 80);
  for (const char* ext : {"json", "csv"}) {
    const std::string h = std::string("schedule_") + ext;
    writeSchedule(seedPath(h, std::string("edm.") + ext), edm);
    writeSchedule(seedPath(h, std::string("atomic.") + ext), atoms);
  }
  seed("schedule_json", "density-table.json",
       R"({"sigma": [0.01, 0.1, 1, 10], "density": [0.1, 1, 2, 0.5], "coordinate": "log-sigma"})");
  seed("schedule_json", "mmse-table.json",
       R"({"sigma": [0.01, 0.1, 1, 10], "mmse": [1e-4, 0.01, 0.5, 1.9]})");
  writeProfile(seedPath("schedule_json", "profile.json"), sampleProfile("checkpoint"));
  seed("schedule_csv", "density-table.csv",
       "sigma,density_log-sigma\n0.01,0.1\n0.1,1\n1,2\n10,0.5\n");
  seed("schedule_csv", "mmse-table.csv",
       "# source: test\nsigma,mmse\n0.01,1e-4\n0.1,0.01\n1,0.5\n");
}

void specSeeds() {
  const char* specs[] = {"edm",
                         "preset:edm2-img64",
                         "family:edm?p_mean=-1&p_std=1.4",
                         "family:logit-normal?m=0&s=1&weight=min-snr&gamma=5&sigma_data=0.5",
                         "log-uniform?weight=v",
                         "cosine",
                         "family:laplace?mu=0&b=0.5",
                         "preset:sd3?shift=3",
                         "vp?beta_min=0.1&beta_d=19.9&weight=epsilon"};
  int i = 0;
  for (const char* s : specs) seed("schedule_spec", "spec-" + std::to_string(i++), s);
}

void trainConfigSeeds() {
  seed("train_config", "minimal.json", R"({"dataset": {"path": "synthetic:two-moons"}})");
  train::TrainConfig config;
  config.dataset.path = "synthetic:gaussian?n=100&d=4";
  config.noise.sampler = "infonoise";
  config.noise.scheduleParams = {{"p_mean", -1.0}};
  seed("train_config", "resolved.json", train::toJson(config).dump(2));
  seed("train_config", "sections.json",
       R"({"dataset": {"path": "data.npy", "transform": "binarize", "limit": 10},
           "model": {"kind": "mlp", "width": 64}, "optim": {"steps": 5, "lr": 0.01},
           "noise": {"schedule": "log-uniform", "loss_weight": "min-snr"},
           "eval": {"every": 0}, "checkpoint": {"export_torchscript": false}})");
}

void runEventSeeds() {
  // One line each, as core/train writes them (docs/training.md).
  const char* lines[] = {
      R"({"event":"start","step":0,"time":1700000000.5,"steps":2000,"world_size":1,"device":"cpu",)"
      R"("network":{"kind":"mlp","sample_shape":[2]},"parameters":12345,"sigma_data":0.5,)"
      R"("discrete":false,"train_samples":900,"test_samples":100,"test":"held-out 10 %","bins":3})",
      R"({"event":"train","step":50,"time":1700000001.0,"loss":0.25,"lr":0.001,)"
      R"("samples_per_s":5000.0,"steps_per_s":40.0,"bin_error":[0.1,null,0.3],"bin_count":[5,0,7]})",
      R"({"event":"schedule","step":500,"time":1700000002.0,"sampler":"infonoise","refresh":1,)"
      R"("log_sigma_edges":[-2.0,-1.0,0.0,2.0],"sigma":[0.22,0.6,2.7],"pi":[0.2,0.5,0.3],)"
      R"("mhat":[0.01,0.2,0.9],"rho":[0.3,0.4,0.3],"cdf_change":0.05})",
      R"({"event":"eval","step":1000,"time":1700000003.0,"sigma":[0.1,1.0],"error":[0.01,null],)"
      R"("elbo":1.5,"edm":0.7,"quality":1.5,"reference":"elbo"})",
      R"({"event":"checkpoint","step":1000,"time":1700000004.0,)"
      R"("path":"checkpoints/step-000001000.ckpt","export":"checkpoints/step-000001000.denoiser.pt"})",
      R"({"event":"end","step":2000,"time":1700000005.0,"seconds":42.0})"};
  int i = 0;
  for (const char* line : lines) seed("run_event", "line-" + std::to_string(i++), line);
}

void trainerSettingsSeeds() {
  // [format byte: 0 JSON, 1 YAML, 2 TOML, 3 command line][the file], one per tool's form.
  seed("trainer_settings", "onetrainer.json",
       std::string(1, '\0') +
           R"({"timestep_distribution": "INVERTED_PARABOLA", "noising_weight": 7.7,
           "noising_bias": 0.0, "timestep_shift": 1.0, "dynamic_timestep_shifting": false})");
  seed("trainer_settings", "ai_toolkit.yaml",
       std::string(1, '\1') +
           "config:\n  process:\n    - train:\n        timestep_type: weighted\n"
           "        content_or_style: balanced\n");
  seed("trainer_settings", "sd_scripts.toml",
       std::string(1, '\2') +
           "timestep_sampling = \"shift\"\ndiscrete_flow_shift = 3.1582\n"
           "[section]\nlist = [1, 2.5, \"x\"]\n");
  seed("trainer_settings", "command_line.txt",
       std::string(1, '\3') +
           "accelerate launch train.py \\\n  --snr_gamma=5.0 --weighting_scheme "
           "'logit_normal' --flag # comment\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  root = argv[1];
  idxSeeds();
  cifarSeeds();
  npySeeds();
  streamedPriorSeeds();
  hdf5Seeds();
  fastaSeeds();
  imageSeeds();
  latentCacheSeeds();
  syntheticSeeds();
  profileSeeds();
  scheduleSeeds();
  specSeeds();
  trainConfigSeeds();
  runEventSeeds();
  trainerSettingsSeeds();
  return 0;
}
