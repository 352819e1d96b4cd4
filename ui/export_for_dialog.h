#pragma once
// "Export for…": the selected schedule's effective allocation φ as another trainer's own knobs.
// Pick a tool, the model family it trains (its default first) and the training resolution its
// resolution-dependent shifts read; every family
// of that tool is fitted by pipeline::fitForTool, listed with its mismatch on φ, and the chosen
// family's φ is drawn over the target in the tool's own coordinate, with the paste-ready snippet
// to copy or save. docs/trainers.md explains each tool.
#include <QDialog>

#include <memory>

#include "io/tool_fit_io.h"
#include "pipeline/schedules/fit_for_tool.h"

class QComboBox;
class QSpinBox;
class QTableWidget;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace noisescope::ui {

class CurveChart;
class JobRunner;

class ExportForDialog : public QDialog {
  Q_OBJECT

 public:
  // `jobs` runs the fit off the GUI thread (a tool's families take up to a second); without one
  // the fit runs in place.
  ExportForDialog(pipeline::FitTarget target, JobRunner* jobs, QWidget* parent = nullptr);

  // Fits the target for the tool chosen now (the dialog does this whenever the choice changes).
  void refit();
  // Writes the current fit (JSON for .json, text otherwise); returns an error message.
  QString saveKnobs(const QString& path);
  // What "Save knobs…" does after its dialog: saveKnobs, and on failure a warning naming the file
  // and the system error (ui/warning_box.h, which does not block). True when written.
  bool saveKnobsAs(const QString& path);
  // "Compare with my config…" after its dialog: the settings file read and matched to the chosen
  // tool's families (pipeline::fitCurrentSettingsFile, as noisescope-cli fit --current), the
  // answer shown in a window of its own; a file that cannot be used gets a warning naming it.
  void compareWith(const QString& path);
  // The text of the last comparison (empty before one).
  QString comparisonText() const;

  const io::ToolFit* currentFit() const { return fit_.get(); }
  QComboBox* toolBox() const { return tool_; }
  QComboBox* modelBox() const { return model_; }
  QSpinBox* widthBox() const { return width_; }
  QSpinBox* heightBox() const { return height_; }
  QTableWidget* familyTable() const { return families_; }
  CurveChart* chart() const { return chart_; }
  QPlainTextEdit* snippetView() const { return snippet_; }
  QPushButton* copyButton() const { return copy_; }
  QPushButton* compareButton() const { return compare_; }
  QLabel* summaryLabel() const { return summary_; }

 Q_SIGNALS:
  void fitFinished();
  void comparisonFinished(bool ok);

 private:
  void showFit(std::shared_ptr<const io::ToolFit> fit);
  void showFamily(int row);
  schedule::TrainerSettings chosenSettings() const;
  void showComparison(const QString& text);

  pipeline::FitTarget target_;
  JobRunner* jobs_;
  std::shared_ptr<const io::ToolFit> fit_;
  QComboBox* tool_;
  QComboBox* model_;
  QSpinBox* width_;
  QSpinBox* height_;
  QLabel* summary_;
  QTableWidget* families_;
  CurveChart* chart_;
  QLabel* note_;
  QPlainTextEdit* snippet_;
  QPushButton* copy_;
  QPushButton* save_;
  QPushButton* compare_;
  QDialog* comparison_ = nullptr;
  QPlainTextEdit* comparisonView_ = nullptr;
};

}  // namespace noisescope::ui
