// noisescope-cli sample-race MODEL|RUN_DIR: samples a trained denoiser on each sampling grid at
// each NFE budget with several seeds, scores every sample set (FD; k-mer JS for DNA) beside the
// real-against-real floor and the grid's ELBO, and writes the table (text, JSON) and the chart of
// quality against NFE. The job is pipeline::runSampleRace; this file parses flags and writes.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "command.h"
#include "pipeline/sampling/sample_race.h"
#include "progress_bar.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

struct SampleRaceArgs {
  pipeline::SampleRaceOptions options;
  std::string json, chart;
  bool noElbo = false;
  bool quick = false;
};

// --quick: the quick look's settings (SampleRaceOptions::quick) wherever no flag was given.
void applyQuick(const CLI::App& app, SampleRaceArgs& a) {
  const auto quick = pipeline::SampleRaceOptions::quick();
  auto& o = a.options;
  auto unset = [&app](const char* flag) { return app.count(flag) == 0; };
  o.gridSet = quick.gridSet;
  if (unset("--nfe")) o.nfe = quick.nfe;
  if (unset("--seeds")) o.seeds = quick.seeds;
  if (unset("--samples")) o.samples = quick.samples;
  if (unset("--floor-repeats")) o.floorRepeats = quick.floorRepeats;
  if (unset("--no-elbo")) a.noElbo = !quick.elbo;
}

// PATH for the first measure, PATH with ".<measure>" before the extension for the others.
std::string chartPath(const std::string& path, const std::string& measure, bool first) {
  if (first) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "." + measure + p.extension().string())).string();
}

int runSampleRace(const CLI::App& app, SampleRaceArgs& a) {
  if (a.quick) applyQuick(app, a);
  auto& o = a.options;
  o.elbo = !a.noElbo;
  // The JSON is rewritten after every finished cell (state "running"), so a race stopped midway
  // keeps what it finished.
  pipeline::SampleRaceObserver onCell;
  if (!a.json.empty())
    onCell = [&a](const SampleRaceResult& sofar) {
      if (!sofar.cells.empty()) pipeline::writeSampleRaceJson(a.json, sofar);
    };
  const auto result = pipeline::runSampleRace(o, stderrProgress("sample-race"), onCell);
  std::cout << "model " << result.model << " (" << result.test << ")\n"
            << pipeline::sampleRaceText(result);
  if (!a.json.empty()) {
    pipeline::writeSampleRaceJson(a.json, result);
    std::cerr << "wrote " << a.json << "\n";
  }
  if (!a.chart.empty()) {
    bool first = true;
    for (const auto& m : result.measures()) {
      const std::string path = chartPath(a.chart, m, first);
      pipeline::writeSampleRaceChart(path, result, m);
      std::cerr << "wrote " << path << "\n";
      first = false;
    }
  }
  return 0;
}

const CommandRegistration sampleRaceCommand(
    "sample-race", [](CLI::App& app) -> std::function<int()> {
      auto a = std::make_shared<SampleRaceArgs>();
      auto& o = a->options;
      app.description(
          "Race sampling grids on a trained denoiser: quality against NFE, with floors and "
          "intervals");
      app.add_option(
             "MODEL", o.model,
             "A run directory (its newest TorchScript export and its data) or a TorchScript "
             "x0 denoiser file (with --config)")
          ->required();
      app.add_option("--config", o.config,
                     "Training config of a TorchScript file's data (its split, counts and feature "
                     "network)")
          ->check(CLI::ExistingFile);
      app.add_option("--features", o.featureNetwork,
                     "Feature network for FD (default: the config's eval.feature_network)")
          ->check(CLI::ExistingFile);
      app.add_option("--profile", o.profile, "Profile for the grids matched to its rate")
          ->check(CLI::ExistingFile);
      app.add_option(
          "--grid", o.grids,
          "Sampling-grid spec to race, e.g. 'karras?rho=7' (repeatable; default: Karras "
          "ρ = 7 and 3, uniform σ, log σ, DDPM trailing / leading / linspace, flow shift 3, "
          "entropic ∫rate and ∫√rate and auto with --profile, the run's π quantiles)");
      app.add_option("--nfe", o.nfe, "Budgets of denoiser evaluations")->capture_default_str();
      app.add_option("--seeds", o.seeds, "Sampling seeds (intervals need at least 2)")
          ->capture_default_str();
      app.add_option("--sampler", o.sampler,
                     "auto (Euler for a flow-v model, else Heun), heun, euler, euler-ancestral")
          ->capture_default_str();
      app.add_option("--samples", o.samples,
                     "Generated samples per grid, NFE and seed (default: eval.quality_samples)")
          ->check(CLI::PositiveNumber);
      app.add_option("--floor-repeats", o.floorRepeats, "Draws of the real-against-real floor")
          ->capture_default_str()
          ->check(CLI::PositiveNumber);
      app.add_flag("--no-elbo", a->noElbo, "Skip the per-grid ELBO");
      app.add_flag("--quick", a->quick,
                   "A first look in minutes: Karras, log σ and the data-driven grid (auto with "
                   "--profile, else the run's π quantiles) with " +
                       pipeline::sampleRaceSettingsText(pipeline::SampleRaceOptions::quick()) +
                       "; flags given override these");
      app.add_option("--device", o.device, "auto, cpu, cuda")->capture_default_str();
      app.add_option("--json", a->json,
                     "Write the result (noisescope.sample-race/1), rewritten after every finished "
                     "cell");
      app.add_option("--chart", a->chart,
                     "Chart of quality against NFE (.svg or .png; further measures get "
                     "NAME.<measure>.ext)");
      return [a, &app] { return runSampleRace(app, *a); };
    });

}  // namespace
}  // namespace noisescope::cli
