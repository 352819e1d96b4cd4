#pragma once
// The Sampling tab's choice of grids to race, picked like schedules: a checkable list of
// sampling-grid spec strings (schedule/sampling_grid.h), started from the race's defaults for the
// chosen model, plus a field to add any spec, checked by the same parser the CLI's --grid uses
// before it joins the list.
#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;

namespace noisescope::ui {

class GridPicker : public QWidget {
  Q_OBJECT

 public:
  explicit GridPicker(QWidget* parent = nullptr);

  // Replaces the list with `specs`, keeping the user's added specs after them. A spec listed
  // before keeps its check; a new one is checked.
  void setDefaults(const QStringList& specs);
  // Adds a spec (checked); false and a message under the field when it does not parse.
  bool addSpec(const QString& spec);
  QStringList checkedSpecs() const;
  QStringList allSpecs() const;
  void setChecked(const QString& spec, bool checked);
  QString errorText() const;

 Q_SIGNALS:
  void selectionChanged();

 private:
  void addItem(const QString& spec, bool checked, bool added);

  QListWidget* list_;
  QLineEdit* field_;
  QLabel* error_;
};

}  // namespace noisescope::ui
