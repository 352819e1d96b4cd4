#include "pipeline/schedules/schedule_recipe.h"

#include <cmath>

#include "data/formats/latent_spaces.h"
#include "data/statistics.h"
#include "io/provenance.h"
#include "io/schedule_io.h"
#include "io/schedule_spec.h"
#include "pipeline/schedules/caveats.h"
#include "profile/profile.h"
#include "schedule/entropic.h"
#include "util/error.h"
#include "util/spec_string.h"

namespace noisescope::pipeline {

using namespace noisescope::schedule;
using nlohmann::json;

std::string fallbackSigmaDataSource() {
  return "default " + defaults::formatDefault(defaults::kSigmaDataFallback) + " (no data known)";
}

SigmaDataChoice defaultSigmaData() {
  return {};
}

SigmaDataChoice givenSigmaData(double value) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw InputError("σ_data", "must be a finite number > 0, not " + std::to_string(value));
  return {value, "given"};
}

SigmaDataChoice measuredSigmaData(const Dataset& dataset, const std::string& name) {
  return {measureSigmaData(dataset), "measured from " + name};
}

std::optional<SigmaDataChoice> profileSigmaData(const Profile& profile, const std::string& source) {
  if (!(profile.sigmaData > 0.0)) return std::nullopt;
  return SigmaDataChoice{profile.sigmaData, "from profile " + source};
}

std::string toString(ScheduleRecipe::Kind kind) {
  switch (kind) {
    case ScheduleRecipe::Kind::Preset:
      return "preset";
    case ScheduleRecipe::Kind::Family:
      return "family";
    case ScheduleRecipe::Kind::InfoNoise:
      return "infonoise";
    case ScheduleRecipe::Kind::SqrtEntropy:
      return "sqrt-entropy";
    case ScheduleRecipe::Kind::Table:
      return "table";
    case ScheduleRecipe::Kind::File:
      return "file";
    case ScheduleRecipe::Kind::Fixed:
      return "fixed";
  }
  return "unknown";
}

namespace {

bool isEntropic(const ScheduleRecipe& r) {
  return r.kind == ScheduleRecipe::Kind::InfoNoise || r.kind == ScheduleRecipe::Kind::SqrtEntropy;
}

SigmaDataChoice resolveSigmaData(const ScheduleRecipe& recipe, const RecipeContext& context) {
  if (recipe.sigmaData) return givenSigmaData(*recipe.sigmaData);
  if (isEntropic(recipe) && context.profile)
    if (auto fromProfile = profileSigmaData(*context.profile, context.profileSource))
      return *fromProfile;
  if (context.datasetSigmaData) return *context.datasetSigmaData;
  return defaultSigmaData();
}

RateProfile ratesOf(const ScheduleRecipe& recipe, const RecipeContext& context) {
  if (!context.profile) {
    const std::string what =
        recipe.profileName.empty() ? "its profile" : "its profile '" + recipe.profileName + "'";
    throw InputError(recipe.name.empty() ? toString(recipe.kind) : recipe.name,
                     what + " is not loaded; load or pick a profile");
  }
  const std::string source = context.profileSource.empty()
                                 ? (recipe.profileName.empty() ? "profile" : recipe.profileName)
                                 : context.profileSource;
  return rateProfileFrom(*context.profile, source);
}

// ρ ∝ rate·gate: the entropic allocation both entropic rules start from.
InfoNoiseOptions allocationOptions(const ScheduleRecipe& recipe, const LossWeight& weight) {
  InfoNoiseOptions o;
  o.gateC = recipe.gateC;
  o.gateN = recipe.gateN;
  o.smoothing = recipe.smoothing;
  o.weight = weight;
  return o;
}

json parametersJson(const ParameterValues& values) {
  json out = json::object();
  for (const auto& [key, value] : values) out[key] = value;
  return out;
}

}  // namespace

std::string latentScaleOfProfile(const Profile& profile) {
  const nlohmann::json& provenance = profile.provenance;
  if (!provenance.is_object() || !provenance.contains("dataset")) return {};
  const nlohmann::json& dataset = provenance["dataset"];
  if (!dataset.is_object() || !dataset.contains("latents")) return {};
  const nlohmann::json& latents = dataset["latents"];
  if (latents.is_object() && latents.contains("normalised_for") &&
      latents["normalised_for"].is_string())
    return latents["normalised_for"].get<std::string>();
  return kLatentsAsCached;
}

BuiltSchedule buildSchedule(const ScheduleRecipe& recipe, const LogSigmaGrid& grid,
                            const RecipeContext& context) {
  BuiltSchedule out;
  json& p = out.parameters;
  p["recipe"] = toString(recipe.kind);

  // Schedules read or computed elsewhere keep their own weight and σ_data.
  if (recipe.kind == ScheduleRecipe::Kind::File) {
    out.schedule = readSchedule(recipe.path);
    p["from"] = recipe.path;
    out.sigmaData = {out.schedule.lossWeight.sigmaData, "from schedule file " + recipe.path};
  } else if (recipe.kind == ScheduleRecipe::Kind::Fixed) {
    if (!recipe.fixed) throw InputError(recipe.name, "holds no schedule");
    out.schedule = *recipe.fixed;
    if (recipe.fixedAllocation) out.allocation = *recipe.fixedAllocation;
    for (const auto& [key, value] : recipe.fixedParameters.items()) p[key] = value;
    out.sigmaData = {out.schedule.lossWeight.sigmaData,
                     out.schedule.info.note("sigma_data_source", "recorded in the schedule")};
  } else {
    out.sigmaData = resolveSigmaData(recipe, context);
    LossWeight weight = recipe.weight;
    weight.sigmaData = out.sigmaData.value;
    p["grid"] = {
        {"sigma_min", grid.sigmaMin()}, {"sigma_max", grid.sigmaMax()}, {"bins", grid.bins()}};
    switch (recipe.kind) {
      case ScheduleRecipe::Kind::Preset:
        out.schedule = makePresetSchedule(recipe.preset, grid, recipe.parameters);
        out.schedule.lossWeight = weight;
        p["preset"] = recipe.preset;
        p["family"] = preset(recipe.preset).family;
        p["family_parameters"] = parametersJson(recipe.parameters);
        break;
      case ScheduleRecipe::Kind::Family:
        out.schedule = makeFamilySchedule(recipe.family, recipe.parameters, grid, weight);
        p["family"] = recipe.family;
        p["family_parameters"] = parametersJson(recipe.parameters);
        break;
      case ScheduleRecipe::Kind::InfoNoise:
      case ScheduleRecipe::Kind::SqrtEntropy: {
        const RateProfile rates = ratesOf(recipe, context);
        out.allocation = infoNoiseAllocation(rates, grid, allocationOptions(recipe, weight));
        if (recipe.kind == ScheduleRecipe::Kind::InfoNoise) {
          out.schedule = infoNoiseSchedule(rates, grid, allocationOptions(recipe, weight));
        } else {
          // The same gate, smoothing and weight as its allocation ρ, in the chosen coordinate.
          const InfoNoiseOptions gated = allocationOptions(recipe, weight);
          const SqrtEntropyOptions o{recipe.sqrtCoordinate, gated.gateC, gated.gateN, gated.weight,
                                     gated.smoothing};
          out.schedule = sqrtEntropySchedule(rates, grid, o);
          p["sqrt_coordinate"] = toString(recipe.sqrtCoordinate);
        }
        p["profile"] = rates.source;
        p["gate_c"] = recipe.gateC;
        p["gate_n"] = recipe.gateN;
        p["smoothing"] = recipe.smoothing;
        // The schedule knows the kind of profile it follows, and says what that means.
        p["profile_kind"] = context.profile->kind;
        // A latent cache's profile: the fit for a trainer must know whose σ scale it is on.
        const std::string latents = latentScaleOfProfile(*context.profile);
        if (!latents.empty()) {
          p["profile_latents"] = latents;
          out.schedule.info.setNote(kLatentsNote, latents);
        }
        out.caveats = entropicScheduleCaveats(*context.profile);
        if (!out.caveats.empty()) {
          p["caveats"] = out.caveats;
          out.schedule.info.setNote("caveat", out.caveats.front());
        }
        break;
      }
      case ScheduleRecipe::Kind::Table:
        out.schedule = readTableSchedule(recipe.path, grid, recipe.tableCoordinate);
        out.schedule.lossWeight = weight;
        p["table"] = recipe.path;
        p["table_coordinate"] = toString(recipe.tableCoordinate);
        break;
      case ScheduleRecipe::Kind::File:
      case ScheduleRecipe::Kind::Fixed:
        break;
    }
    p["loss_weight"] = {{"kind", weight.name()}, {"gamma", weight.gamma}};
  }
  p["sigma_data"] = out.sigmaData.value;
  p["sigma_data_source"] = out.sigmaData.source;
  out.schedule.info.setParameter("sigma_data", out.sigmaData.value);
  out.schedule.info.setNote("sigma_data_source", out.sigmaData.source);
  return out;
}

json scheduleProvenance(const BuiltSchedule& built, const std::string& producer) {
  return makeProvenance(producer, built.parameters);
}

ScheduleRecipe presetRecipe(const std::string& presetName) {
  const Preset& p = preset(presetName);
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::Preset;
  recipe.name = p.label;
  recipe.preset = p.name;
  recipe.family = p.family;
  recipe.parameters = completeParameters(family(p.family), p.parameters, p.name);
  recipe.weight = presetLossWeight(p.name);
  return recipe;
}

ScheduleRecipe familyRecipe(const std::string& familyName, const ParameterValues& parameters) {
  const FamilyDescriptor& f = family(familyName);
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::Family;
  recipe.name = f.label;
  recipe.family = f.name;
  recipe.parameters = completeParameters(f, parameters, "family " + f.name);
  recipe.weight = LossWeight{LossWeight::Kind::Uniform};
  return recipe;
}

ScheduleRecipe infoNoiseRecipe(const std::string& profileName) {
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::InfoNoise;
  recipe.name = profileName.empty() ? "InfoNoise" : "InfoNoise (" + profileName + ")";
  recipe.profileName = profileName;
  recipe.gateC = defaults::kGateC;
  recipe.weight = LossWeight{LossWeight::Kind::Edm};
  return recipe;
}

ScheduleRecipe sqrtEntropyRecipe(Coordinate coordinate, const std::string& profileName) {
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::SqrtEntropy;
  recipe.name = profileName.empty() ? "√-entropy" : "√-entropy (" + profileName + ")";
  recipe.profileName = profileName;
  // Gated as InfoNoise is: below the gate a bound's rate is its looseness and an empirical
  // profile's is memorisation, not information (ungated, about 30 % of φ from the Fashion-MNIST
  // sample's bound lay below σ = 0.05). Gate c = 0 turns it off.
  recipe.gateC = defaults::kGateC;
  recipe.gateN = defaults::kGateN;
  recipe.sqrtCoordinate = coordinate;
  recipe.weight = LossWeight{LossWeight::Kind::Uniform};
  return recipe;
}

ScheduleRecipe tableRecipe(const std::string& path, Coordinate coordinate) {
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::Table;
  recipe.name = path;
  recipe.path = path;
  recipe.tableCoordinate = coordinate;
  return recipe;
}

ScheduleRecipe fileRecipe(const std::string& path) {
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::File;
  recipe.name = path;
  recipe.path = path;
  return recipe;
}

ScheduleRecipe recipeFromSpec(const std::string& text) {
  const ScheduleSpec spec = parseScheduleSpec(text);
  if (spec.isFile) return fileRecipe(text);
  ScheduleRecipe recipe;
  if (spec.isFamily) {
    recipe = familyRecipe(spec.name, spec.values);
  } else {
    recipe = presetRecipe(spec.name);
    for (const auto& [key, value] : spec.values) recipe.parameters[key] = value;
    recipe.parameters = completeParameters(family(recipe.family), recipe.parameters, text);
  }
  const double gamma = spec.gamma.value_or(recipe.weight.gamma);
  if (!spec.weightName.empty()) recipe.weight = makeLossWeight(spec.weightName, 0.5, gamma, text);
  recipe.weight.gamma = gamma;
  recipe.sigmaData = spec.sigmaData;  // unset: resolved from the profile or dataset at build time
  recipe.name = text;
  return recipe;
}

schedule::ParameterValues parseParameters(const std::vector<std::string>& items,
                                          const std::string& option) {
  schedule::ParameterValues out;
  for (const std::string& item : items) {
    const auto [key, value] = parseKeyValue(item, option);
    out[key] = specNumber(option, key, value);
  }
  return out;
}

}  // namespace noisescope::pipeline
