// noisescope-cli report: the workbench's main job without a display (pipeline/report.h): per
// dataset, samples across σ, the diagnostic profile with its bands, the schedules built from it
// beside EDM and log-uniform on φ, their comparison table and one exported schedule.
#include <cstdio>

#include "command.h"
#include "dataset_options.h"
#include "pipeline/report.h"
#include "progress_bar.h"

namespace noisescope::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> paths;
  std::string outDir = "report";
  pipeline::ReportRequest settings;  // what the flags below set: ladder, diagnostic, steps
  DatasetArgs loading;               // shared loading options (window, stride, ...)
};

int runReport(const ReportArgs& args) {
  // The workbench's "Write report folder…" builds its request with the same function.
  const pipeline::ReportRequest request = pipeline::reportRequest(
      args.paths, toLoadOptions(args.loading), args.outDir, "noisescope-cli report", args.settings);
  const pipeline::ReportResult result = pipeline::writeReport(request, stderrProgress("report"));
  for (const auto& d : result.datasets)
    std::fprintf(stderr, "report: %s: %zu files\n", d.name.c_str(), d.files.size());
  std::printf("report written to %s\n", result.folder.c_str());
  return 0;
}

const CommandRegistration reportCommand("report", [](CLI::App& app) -> std::function<int()> {
  auto args = std::make_shared<ReportArgs>();
  pipeline::ReportRequest& r = args->settings;
  app.description(
      "Write a report folder per dataset: samples across σ, the diagnostic profile, schedules "
      "built from it compared with EDM and log-uniform, and an exported schedule");
  app.add_option("datasets", args->paths, "Datasets to include")->required();
  app.add_option("--out", args->outDir, "Report folder")->capture_default_str();
  app.add_option("--samples", r.samplesPerRow, "Samples per row")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--sigmas", r.ladderSigmas, "Noise levels of the sample ladder")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--levels", r.profile.levels, "σ levels of the diagnostic")
      ->capture_default_str()
      ->check(CLI::Range(2, 2000));
  app.add_option("--queries", r.profile.queries, "Monte Carlo queries per level")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  app.add_option("--seed", r.profile.seed, "Seed of the diagnostic's queries")
      ->capture_default_str();
  app.add_option("--device", r.profile.device, "auto, cpu, cuda or cuda:N")->capture_default_str();
  app.add_option("--steps", r.sigmaSteps, "Inference σ-steps of the exported schedule")
      ->capture_default_str()
      ->check(CLI::Range(2, 100000));
  app.add_option("--window", args->loading.window, "DNA bases per sample")->capture_default_str();
  app.add_option("--stride", args->loading.stride, "DNA bases between windows")
      ->capture_default_str();
  return [args] { return runReport(*args); };
});

}  // namespace
}  // namespace noisescope::cli
