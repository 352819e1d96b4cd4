// Times the offline diagnostic on one dataset and prints one JSON line: wall time, GFLOP/s in the
// dense-equivalent count 4·M·N·D per level, this machine's LibTorch GEMM rates measured in the same
// run, and peak resident memory. Writes the profile so run.sh can compare it with the reference.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "data/load.h"
#include "diagnostic/bracket.h"
#include "diagnostic/empirical_diagnostic.h"
#include "io/profile_io.h"
#include "tensor/device.h"
#include "util/error.h"

using namespace noisescope;

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// GFLOP/s of an (m×k)·(k×n) product of the given type on the device, best of three.
double gemmRate(int64_t m, int64_t k, int64_t n, at::ScalarType type, const c10::Device& device) {
  const auto options = at::TensorOptions().dtype(type).device(device);
  at::Tensor a = at::randn({m, k}, options);
  at::Tensor b = at::randn({n, k}, options);
  at::Tensor c = at::mm(a, b.t());
  double best = 1e30;
  for (int r = 0; r < 3; ++r) {
    const auto start = std::chrono::steady_clock::now();
    c = at::mm(a, b.t());
    (void)c.sum().item<double>();
    best = std::min(best, seconds(start));
  }
  return 2.0 * m * k * n / best / 1e9;
}

long peakResidentKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Offline diagnostic benchmark"};
  std::string data, out, device = "auto";
  DiagnosticOptions options;
  int64_t memoryMiB = 1024;
  int threads = 0;
  std::string precision = "auto";
  std::string kind = "empirical", heldOutPath;
  app.add_option("dataset", data, "dataset file")->required();
  app.add_option("--queries", options.queries)->capture_default_str();
  app.add_option("--levels", options.levels)->capture_default_str();
  app.add_option("--seed", options.seed)->capture_default_str();
  app.add_option("--memory", memoryMiB, "MiB")->capture_default_str();
  app.add_option("--device", device)->capture_default_str();
  app.add_option("--threads", threads)->capture_default_str();
  app.add_option("--precision", precision)->capture_default_str();
  app.add_option("--out", out, "profile JSON to write");
  app.add_option("--kind", kind, "empirical, held-out or bracket")
      ->check(CLI::IsMember({"empirical", "held-out", "bracket"}))
      ->capture_default_str();
  app.add_option("--held-out", heldOutPath, "held-out points (--kind held-out / bracket)");
  CLI11_PARSE(app, argc, argv);
  try {
    initTorchThreads(threads);
    options.device = device;
    options.memoryBytes = memoryMiB << 20;
    options.distancePrecision = distancePrecisionFromString(precision);
    const long rssBefore = peakResidentKiB();
    const auto loadStart = std::chrono::steady_clock::now();
    const Dataset dataset = loadDataset(data);
    const double loadSeconds = seconds(loadStart);
    const long rssData = peakResidentKiB();
    const c10::Device dev = resolveDevice(device);
    const int64_t n = dataset.size(), d = dataset.dim();
    const int64_t m = std::min<int64_t>(options.queries, 256);
    const double sgemm = gemmRate(m, d, n, at::kFloat, dev);
    const double dgemm = gemmRate(m, d, n, at::kDouble, dev);

    if (kind != "empirical" && heldOutPath.empty())
      throw InputError("--held-out", "--kind " + kind + " needs the held-out points");
    const Dataset heldOut = heldOutPath.empty() ? Dataset{} : loadDataset(heldOutPath);

    const auto start = std::chrono::steady_clock::now();
    Profile profile;
    nlohmann::json execution;
    if (kind == "empirical") {
      profile = computeEmpiricalProfile(dataset, options);
      execution = profile.provenance["execution"];
    } else if (kind == "held-out") {
      profile = computeHeldOutProfile(dataset, heldOut, options);
      execution = profile.provenance["execution"];
    } else {
      Bracket bracket = computeBracket(dataset, heldOut, options);
      execution = {{"empirical", bracket.empirical.provenance["execution"]},
                   {"held_out", bracket.heldOut.provenance["execution"]}};
      profile = std::move(bracket.empirical);
    }
    const double wall = seconds(start);
    if (!out.empty()) writeProfile(out, profile);

    const double flop = 4.0 * options.queries * static_cast<double>(n) * d * options.levels;
    nlohmann::json report = {
        {"dataset", data},
        {"kind", kind},
        {"held_out", heldOutPath},
        {"N", n},
        {"D", d},
        {"queries", options.queries},
        {"levels", options.levels},
        {"device", describeDevice(dev)},
        {"threads", at::get_num_threads()},
        {"precision", precision},
        {"memory_setting_mib", memoryMiB},
        {"load_seconds", loadSeconds},
        {"wall_seconds", wall},
        {"dense_equivalent_gflop", flop / 1e9},
        {"effective_gflops", flop / wall / 1e9},
        {"sgemm_gflops", sgemm},
        {"dgemm_gflops", dgemm},
        {"peak_rss_mib", peakResidentKiB() / 1024.0},
        {"rss_before_load_mib", rssBefore / 1024.0},
        {"rss_after_load_mib", rssData / 1024.0},
        {"dataset_mib", static_cast<double>(n * d * 4) / (1 << 20)},
        {"execution", execution},
        {"integral_rate_d_log_sigma", integrateRateOverLogSigma(profile)},
        {"log_N", std::log(static_cast<double>(n))},
    };
    std::printf("%s\n", report.dump().c_str());
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
