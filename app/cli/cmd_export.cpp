// noisescope-cli export: convert a schedule between JSON, CSV and HDF5, or write its curves
// (π, w, φ, CDF) evaluated on a grid in a chosen coordinate.
#include <cstdio>
#include <memory>

#include "command.h"
#include "io/schedule_io.h"
#include "pipeline/defaults.h"
#include "pipeline/schedules/schedule_files.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "schedule/allocation.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

using namespace noisescope::schedule;

struct ExportArgs {
  std::string input, output, curves;
  std::string coordinate = "log-sigma";
  double sigmaMin = pipeline::defaults::kSigmaMin, sigmaMax = pipeline::defaults::kSigmaMax;
  int bins = pipeline::defaults::kBins;
};

int run(const ExportArgs& a) {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(a.sigmaMin, a.sigmaMax, a.bins);
  const pipeline::BuiltSchedule built =
      pipeline::buildSchedule(pipeline::recipeFromSpec(a.input), grid);
  const Schedule& s = built.schedule;
  if (a.output.empty() && a.curves.empty())
    throw InputError("export", "give OUTPUT and/or --curves FILE");
  if (!a.output.empty()) {
    pipeline::saveScheduleFile(a.output, built, "noisescope-cli export");
    std::fprintf(stderr, "wrote %s\n", a.output.c_str());
  }
  if (!a.curves.empty()) {
    const CurveTable t =
        evaluateCurves(s, grid, coordinateFromString(a.coordinate, "--coordinate"));
    writeCurvesCsv(a.curves, t);
    std::fprintf(stderr, "wrote %s\n", a.curves.c_str());
  }
  return 0;
}

const CommandRegistration exportCommand("export", [](CLI::App& app) -> std::function<int()> {
  app.description("Convert a schedule (JSON ↔ CSV ↔ HDF5) or export its curves in a coordinate");
  auto a = std::make_shared<ExportArgs>();
  app.add_option("input", a->input, "Schedule file, preset name or family:NAME?key=value")
      ->required();
  app.add_option("output", a->output, "Output schedule file (.json, .csv, .h5)");
  app.add_option("--curves", a->curves, "Write π, w, φ, CDF on the grid as CSV");
  app.add_option("--coordinate", a->coordinate,
                 "Coordinate of --curves: sigma, log-sigma, lambda, vp-t, flow-t")
      ->capture_default_str();
  app.add_option("--sigma-min", a->sigmaMin, "Grid lower end")->capture_default_str();
  app.add_option("--sigma-max", a->sigmaMax, "Grid upper end")->capture_default_str();
  app.add_option("--bins", a->bins, "Grid bins")->capture_default_str();
  return [a] { return run(*a); };
});

}  // namespace
}  // namespace noisescope::cli
