#pragma once
// The workbench window: one tab per job (the dataset explorer first), File menu with open,
// recent files, synthetic sets and the report folder, drag-and-drop, and a status bar with the
// dataset summary and the progress and cancel of whatever runs in the background.
#include <QMainWindow>
#include <QStringList>

#include <memory>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QMenu;

namespace noisescope {
struct LoadOptions;
}

namespace noisescope::ui {

class Workbench;
class DatasetPanel;
class DiagnosticPanel;
class SchedulePanel;
class SamplingPanel;
class TrainingPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);

  Workbench* workbench() const { return workbench_; }
  DatasetPanel* datasetPanel() const { return datasetPanel_; }
  DiagnosticPanel* diagnosticPanel() const { return diagnosticPanel_; }
  SchedulePanel* schedulePanel() const { return schedulePanel_; }
  TrainingPanel* trainingPanel() const { return trainingPanel_; }
  SamplingPanel* samplingPanel() const { return samplingPanel_; }
  QTabWidget* tabs() const { return tabs_; }
  QLabel* summaryLabel() const { return summary_; }

  // Loads a dataset file, folder or "synthetic:" spec in the background, asking for format
  // options (FASTA windows, HDF5 dataset) where the format has them and ask is true.
  void openPath(const QString& path, bool ask = true);
  QStringList recentFiles() const;
  // File → Write report folder…: `noisescope-cli report` of the loaded dataset (its file and load
  // options) into `folder`, with the report's defaults, as a background job with the status
  // bar's progress and cancel. Ends in reportWritten or reportFailed.
  void writeReportFolder(const QString& folder);

 Q_SIGNALS:
  void datasetLoaded(const QString& path);
  void loadFailed(const QString& path, const QString& message);
  void reportWritten(const QString& folder);
  void reportFailed(const QString& message, bool cancelled);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void openFileDialog();
  void openFolderDialog();
  void openSyntheticDialog();
  void chooseReportFolder();
  void startLoad(const QString& path, const LoadOptions& options);
  bool askOptions(const QString& path, LoadOptions& options);
  void addRecent(const QString& path);
  void rebuildRecentMenu();
  void onJobStarted(const QString& tag);
  void onJobProgress(const QString& tag, double fraction, const QString& message);
  void onJobFinished(const QString& tag, bool succeeded, const QString& message);
  void updateSummary();
  // The Schedules tab's selected schedule (`name`) as the Training tab's schedule file.
  void trainWithSchedule(const QString& name);

  Workbench* workbench_;
  QTabWidget* tabs_;
  DatasetPanel* datasetPanel_;
  DiagnosticPanel* diagnosticPanel_;
  SchedulePanel* schedulePanel_;
  SamplingPanel* samplingPanel_;
  TrainingPanel* trainingPanel_;
  QMenu* recentMenu_;
  QAction* reportAction_;
  // Where the loaded dataset came from: the report job reads it again, as the CLI does.
  QString datasetPath_;
  std::shared_ptr<const LoadOptions> datasetLoad_;
  QLabel* summary_;
  QLabel* jobLabel_;
  QProgressBar* progress_;
  QPushButton* cancel_;
};

}  // namespace noisescope::ui
