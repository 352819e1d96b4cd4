#include "pipeline/report.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "data/statistics.h"
#include "diagnostic/empirical_diagnostic.h"
#include "io/comparison_io.h"
#include "io/profile_io.h"
#include "io/provenance.h"
#include "io/report_markdown.h"
#include "io/schedule_io.h"
#include "io/sigma_steps_io.h"
#include "pipeline/dataset/dataset_info.h"
#include "pipeline/defaults.h"
#include "pipeline/diagnose/bracket_job.h"
#include "pipeline/diagnose/held_out_queries.h"
#include "pipeline/sampling/sigma_steps.h"
#include "pipeline/schedules/caveats.h"
#include "pipeline/schedules/fit_for_tool.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "render/chart.h"
#include "render/png_writer.h"
#include "render/sample_image.h"
#include "schedule/compare.h"
#include "schedule/entropic.h"
#include "schedule/trainer_families.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope::pipeline {

using namespace noisescope::schedule;
using namespace noisescope::render;
using nlohmann::json;
namespace fs = std::filesystem;

DiagnosticOptions ReportRequest::quickProfileOptions() {
  DiagnosticOptions o;
  o.levels = 48;
  o.queries = 128;
  o.seed = 1;
  return o;
}

namespace {

std::string fileStem(const Dataset& d, size_t index) {
  std::string stem;
  for (char c : d.name) stem += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return std::to_string(index + 1) + "-" + stem;
}

// One row of the same samples per σ, stacked top to bottom (points: one scatter per σ, left to
// right).
RgbImage noiseLadder(const Dataset& d, const ReportRequest& request) {
  std::vector<int64_t> indices;
  const bool points = d.kind == SampleKind::Points;
  const int64_t count = std::min<int64_t>(d.size(), points ? 1000 : request.samplesPerRow);
  const int64_t step = std::max<int64_t>(1, d.size() / std::max<int64_t>(1, count));
  for (int64_t i = 0; i < count; ++i) indices.push_back((i * step) % d.size());
  const uint64_t seed = 7;
  std::vector<RgbImage> rows;
  for (double sigma : request.ladderSigmas) {
    if (points) {
      rows.push_back(renderScatter(d, indices, sigma, seed, 240));
    } else {
      const bool sequence = d.kind == SampleKind::Sequence;
      rows.push_back(renderSampleGrid(d, indices, sigma, seed, sequence ? 1 : request.samplesPerRow,
                                      sequence ? 2 : 3));
    }
  }
  int width = 0, height = 0;
  for (const auto& r : rows) {
    if (points)
      width += r.width + 4, height = std::max(height, r.height);
    else
      height += r.height + 6, width = std::max(width, r.width);
  }
  RgbImage out(width, height, 255);
  int at = 0;
  for (const auto& r : rows) {
    if (points)
      out.blit(r, at, 0), at += r.width + 4;
    else
      out.blit(r, 0, at), at += r.height + 6;
  }
  return out;
}

// One profile curve against σ (log axis) with its 95 % interval drawn as a band.
ChartSpec profileChart(const Profile& p, std::string title, std::string yLabel, std::string label,
                       const std::vector<double>& value, const std::vector<double>& low,
                       const std::vector<double>& high) {
  ChartSpec c;
  c.title = std::move(title);
  c.xLabel = "noise level σ (log scale)";
  c.yLabel = std::move(yLabel);
  c.logX = true;
  ChartSeries s;
  s.label = std::move(label);
  s.x = p.sigma;
  s.y = value;
  s.low = low;
  s.high = high;
  c.series.push_back(std::move(s));
  return c;
}

// MMSE per dimension with its 95 % interval (the Diagnostic tab's left chart), one series per
// profile: the sample's own curve beside the population bound.
ChartSpec mmseChart(const std::vector<const Profile*>& profiles, const std::string& name) {
  ChartSpec c;
  c.title = "MMSE per dimension, " + name;
  c.xLabel = "noise level σ (log scale)";
  c.yLabel = "MMSE / D";
  c.logX = true;
  for (const Profile* p : profiles) {
    const MmseEstimate& m = p->primary();
    const double d = static_cast<double>(std::max<int64_t>(1, p->dim));
    auto perDimension = [d](std::vector<double> v) {
      for (double& x : v) x /= d;
      return v;
    };
    ChartSeries s;
    s.label = p->kind + " (" + m.name + "), 95% band";
    s.x = p->sigma;
    s.y = perDimension(m.mean);
    s.low = perDimension(m.ciLow);
    s.high = perDimension(m.ciHigh);
    c.series.push_back(std::move(s));
  }
  return c;
}

// dH/d log σ = MMSE/σ² with its 95 % interval (the rate coordinate the schedules use).
ChartSpec rateChart(const Profile& p, const std::string& name) {
  const RateSeries* r = p.rate("log_sigma");
  if (!r) throw InputError(name, "the profile has no log-σ rate");
  std::vector<double> low, high;
  for (size_t l = 0; l < r->value.size(); ++l) {
    const double half = kNormal95 * r->standardError[l];
    low.push_back(std::max(0.0, r->value[l] - half));
    high.push_back(r->value[l] + half);
  }
  return profileChart(p, "Conditional-entropy rate, " + name, "dH/dlog σ = MMSE/σ² (nats)",
                      p.kind + ", 95% band", r->value, low, high);
}

void writeBoth(const fs::path& folder, const std::string& stem, const ChartSpec& chart,
               ReportDataset& out) {
  writeChart((folder / (stem + ".svg")).string(), chart);
  writeChart((folder / (stem + ".png")).string(), chart);
  out.files.push_back(stem + ".svg");
  out.files.push_back(stem + ".png");
}

// "Use it in your trainer": the exported schedule's φ fitted with each trainer's own families
// (pipeline::fitForTool, as `noisescope-cli fit` and the Export for… dialog): their JSON, one chart
// per trainer coordinate with each tool's best family over the target, and the section's words
// (io/report_markdown.h).
json trainerSection(const Schedule& exported, double sigmaData, const std::string& source,
                    const fs::path& folder, const std::string& stem, std::ostream& md,
                    ReportDataset& out) {
  const FitTarget target = fitTargetFromSchedule(exported, source);
  schedule::TrainerSettings settings;
  settings.sigmaData = sigmaData;  // the data's, for the tools that read it (k-diffusion)
  std::vector<io::ToolFit> fits;
  for (const std::string& tool : schedule::trainerToolNames())
    fits.push_back(fitForTool(target, tool, settings));
  json all = json::array();
  for (const auto& f : fits) all.push_back(io::toJson(f));
  writeFileAtomically((folder / (stem + "-trainers.json")).string(), all.dump(2) + "\n");
  out.files.push_back(stem + "-trainers.json");

  std::vector<io::ReportTrainerCharts> charts;
  for (TrainerCoordinate c :
       {TrainerCoordinate::FlowTime, TrainerCoordinate::DdpmTime, TrainerCoordinate::Sigma}) {
    std::vector<const io::ToolFit*> group;
    for (const auto& f : fits)
      if (f.coordinateKind == c) group.push_back(&f);
    if (group.empty()) continue;
    const std::string name = stem + "-trainers-" + toString(c);
    writeBoth(folder, name,
              toolOverlayChart(
                  group, std::string("Best family per trainer over the target φ, ") + toString(c)),
              out);
    charts.push_back({toString(c), name + ".png"});
  }
  io::writeReportTrainerSection(md, source, fits, charts, defaults::kTrainerWidth,
                                defaults::kTrainerHeight);
  return all;
}

}  // namespace

ReportRequest reportRequest(const std::vector<std::string>& datasets, const LoadOptions& load,
                            const std::string& outDir, const std::string& producer,
                            ReportRequest settings) {
  settings.datasets = datasets;
  settings.load = load;
  settings.load.progress = {};
  settings.outDir = outDir;
  settings.producer = producer;
  return settings;
}

namespace {

// The diagnostic of one dataset, exactly as the Diagnostic tab's default run: the bracket
// (held-out points by the one rule: the test split beside the file, else a seeded 10 %), or the
// empirical profile alone for a set too small for the bound's two halves. Writes each curve's JSON
// and CSV and the MMSE and rate charts.
struct ReportProfiles {
  bool bracketable = false;
  std::vector<Profile> curves;  // the empirical profile first; the bound (if any) last
  const Profile& empirical() const { return curves.front(); }
  const Profile& scheduled() const { return curves.back(); }  // what the schedules follow
};

ReportProfiles profileDataset(const ReportRequest& request, const std::string& path,
                              const Dataset& d, const fs::path& folder, ReportDataset& out,
                              const Progress& progress) {
  const std::string& stem = out.stem;
  HeldOutRequest held;
  held.seed = request.profile.seed;
  held.load = request.load;
  held.load.progress = {};
  ReportProfiles profiles;
  profiles.bracketable = canBracket(held, path, d.split, d.size());
  if (profiles.bracketable) {
    BracketJob job = runBracket(d, path, held, request.profile, {}, progress);
    for (Profile* p : bracketCurves(job.bracket)) profiles.curves.push_back(std::move(*p));
  } else {
    profiles.curves.push_back(computeEmpiricalProfile(d, request.profile, progress));
  }
  for (Profile& p : profiles.curves) {
    p.provenance["producer"] = request.producer;
    writeProfile((folder / (stem + "." + p.kind + ".profile.json")).string(), p);
    writeProfileCsv((folder / (stem + "." + p.kind + ".profile.csv")).string(), p);
    out.files.push_back(stem + "." + p.kind + ".profile.json");
    out.files.push_back(stem + "." + p.kind + ".profile.csv");
  }
  const Profile& scheduled = profiles.scheduled();
  writeBoth(folder, stem + "-mmse",
            mmseChart(profiles.bracketable
                          ? std::vector<const Profile*>{&profiles.empirical(), &scheduled}
                          : std::vector<const Profile*>{&scheduled},
                      d.name),
            out);
  writeBoth(folder, stem + "-rate", rateChart(scheduled, d.name), out);
  return profiles;
}

// The schedules on the profile (EDM and log-uniform beside InfoNoise and √-entropy, through the
// one recipe pipeline) compared on φ with EDM as the reference; writes the comparison CSV and
// the allocation chart.
struct ReportSchedules {
  std::vector<BuiltSchedule> built;  // EDM, log-uniform, InfoNoise, √-entropy
  Comparison comparison;
  const BuiltSchedule& exported() const { return built[2]; }  // InfoNoise
};

ReportSchedules compareDatasetSchedules(const ReportRequest& request, const Dataset& d,
                                        const Profile& profile, const fs::path& folder,
                                        ReportDataset& out) {
  const std::string& stem = out.stem;
  const LogSigmaGrid grid = LogSigmaGrid::uniform(request.profile.sigmaMin,
                                                  request.profile.sigmaMax, request.scheduleBins);
  RecipeContext context;
  context.profile = &profile;
  context.profileSource = stem + "." + profile.kind + ".profile.json";
  context.datasetSigmaData = measuredSigmaData(d, d.name);
  ReportSchedules result;
  std::vector<Schedule> schedules;
  for (const auto& recipe :
       {presetRecipe("edm"), presetRecipe("log-uniform"), infoNoiseRecipe(), sqrtEntropyRecipe()}) {
    result.built.push_back(buildSchedule(recipe, grid, context));
    schedules.push_back(result.built.back().schedule);
  }
  const RateProfile rates = rateProfileFrom(profile, context.profileSource);
  ComparisonOptions compare;
  compare.grid = grid;
  compare.reference = 0;
  compare.profile = &rates;
  compare.bandGateC = defaults::comparisonBandGateC(profile.kind);
  result.comparison = compareSchedules(schedules, compare);
  writeFileAtomically((folder / (stem + "-comparison.csv")).string(),
                      comparisonToCsv(result.comparison));
  out.files.push_back(stem + "-comparison.csv");
  writeBoth(folder, stem + "-allocation",
            scheduleChart(schedules, result.comparison.labels, grid, Coordinate::LogSigma,
                          Curve::Allocation, result.comparison.bandLow, result.comparison.bandHigh),
            out);
  return result;
}

// The exported schedule (InfoNoise) and its inference σ-steps on the default sampling grid, not
// the schedule's quantiles (pipeline/sampling/sigma_steps.h).
SigmaSteps exportSchedule(const ReportRequest& request, const BuiltSchedule& exported,
                          const fs::path& folder, ReportDataset& out) {
  const std::string& stem = out.stem;
  const json provenance = scheduleProvenance(exported, request.producer);
  writeSchedule((folder / (stem + "-infonoise.schedule.json")).string(), exported.schedule,
                provenance);
  const SigmaSteps steps = sigmaSteps(exported, request.sigmaSteps);
  writeSigmaSteps((folder / (stem + "-infonoise.sigma-steps.json")).string(), steps, provenance);
  out.files.push_back(stem + "-infonoise.schedule.json");
  out.files.push_back(stem + "-infonoise.sigma-steps.json");
  return steps;
}

// What the dataset's section states, from what the report computed.
io::ReportDatasetFacts datasetFacts(const ReportRequest& request, const Dataset& d,
                                    const DatasetStatistics& stats, const ReportProfiles& profiles,
                                    const ReportSchedules& schedules, const SigmaSteps& steps,
                                    double memorising, const std::string& stem) {
  const Profile& profile = profiles.scheduled();
  const BuiltSchedule& exported = schedules.exported();
  const std::string heldOut =
      profiles.bracketable ? profiles.curves[1].provenance.value("query_set", std::string("")) : "";
  return {stem,
          {d.name, d.source, static_cast<int64_t>(d.size()), d.shapeString(), toString(d.kind),
           d.scaling},
          {stats.minValue, stats.maxValue, stats.mean, exported.sigmaData.value,
           stats.nearestNeighbourMedian, memorising},
          {profile.kind, profile.primary().name, profile.levels(), request.profile.queries,
           request.profile.seed, profiles.bracketable, heldOut},
          request.ladderSigmas,
          schedules.comparison.metrics,
          {request.sigmaSteps, steps.label, steps.largestRatio, steps.ratioLimit},
          exported.caveats};
}

// One dataset of the report: loaded, pictured, profiled, its schedules compared and one exported,
// its section written to `md`; returns its summary.json entry.
json reportDataset(const ReportRequest& request, size_t index, const fs::path& folder,
                   std::ostream& md, ReportDataset& out, const Progress& progress) {
  const std::string& path = request.datasets[index];
  LoadOptions load = request.load;
  load.progress = progress.sub(0.0, 0.1);
  const Dataset d = loadDataset(path, load);
  out.name = d.name;
  out.stem = fileStem(d, index);
  const std::string& stem = out.stem;

  const DatasetStatistics stats = datasetStatistics(d);
  writePng((folder / (stem + "-samples.png")).string(), noiseLadder(d, request));
  out.files.push_back(stem + "-samples.png");

  const ReportProfiles profiles =
      profileDataset(request, path, d, folder, out, progress.sub(0.1, 0.9));
  const ReportSchedules schedules =
      compareDatasetSchedules(request, d, profiles.scheduled(), folder, out);
  const BuiltSchedule& exported = schedules.exported();
  const SigmaSteps steps = exportSchedule(request, exported, folder, out);
  const double memorising = memorisationSigma(profiles.empirical());
  io::writeReportDatasetSection(
      md, datasetFacts(request, d, stats, profiles, schedules, steps, memorising, stem));
  const json trainers = trainerSection(exported.schedule, exported.sigmaData.value,
                                       stem + "-infonoise.schedule.json", folder, stem, md, out);
  return {{"dataset", describeDataset(d)},
          {"sigma_data", exported.sigmaData.value},
          {"nearest_neighbour_median", stats.nearestNeighbourMedian},
          {"memorisation_sigma", memorising},
          {"trainers", trainers},
          {"files", out.files}};
}

}  // namespace

ReportResult writeReport(const ReportRequest& request, const Progress& progress) {
  if (request.datasets.empty()) throw InputError("report", "no datasets given");
  std::error_code ec;
  fs::create_directories(request.outDir, ec);
  if (ec) throw InputError(request.outDir, "cannot create the report folder: " + ec.message());
  const fs::path folder = fs::absolute(request.outDir);
  ReportResult result;
  result.folder = folder.string();

  std::ostringstream md;
  io::writeReportIntroduction(md, request.producer);
  json summary = {{"format", "noisescope.report/1"},
                  {"provenance", makeProvenance(request.producer)},
                  {"ladder_sigmas", request.ladderSigmas},
                  {"datasets", json::array()}};
  const double share = 1.0 / static_cast<double>(request.datasets.size());
  for (size_t i = 0; i < request.datasets.size(); ++i) {
    ReportDataset out;
    summary["datasets"].push_back(
        reportDataset(request, i, folder, md, out, progress.sub(share * i, share * (i + 1))));
    result.datasets.push_back(std::move(out));
  }
  writeFileAtomically((folder / "summary.json").string(), summary.dump(2) + "\n");
  writeFileAtomically((folder / "README.md").string(), md.str());
  progress.report(1.0, "report written");
  return result;
}

}  // namespace noisescope::pipeline
