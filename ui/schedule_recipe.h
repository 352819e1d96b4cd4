#pragma once
// How the Schedules panel remembers each schedule: not the numbers, but the recipe that makes
// them (a family with its parameters, an entropic rule applied to a named profile, an atomic
// design result, a file), so editing a parameter or changing the grid rebuilds it exactly.
#include <map>
#include <memory>
#include <string>

#include "schedule/coordinates.h"
#include "schedule/entropic.h"
#include "schedule/families.h"
#include "schedule/loss_weight.h"
#include "schedule/schedule.h"

namespace noisescope {
struct Profile;
}

namespace noisescope::ui {

struct ScheduleRecipe {
  enum class Kind { Family, InfoNoise, SqrtEntropy, Fixed };
  Kind kind = Kind::Family;
  std::string name;  // display name in the list

  // Family: which one and its parameter values (presets are families with their values).
  std::string family = "edm";
  schedule::ParameterValues parameters;

  // Entropic: the profile's name in the workbench, and the rule's settings.
  std::string profileName;
  double gateC = 0.15, gateN = 3.0, smoothing = 0.0;
  schedule::Coordinate sqrtCoordinate = schedule::Coordinate::LogSigma;

  // Fixed: a schedule computed elsewhere (atomic design, a file): shown as it is.
  std::shared_ptr<const schedule::Schedule> fixed;

  schedule::LossWeight weight;
};

// Builds the schedule on the grid. `profile` is the entropic recipes' profile (may be null for
// other kinds). Throws InputError / std::exception with a readable message on bad settings.
schedule::Schedule buildSchedule(const ScheduleRecipe& recipe, const schedule::LogSigmaGrid& grid,
                                 const Profile* profile);

// A recipe for a named preset ("edm", "edm2-img512", ...), with the preset's loss weight.
ScheduleRecipe presetRecipe(const std::string& preset);

}  // namespace noisescope::ui
