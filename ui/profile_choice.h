#pragma once
// A combo box over the workbench's profiles for a view that shows one of them (the Schedules tab's
// informative band, the Training tab's offline MMSE overlay). Until the user picks one it follows
// the default: the newest `bound` profile — the bracket's upper bound on the population MMSE
// (docs/profiles.md) — else the newest profile. The default item says so at the start of its
// text, so the user sees which curve is shown and why.
#include <QComboBox>
#include <QString>

namespace noisescope::ui {

class Workbench;

class ProfileChoice : public QComboBox {
  Q_OBJECT

 public:
  ProfileChoice(Workbench* workbench, const QString& noneText, QWidget* parent = nullptr);

  // The shown profile's workbench name; empty for none.
  QString profileName() const;
  // True while the choice is the default, not the user's.
  bool followsDefault() const { return !chosen_; }
  // Rebuilds the items from the workbench's profiles, keeping the user's pick when it still
  // exists. Emits profileChanged when the shown profile changes.
  void refill();

  // The profile a view shows by default: the newest of kind "bound", else the newest; "" if none.
  static QString defaultProfileName(const Workbench& workbench);

 Q_SIGNALS:
  void profileChanged();

 private:
  Workbench* workbench_;
  QString noneText_;
  QString shown_;        // profileName() after the last refill or pick
  bool chosen_ = false;  // the user picked an item (none included)
};

}  // namespace noisescope::ui
