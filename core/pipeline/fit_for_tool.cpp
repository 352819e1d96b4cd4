#include "pipeline/fit_for_tool.h"

#include <cmath>
#include <cstdio>

#include "pipeline/schedule_recipe.h"
#include "profile/profile.h"
#include "schedule/allocation.h"
#include "util/error.h"

namespace noisescope::pipeline {

using namespace noisescope::schedule;

FitTarget fitTargetFromScheduleFile(const std::string& path) {
  const BuiltSchedule built = buildSchedule(fileRecipe(path), LogSigmaGrid::uniform());
  return {effectiveAllocation(built.schedule), path};
}

FitTarget fitTargetFromProfile(const Profile& profile, const std::string& profileSource,
                               const std::string& method) {
  ScheduleRecipe recipe;
  if (method == "infonoise")
    recipe = infoNoiseRecipe();
  else if (method == "sqrt-entropy")
    recipe = sqrtEntropyRecipe();
  else
    throw InputError("--method", "'" + method + "' is not one of: infonoise, sqrt-entropy");
  RecipeContext context;
  context.profile = &profile;
  context.profileSource = profileSource;
  // The grid `noisescope-cli schedule --profile` uses by default, so both give the same target.
  const BuiltSchedule built = buildSchedule(recipe, LogSigmaGrid::uniform(), context);
  return {effectiveAllocation(built.schedule), method + " from " + profileSource};
}

ToolFit fitForTool(const FitTarget& target, const std::string& tool,
                   const TrainerSettings& settings) {
  const TrainerTool t = trainerTool(tool, settings);
  ToolFit out;
  out.tool = t.name;
  out.coordinate = toString(t.coordinate);
  out.lossSpace = t.lossSpace;
  out.knob = t.knob;
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
  return out;
}

nlohmann::json toJson(const ToolFit& fit) {
  nlohmann::json fits = nlohmann::json::array();
  for (const auto& f : fit.fits) {
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [name, value] : f.parameters) params[name] = value;
    fits.push_back({{"family", f.family},
                    {"params", params},
                    {"kl", f.kl},
                    {"kl_reverse", f.klReverse},
                    {"tv", f.tv},
                    {"snippet", f.snippet}});
  }
  return {{"tool", fit.tool}, {"coordinate", fit.coordinate}, {"fits", fits}};
}

std::string formatToolFit(const ToolFit& fit) {
  char line[512];
  std::string out;
  std::snprintf(line, sizeof line,
                "%s: draws in %s, loss in %s; knobs go in %s\n"
                "reachable sigma: %.4g .. %.4g (%.1f %% of the target's phi lies there)\n",
                fit.tool.c_str(), fit.coordinate.c_str(), fit.lossSpace.c_str(), fit.knob.c_str(),
                fit.sigmaMin, fit.sigmaMax, 100.0 * fit.targetMassReachable);
  out += line;
  std::snprintf(line, sizeof line, "%-14s %10s %10s %8s  parameters\n", "family", "KL(t||f)",
                "KL(f||t)", "TV");
  out += line;
  for (const auto& f : fit.fits) {
    std::string params;
    for (const auto& [name, value] : f.parameters) {
      char p[96];
      std::snprintf(p, sizeof p, "%s%s=%.4g", params.empty() ? "" : " ", name.c_str(), value);
      params += p;
    }
    std::snprintf(line, sizeof line, "%-14s %10.4f %10.4f %8.4f  %s\n", f.family.c_str(), f.kl,
                  f.klReverse, f.tv, params.empty() ? "(no knob)" : params.c_str());
    out += line;
  }
  out += "\n";
  for (const auto& f : fit.fits) {
    out += "# " + f.family + " (" + f.note + ")\n" + f.snippet + "\n\n";
  }
  return out;
}

}  // namespace noisescope::pipeline
