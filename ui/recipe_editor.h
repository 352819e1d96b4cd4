#pragma once
// The Schedules tab's editor of one schedule, one builder per recipe kind: a family's parameters,
// an entropic schedule's profile, gate and smoothing, or the facts a fixed schedule carries; then
// the loss weight and what the build reported. SchedulePanel::showEditor picks the builders.
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/schedules/schedule_recipe.h"

class QFormLayout;
class QLabel;
class QWidget;

namespace noisescope::ui {

// The editor edits its own copy of the recipe (`draft`) and calls `changed` after every edit (the
// panel hands the copy to its model by the row's id): it holds nothing that a rebuild or a
// removed row could leave dangling.
struct RecipeEditor {
  QWidget* editor;
  QFormLayout* form;
  std::shared_ptr<pipeline::ScheduleRecipe> draft;
  std::function<void()> changed;

  // A number row: `set` writes the value into the draft, then the schedule rebuilds.
  void addNumber(const QString& label, double lo, double hi, double value,
                 std::function<void(double)> set, const QString& help = {}) const;
};

// Each fills the "Kind:" label `kind` and adds the rows of its recipe kind.
// A preset or family: its formula, then a number per parameter.
void addFamilyRows(const RecipeEditor& e, QLabel* kind);
// InfoNoise or √-entropy: the profile (from `profiles`), the caveat of the built schedule (read
// from `caveats` again after each profile change), the √-entropy coordinate, gate and smoothing.
void addEntropicRows(const RecipeEditor& e, QLabel* kind, const QStringList& profiles,
                     const std::function<std::vector<std::string>()>& caveats);
// A table, file or fixed schedule: nothing to edit, the facts the built schedule carries.
void showBuiltFacts(QLabel* kind, const schedule::Schedule& built);

// The loss weight (what turns π into the effective allocation), σ_data and γ.
void addLossWeightRows(const RecipeEditor& e, const pipeline::BuiltSchedule& shown);
// The mass the σ range cut off and the σ_data in use, or the build's error.
void addBuildOutcome(const RecipeEditor& e, const pipeline::BuiltSchedule& shown,
                     const QString& error);

}  // namespace noisescope::ui
