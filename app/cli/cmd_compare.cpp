// noisescope-cli compare: several schedules on their effective allocation φ ∝ π·w in one
// coordinate — a metrics table on stdout, optionally CSV, and SVG/PNG charts.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "command.h"
#include "io/comparison_io.h"
#include "io/profile_io.h"
#include "pipeline/defaults.h"
#include "pipeline/schedules/compare_job.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "schedule/compare.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

using namespace noisescope::schedule;
using namespace noisescope::pipeline;

struct CompareArgs {
  std::vector<std::string> schedules;  // specs: presets, family:..., files
  std::string profile;
  bool withEntropic = false;
  std::string sqrtCoordinate = "log-sigma";
  std::optional<double> gateC;  // default: the band's rule and InfoNoise's own c
  std::string entropicWeight = "edm";
  int reference = 0;
  std::string coordinate = "log-sigma", curve = "phi";
  std::vector<std::string> charts;
  std::string csv;
  double sigmaMin = pipeline::defaults::kSigmaMin, sigmaMax = pipeline::defaults::kSigmaMax;
  int bins = pipeline::defaults::kBins;
};

int run(const CompareArgs& a) {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(a.sigmaMin, a.sigmaMax, a.bins);
  // Every schedule is built through the pipeline's recipes; a profile's σ_data (when it records
  // one) is the σ_data of every schedule here.
  RecipeContext context;
  Profile profileData;
  const bool haveProfile = !a.profile.empty();
  if (haveProfile) {
    profileData = readProfile(a.profile);
    context.profile = &profileData;
    context.profileSource = a.profile;
    context.datasetSigmaData = profileSigmaData(profileData, a.profile);
  }
  std::vector<Schedule> schedules;
  for (const auto& spec : a.schedules)
    schedules.push_back(buildSchedule(recipeFromSpec(spec), grid, context).schedule);
  if (a.withEntropic) {
    if (!haveProfile) throw InputError("--with-entropic", "needs --profile");
    const LossWeight::Kind weight = lossWeightKindFromString(a.entropicWeight, "--entropic-weight");
    ScheduleRecipe info = infoNoiseRecipe();
    if (a.gateC) info.gateC = *a.gateC;
    info.weight.kind = weight;
    schedules.push_back(buildSchedule(info, grid, context).schedule);
    ScheduleRecipe sqrt =
        sqrtEntropyRecipe(coordinateFromString(a.sqrtCoordinate, "--sqrt-coordinate"));
    sqrt.weight.kind = weight;
    schedules.push_back(buildSchedule(sqrt, grid, context).schedule);
  }
  ComparisonRequest request;
  request.schedules = schedules;
  request.grid = grid;
  request.reference = a.reference;
  if (haveProfile) {
    request.profile = &profileData;
    request.profileSource = a.profile;
    request.bandGateC = a.gateC;  // unset: the pipeline's rule for the profile's kind
  }
  const Comparison comparison = pipeline::compareSchedules(request);
  std::cout << schedule::formatComparisonTable(comparison);
  if (!a.csv.empty()) {
    writeComparisonCsv(a.csv, comparison);
    std::fprintf(stderr, "wrote %s\n", a.csv.c_str());
  }
  const Coordinate coordinate = coordinateFromString(a.coordinate, "--coordinate");
  const Curve curve = curveFromString(a.curve, "--curve");
  for (const auto& path : a.charts) {
    pipeline::writeComparisonChart(path, request, comparison, coordinate, curve);
    std::fprintf(stderr, "wrote %s\n", path.c_str());
  }
  return 0;
}

const CommandRegistration compareCommand("compare", [](CLI::App& app) -> std::function<int()> {
  app.description(
      "Compare schedules on φ ∝ π·w: KL both ways, TV, Hellinger, band masses, σ quantiles; "
      "charts");
  auto a = std::make_shared<CompareArgs>();
  app.add_option(
      "schedules", a->schedules,
      "Schedules: preset names (edm, sd3, ...), family:NAME?key=value&weight=..., or files");
  app.add_option("--profile", a->profile,
                 "MMSE profile: adds the informative-band and low-rate columns");
  app.add_flag("--with-entropic", a->withEntropic,
               "Add the InfoNoise and √-entropy schedules of --profile");
  app.add_option("--sqrt-coordinate", a->sqrtCoordinate, "Coordinate of the √-entropy schedule")
      ->capture_default_str();
  app.add_option("--gate-c", a->gateC,
                 "Gate c of ρ (band and InfoNoise); default " +
                     pipeline::defaults::formatDefault(pipeline::defaults::kGateC) +
                     ", but 0 for the band of an empirical profile");
  app.add_option("--entropic-weight", a->entropicWeight,
                 "Loss weight of the added entropic schedules")
      ->capture_default_str();
  app.add_option("--reference", a->reference, "Index of the reference schedule for the divergences")
      ->capture_default_str();
  app.add_option("--coordinate", a->coordinate,
                 "Chart coordinate: sigma, log-sigma, lambda, vp-t, flow-t")
      ->capture_default_str();
  app.add_option("--curve", a->curve, "Chart curve: phi, pi, w, cdf")->capture_default_str();
  app.add_option("--chart", a->charts, "Write a chart (.svg or .png; repeatable)");
  app.add_option("--csv", a->csv, "Write the metrics table as CSV");
  app.add_option("--sigma-min", a->sigmaMin, "Comparison grid lower end")->capture_default_str();
  app.add_option("--sigma-max", a->sigmaMax, "Comparison grid upper end")->capture_default_str();
  app.add_option("--bins", a->bins, "Comparison grid bins")->capture_default_str();
  return [a] { return run(*a); };
});

}  // namespace
}  // namespace noisescope::cli
