#pragma once
// Recipes → schedules: the one place where every face (the Schedules panel, `noisescope-cli
// schedule`, the headless report) turns what the user asked for into a Schedule, the allocation
// its inference σ-steps are quantiles of, and the provenance parameters every schedule file
// carries. A face fills a recipe, calls buildSchedule and formats the result; it never assembles
// a schedule or its provenance itself, so the same recipe gives the same file from either face.
//
// Usage (the report job, for example):
//   RecipeContext context;
//   context.profile = &profile;              // entropic recipes: the profile ...
//   context.profileSource = "profile.json";  // ... and where it came from (recorded)
//   context.datasetSigmaData = measuredSigmaData(dataset, "cifar10");  // when a dataset is known
//   using namespace defaults;  // pipeline/defaults.h
//   const LogSigmaGrid grid = LogSigmaGrid::uniform(kSigmaMin, kSigmaMax, kBins);
//   BuiltSchedule edm = buildSchedule(presetRecipe("edm"), grid, context);
//   BuiltSchedule info = buildSchedule(infoNoiseRecipe(), grid, context);
//   BuiltSchedule sqrt = buildSchedule(sqrtEntropyRecipe(Coordinate::LogSigma), grid, context);
//   writeSchedule(path, info.schedule, scheduleProvenance(info, "noisescope-cli report"));
//   writeSigmaSteps(stepsPath, sigmaSteps(info, 18), ...);  // see pipeline/sampling/sigma_steps.h
// σ_data (the EDM weight's σ_d): a value given in the recipe wins; else an entropic recipe's
// profile's recorded σ_data; else the context's measured dataset σ_data; else
// defaults::kSigmaDataFallback, and the
// schedule's notes say which ("sigma_data_source").
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/defaults.h"
#include "schedule/coordinates.h"
#include "schedule/families.h"
#include "schedule/loss_weight.h"
#include "schedule/schedule.h"

namespace noisescope {
struct Dataset;
struct Profile;
}  // namespace noisescope

namespace noisescope::pipeline {

// "default 0.5 (no data known)": the source recorded with defaults::kSigmaDataFallback.
std::string fallbackSigmaDataSource();

// A σ_data value and where it came from, as written into the schedule file.
struct SigmaDataChoice {
  double value = defaults::kSigmaDataFallback;
  std::string source = fallbackSigmaDataSource();
};
SigmaDataChoice defaultSigmaData();
SigmaDataChoice givenSigmaData(double value);  // "given"; InputError unless finite and > 0
// measureSigmaData(dataset) (data/statistics.h), "measured from NAME".
SigmaDataChoice measuredSigmaData(const Dataset& dataset, const std::string& name);
// The profile's recorded σ_data ("from profile SOURCE"); nullopt when it records none (≤ 0).
std::optional<SigmaDataChoice> profileSigmaData(const Profile& profile, const std::string& source);

struct ScheduleRecipe {
  enum class Kind {
    Preset,       // a named preset (its family, parameter values and customary loss weight)
    Family,       // a family with parameter values
    InfoNoise,    // entropic, from a profile: φ = ρ ∝ rate·gate, π ∝ ρ/w
    SqrtEntropy,  // entropic, from a profile: π(u) ∝ √(dH/du) in sqrtCoordinate
    Table,        // a density table file (sigma, density)
    File,         // a schedule file (JSON, CSV, HDF5), as written
    Fixed         // a schedule already built elsewhere (an atomic design, a loaded file)
  };
  Kind kind = Kind::Family;
  std::string name;  // display name (the panel's list); not part of the provenance

  // Preset: the preset's name; `family` and `parameters` hold its values and any edits.
  std::string preset;
  // Family (and Preset): which family, and its parameter values.
  std::string family = "edm";
  schedule::ParameterValues parameters;

  // Entropic: the panel's name for the profile (the CLI leaves it empty; the context's profile is
  // used), and the rule's settings. Gate c = 0 turns the gate off.
  std::string profileName;
  double gateC = defaults::kGateC, gateN = defaults::kGateN, smoothing = 0.0;
  schedule::Coordinate sqrtCoordinate = schedule::Coordinate::LogSigma;

  // Table and File: the path; Table: the coordinate of the table's density (a density_<coordinate>
  // column overrides it).
  std::string path;
  schedule::Coordinate tableCoordinate = schedule::Coordinate::Sigma;

  // Fixed: the schedule with the provenance parameters that made it (see designAtomic).
  std::shared_ptr<const schedule::Schedule> fixed;
  std::shared_ptr<const schedule::Schedule> fixedAllocation;  // its ρ, when it has one
  nlohmann::json fixedParameters = nlohmann::json::object();

  // The loss weight's kind and γ (File and Fixed keep their own). Its σ_data is resolved as the
  // header comment says; set `sigmaData` to give one.
  schedule::LossWeight weight;
  std::optional<double> sigmaData;
};

// What a build needs besides the recipe.
struct RecipeContext {
  const Profile* profile = nullptr;  // entropic recipes (the panel: looked up by profileName)
  std::string profileSource;         // its file (or description), recorded in the schedule
  std::optional<SigmaDataChoice> datasetSigmaData;  // measured σ_data of the known dataset
};

struct BuiltSchedule {
  schedule::Schedule schedule;
  // Entropic recipes: ρ, the entropic allocation their σ-steps are quantiles of. Otherwise empty
  // and the σ-steps use the schedule's effective allocation φ = π·w.
  std::optional<schedule::Schedule> allocation;
  SigmaDataChoice sigmaData;
  // The provenance "parameters" block: recipe kind, its settings, the grid, the loss weight and
  // σ_data with its source. Identical whichever face built it.
  nlohmann::json parameters = nlohmann::json::object();
  // What the user must know about it (pipeline/schedules/caveats.h): an entropic schedule from an
  // empirical profile says below which σ that profile memorises. Also in parameters["caveats"]
  // and the schedule's note "caveat"; the CLI prints them on stderr, the GUI beside the schedule.
  std::vector<std::string> caveats;
};

// A profile's latent scale, from its dataset's provenance: "" (not a latent cache),
// kLatentsAsCached, or the "TOOL:MODEL" whose noise scale the latents were put on. An entropic
// schedule from the profile keeps it as its note kLatentsNote (data/formats/latent_spaces.h).
std::string latentScaleOfProfile(const Profile& profile);

// Throws InputError with a readable message on bad settings or a missing profile.
BuiltSchedule buildSchedule(const ScheduleRecipe& recipe, const schedule::LogSigmaGrid& grid,
                            const RecipeContext& context = {});

// makeProvenance(producer, built.parameters): the block writeSchedule takes.
nlohmann::json scheduleProvenance(const BuiltSchedule& built, const std::string& producer);

// A family's parameters given as "key=value" items (the CLI's repeated --param): InputError
// naming `option` and the item for anything that is not a key and a finite number.
schedule::ParameterValues parseParameters(const std::vector<std::string>& items,
                                          const std::string& option);

// Recipes with their defaults.
ScheduleRecipe presetRecipe(const std::string& preset);  // the preset's loss weight
ScheduleRecipe familyRecipe(const std::string& family,
                            const schedule::ParameterValues& parameters = {});  // uniform weight
ScheduleRecipe infoNoiseRecipe(const std::string& profileName = {});  // EDM weight, kGateC
ScheduleRecipe sqrtEntropyRecipe(schedule::Coordinate coordinate = schedule::Coordinate::LogSigma,
                                 const std::string& profileName = {});  // uniform weight, no gate
ScheduleRecipe tableRecipe(const std::string& path, schedule::Coordinate coordinate);
ScheduleRecipe fileRecipe(const std::string& path);
// A schedule spec string (io/schedule_spec.h: "edm", "family:vp?beta_d=18&weight=epsilon",
// "file.json") as a recipe.
ScheduleRecipe recipeFromSpec(const std::string& spec);

// "preset", "family", "infonoise", "sqrt-entropy", "table", "file", "fixed".
std::string toString(ScheduleRecipe::Kind kind);

}  // namespace noisescope::pipeline
