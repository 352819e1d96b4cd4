#include "ui/schedule_recipe.h"

#include "diagnostic/profile.h"
#include "util/error.h"

namespace noisescope::ui {

using namespace noisescope::schedule;

Schedule buildSchedule(const ScheduleRecipe& recipe, const LogSigmaGrid& grid,
                       const Profile* profile) {
  switch (recipe.kind) {
    case ScheduleRecipe::Kind::Family:
      return makeFamilySchedule(recipe.family, recipe.parameters, grid, recipe.weight);
    case ScheduleRecipe::Kind::InfoNoise:
    case ScheduleRecipe::Kind::SqrtEntropy: {
      if (!profile)
        throw InputError(recipe.name, "its profile '" + recipe.profileName +
                                          "' is no longer loaded; pick another profile");
      const RateProfile rates = rateProfileFrom(*profile, recipe.profileName);
      if (recipe.kind == ScheduleRecipe::Kind::InfoNoise) {
        InfoNoiseOptions options;
        options.gateC = recipe.gateC;
        options.gateN = recipe.gateN;
        options.smoothing = recipe.smoothing;
        options.weight = recipe.weight;
        return infoNoiseSchedule(rates, grid, options);
      }
      SqrtEntropyOptions options;
      options.coordinate = recipe.sqrtCoordinate;
      options.gateC = recipe.gateC;
      options.gateN = recipe.gateN;
      options.smoothing = recipe.smoothing;
      options.weight = recipe.weight;
      return sqrtEntropySchedule(rates, grid, options);
    }
    case ScheduleRecipe::Kind::Fixed:
      if (!recipe.fixed) throw InputError(recipe.name, "holds no schedule");
      return *recipe.fixed;
  }
  throw InputError(recipe.name, "unknown schedule kind");
}

ScheduleRecipe presetRecipe(const std::string& presetName) {
  const Preset& p = preset(presetName);
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::Family;
  recipe.name = p.label;
  recipe.family = p.family;
  recipe.parameters = completeParameters(family(p.family), p.parameters, p.name);
  recipe.weight = presetLossWeight(p.name);
  return recipe;
}

}  // namespace noisescope::ui
