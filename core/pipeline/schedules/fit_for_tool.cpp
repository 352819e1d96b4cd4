#include "pipeline/schedules/fit_for_tool.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "data/formats/latent_spaces.h"
#include "pipeline/defaults.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "profile/profile.h"
#include "schedule/allocation.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::pipeline {

using namespace noisescope::schedule;
using namespace noisescope::render;

namespace {
// A chart's groups of bins: 3 or 4 table values per bin draw a smooth φ as a saw of ±14 %;
// eight or more per group leave a few per cent. Where the table is sparse, three bins with a
// value close a group.
constexpr int kChartValuesPerGroup = 8, kChartBinsPerGroup = 3;

LogSigmaGrid defaultGrid() {
  return LogSigmaGrid::uniform(defaults::kSigmaMin, defaults::kSigmaMax, defaults::kBins);
}
}  // namespace

FitTarget fitTargetFromScheduleFile(const std::string& path) {
  // Read as written (a file recipe keeps its own grid), as the Schedules tab loads it.
  const BuiltSchedule built = buildSchedule(fileRecipe(path), defaultGrid());
  return fitTargetFromSchedule(built.schedule, path);
}

FitTarget fitTargetFromSchedule(const Schedule& schedule, const std::string& source) {
  if (schedule.empty()) throw InputError(source, "the schedule is empty");
  return {effectiveAllocation(schedule), source, schedule.info.note(kLatentsNote)};
}

namespace {

// What fitting `tool` training `model` assumes about the target's σ scale, in words.
std::string latentScaleForFit(const std::string& latents, const std::string& tool,
                              const std::string& model) {
  if (latents.empty()) return {};
  const std::string pair = tool + ":" + model;
  const LatentCacheKind* kind = findLatentCacheKind(pair);
  const LatentCacheKind* recorded = findLatentCacheKind(latents);
  if (latents == pair)
    return "the profile's latents were put on the scale " + tool + " noises " + model +
           " (read as " + pair + " latents)";
  if (latents != kLatentsAsCached) {
    const std::string note = "the profile's latents were put on the scale of " + latents;
    if (kind && recorded && kind->vae == recorded->vae)
      return note + ", the same " + kind->vae + " VAE normalisation as " + pair + "'s";
    if (kind && recorded)
      return note + ", the " + recorded->vae + " VAE's, but " + pair + " trains on the " +
             kind->vae + " VAE's: σ is on the wrong scale; read the cache again as " + pair +
             " latents";
    return note + "; this fit takes that scale as the one " + tool + " noises " + model;
  }
  const std::string known = latentsAsCachedNote(tool, model);
  if (!known.empty()) return "the profile's latents are as cached: " + known;
  return "the profile's latents are as cached, and NoiseScope has no record of what " + tool +
         " caches for " + model + ": this fit assumes they are on the scale it noises";
}

}  // namespace

FitTarget fitTargetFromProfile(const Profile& profile, const std::string& profileSource,
                               const std::string& method) {
  ScheduleRecipe recipe;
  if (method == "infonoise")
    recipe = infoNoiseRecipe();
  else if (method == "sqrt-entropy")
    recipe = sqrtEntropyRecipe();
  else
    throw InputError(settings::kScheduleMethod,
                     "'" + method + "' is not one of: infonoise, sqrt-entropy");
  RecipeContext context;
  context.profile = &profile;
  context.profileSource = profileSource;
  // The grid `noisescope-cli schedule --profile` and the Schedules tab use by default, so all
  // three give the same target.
  const BuiltSchedule built = buildSchedule(recipe, defaultGrid(), context);
  FitTarget target = fitTargetFromSchedule(built.schedule, method + " from " + profileSource);
  target.latents = latentScaleOfProfile(profile);
  return target;
}

std::vector<std::pair<double, double>> modelErrorFromProfile(const Profile& profile,
                                                             const std::string& source) {
  std::vector<std::pair<double, double>> error;
  if (!profile.estimates.empty()) {
    const auto& mean = profile.estimates.front().mean;
    for (std::size_t i = 0; i < profile.sigma.size() && i < mean.size(); ++i)
      if (profile.sigma[i] > 0.0 && std::isfinite(mean[i]) && mean[i] > 0.0)
        error.emplace_back(profile.sigma[i], mean[i]);
  }
  if (error.empty())
    throw InputError(source, "the profile has no σ level with a positive MMSE to weight by");
  std::sort(error.begin(), error.end());
  return error;
}

io::ToolFit fitForTool(const FitTarget& target, const std::string& tool,
                       const TrainerSettings& settings) {
  const TrainerTool t = trainerTool(tool, settings);
  io::ToolFit out;
  out.tool = t.name;
  out.model = t.model;
  out.modelNote = t.modelNote;
  out.discretisation = t.discretisation;
  out.coordinate = toString(t.coordinate);
  out.coordinateKind = t.coordinate;
  out.lossSpace = t.lossSpace;
  out.knob = t.knob;
  out.latentScale = latentScaleForFit(target.latents, t.name, t.model);
  out.sigmaMin = t.sigmaMin;
  out.sigmaMax = t.sigmaMax;
  const Schedule& phi = target.allocation;
  out.grid =
      phi.isAtomic() ? LogSigmaGrid::uniform(phi.sigmaMin(), phi.sigmaMax(), 256) : phi.grid();
  out.target = phi.massesOn(out.grid);
  double total = 0.0;
  for (double m : out.target) total += m;
  if (!(total > 0.0)) throw InputError(target.source, "the target allocation has no mass");
  for (auto& m : out.target) m /= total;
  out.targetMassReachable = 0.0;
  for (int b = 0; b < out.grid.bins(); ++b) {
    const double s = std::exp(out.grid.center(b));
    if (s >= t.sigmaMin && s <= t.sigmaMax) out.targetMassReachable += out.target[b];
  }
  out.fits = fitTrainerTool(t, out.grid, out.target);
  out.groups = comparisonGroups(t, out.grid);
  out.chartGroups = comparisonGroups(t, out.grid, kChartValuesPerGroup, kChartBinsPerGroup);
  return out;
}

namespace {

// A family's φ spread over each group of bins in log σ: a table's values drawn as a density, not
// as spikes in the bins that happen to hold one.
std::vector<double> spreadOverGroups(const io::ToolFit& fit, const std::vector<double>& masses) {
  const std::vector<int>& g = fit.chartGroups;
  if (g.size() != masses.size()) return masses;
  const int groups = g.empty() ? 0 : g.back() + 1;
  std::vector<double> mass(groups, 0.0), width(groups, 0.0);
  for (std::size_t b = 0; b < masses.size(); ++b) {
    mass[g[b]] += masses[b];
    width[g[b]] += fit.grid.width(static_cast<int>(b));
  }
  std::vector<double> out(masses.size());
  for (std::size_t b = 0; b < masses.size(); ++b)
    out[b] = mass[g[b]] * fit.grid.width(static_cast<int>(b)) / width[g[b]];
  return out;
}

ToolCurve curveOf(const io::ToolFit& fit, const std::vector<double>& masses, std::string label) {
  ToolCurve c;
  c.label = std::move(label);
  const LogSigmaGrid& g = fit.grid;
  for (int b = 0; b < g.bins(); ++b) {
    double width = g.width(b), x = std::exp(g.center(b));
    if (fit.coordinateKind != TrainerCoordinate::Sigma) {
      const double lo = trainerCoordinate(std::exp(g.edges[b]), fit.coordinateKind);
      const double hi = trainerCoordinate(std::exp(g.edges[b + 1]), fit.coordinateKind);
      // Flow time is drawn on a log axis (per unit log t): under a velocity or ε loss most of φ
      // lies below t = 0.05, a spike against a linear axis.
      width = fit.coordinateKind == TrainerCoordinate::FlowTime
                  ? (lo > 0.0 && hi > 0.0 ? std::abs(std::log(hi) - std::log(lo)) : 0.0)
                  : std::abs(hi - lo);
      x = trainerCoordinate(x, fit.coordinateKind);
    }
    if (!(width > 1e-12)) continue;  // beyond what the tool's coordinate reaches
    c.x.push_back(x);
    c.y.push_back(masses[b] / width);
  }
  return c;
}

}  // namespace

ToolOverlay toolOverlay(const io::ToolFit& fit) {
  ToolOverlay o;
  switch (fit.coordinateKind) {
    case TrainerCoordinate::FlowTime:
      o.xLabel = "rectified-flow time t = σ/(1+σ), log scale (" + fit.tool + "'s coordinate)";
      o.yLabel = "effective allocation φ per unit log t";
      o.logX = true;
      break;
    case TrainerCoordinate::DdpmTime:
      o.xLabel = "DDPM timestep k/1000, SD's scaled-linear table (" + fit.tool + "'s coordinate)";
      o.yLabel = "effective allocation φ per unit k/1000";
      break;
    case TrainerCoordinate::Sigma:
      o.xLabel = "noise level σ, log scale (" + fit.tool + "'s coordinate)";
      o.yLabel = "effective allocation φ per unit log σ";
      o.logX = true;
      break;
  }
  o.target = curveOf(fit, fit.target, "target φ");
  for (const auto& f : fit.fits) {
    const std::string params = io::knobText(f, "%.3g", "=", ", ");
    o.fits.push_back(curveOf(fit, spreadOverGroups(fit, f.masses),
                             f.family + (params.empty() ? "" : " (" + params + ")")));
  }
  return o;
}

ChartSpec toolOverlayChart(const std::vector<const io::ToolFit*>& fits, const std::string& title) {
  if (fits.empty()) throw InputError("trainer chart", "no fits to draw");
  ChartSpec c;
  c.title = title;
  const ToolOverlay first = toolOverlay(*fits.front());
  c.xLabel = first.xLabel.substr(0, first.xLabel.rfind(" ("));  // shared by every tool drawn
  c.yLabel = first.yLabel;
  c.logX = first.logX;
  ChartSeries target;
  target.label = "target φ";
  target.x = first.target.x;
  target.y = first.target.y;
  c.series.push_back(std::move(target));
  for (const io::ToolFit* fit : fits) {
    if (fit->coordinateKind != fits.front()->coordinateKind)
      throw InputError("trainer chart", "the tools drawn together must share one coordinate");
    if (fit->fits.empty()) continue;
    const ToolOverlay o = toolOverlay(*fit);
    ChartSeries s;
    char metrics[64];  // first, so a legend that shortens long names still shows it
    std::snprintf(metrics, sizeof metrics, " (TV %.3f): ", fit->fits.front().tv);
    s.label = fit->tool + metrics + o.fits.front().label;
    s.x = o.fits.front().x;
    s.y = o.fits.front().y;
    c.series.push_back(std::move(s));
  }
  return c;
}

}  // namespace noisescope::pipeline
