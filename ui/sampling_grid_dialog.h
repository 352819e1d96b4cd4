#pragma once
// The Schedules tab's "Sampling grid…" dialog: which grid family
// (pipeline/sampling/sampling_grids.h), its parameters as a spec string, N, and a live preview of
// the levels with the step-ratio check — the rule the file will name and every step over the limit,
// in red, before anything is written. It starts on the default grid (defaults::kSamplingGrid,
// Karras ρ = 7).
#include <QDialog>

#include <functional>
#include <string>

#include "io/sigma_steps_io.h"

class QComboBox;
class QLabel;
class QTextEdit;
class QLineEdit;
class QSpinBox;
class QPushButton;

namespace noisescope::ui {

class SamplingGridDialog : public QDialog {
 public:
  // Builds the grid a spec and N give, for the selected schedule; throws InputError on bad input.
  using Build = std::function<SigmaSteps(const std::string& spec, int steps)>;
  SamplingGridDialog(Build build, const QString& scheduleName, QWidget* parent = nullptr);

  QString spec() const;
  int steps() const;
  void setSpec(const QString& spec);
  void setSteps(int steps);
  // The preview's texts (for tests): the grid and its check, and the warnings ("" when none).
  QString previewText() const;
  QString warningText() const;
  bool acceptable() const;  // the grid builds

 private:
  void refresh();

  Build build_;
  QComboBox* family_;
  QLineEdit* spec_;
  QSpinBox* steps_;
  QTextEdit* preview_;   // scrolls: N levels and their rule can run long
  QTextEdit* warnings_;  // one line per step over the limit
  QPushButton* save_;
  bool ok_ = false;
};

}  // namespace noisescope::ui
