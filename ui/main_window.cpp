#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>

#include <memory>

#include "data/load.h"
#include "pipeline/dataset/dataset_info.h"
#include "pipeline/report.h"
#include "ui/dataset_panel.h"
#include "ui/diagnostic_panel.h"
#include "ui/load_options_dialog.h"
#include "ui/sampling_panel.h"
#include "ui/schedule_panel.h"
#include "ui/session_profile_files.h"
#include "ui/training_panel.h"
#include "ui/warning_box.h"
#include "ui/workbench.h"

namespace noisescope::ui {

namespace {
const char* kRecentKey = "recentFiles";
constexpr int kMaxRecent = 10;
const QString kLoadTag = QStringLiteral("load");
const QString kStatisticsTag = QStringLiteral("statistics");
const QString kReportTag = QStringLiteral("report folder");

// The user guide: the installed copy (share/doc/noisescope beside bin/), else docs/ of the
// source tree a build folder sits in (build/app/noisescope); "" when neither is there.
QString findUserGuide() {
  const QDir program(QCoreApplication::applicationDirPath());
  QStringList candidates{program.filePath(QStringLiteral("../share/doc/noisescope/user-guide.md"))};
  QDir up = program;
  for (int level = 0; level < 4 && up.cdUp(); ++level)
    candidates << up.filePath(QStringLiteral("docs/user-guide.md"));
  for (const QString& candidate : candidates)
    if (QFileInfo(candidate).isFile()) return QFileInfo(candidate).canonicalFilePath();
  return {};
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), workbench_(new Workbench(this)) {
  setWindowTitle(tr("NoiseScope"));
  setAcceptDrops(true);

  tabs_ = new QTabWidget(this);
  datasetPanel_ = new DatasetPanel(workbench_, tabs_);
  tabs_->addTab(datasetPanel_, tr("&Dataset"));
  diagnosticPanel_ = new DiagnosticPanel(workbench_, tabs_);
  tabs_->addTab(diagnosticPanel_, tr("D&iagnostic"));
  schedulePanel_ = new SchedulePanel(workbench_, tabs_);
  tabs_->addTab(schedulePanel_, tr("&Schedules"));
  trainingPanel_ = new TrainingPanel(workbench_, tabs_);
  tabs_->addTab(trainingPanel_, tr("&Training"));
  samplingPanel_ = new SamplingPanel(workbench_, tabs_);
  tabs_->addTab(samplingPanel_, tr("Sa&mpling"));
  setCentralWidget(tabs_);

  summary_ = new QLabel(tr("No dataset"), this);
  jobLabel_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(220);
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setToolTip(tr("Stop the running job"));
  statusBar()->addWidget(summary_, 1);
  statusBar()->addPermanentWidget(jobLabel_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  progress_->hide();
  cancel_->hide();
  connect(cancel_, &QPushButton::clicked, this, [this] { workbench_->jobs()->cancel(); });

  JobRunner* jobs = workbench_->jobs();
  connect(jobs, &JobRunner::jobStarted, this, &MainWindow::onJobStarted);
  connect(jobs, &JobRunner::progressChanged, this, &MainWindow::onJobProgress);
  connect(jobs, &JobRunner::jobFinished, this, &MainWindow::onJobFinished);
  // A run's checkpoint is profiled by the Diagnostic tab, which then shows it.
  connect(trainingPanel_, &TrainingPanel::checkpointProfileRequested, this,
          [this](const QString& run) {
            tabs_->setCurrentWidget(diagnosticPanel_);
            diagnosticPanel_->runRunCheckpoint(run);
          });
  connect(trainingPanel_, &TrainingPanel::samplingRaceRequested, this, [this](const QString& run) {
    samplingPanel_->setModel(run);
    tabs_->setCurrentWidget(samplingPanel_);
  });
  // The race's offline reference: the EDM run's checkpoint, profiled in the background (no tab
  // switch while the user watches the race).
  connect(trainingPanel_, &TrainingPanel::referenceProfileRequested, diagnosticPanel_,
          &DiagnosticPanel::runRunCheckpoint);
  // A schedule built on the Schedules tab, trained on the Training tab: written into the runs
  // folder (a run's config names the file), then chosen there.
  connect(schedulePanel_, &SchedulePanel::trainWithRequested, this, &MainWindow::trainWithSchedule);
  // A profile of this session raced on the Sampling tab: the race reads files, so the profile
  // and the rest of its bracket are written into the runs folder's profiles/.
  connect(samplingPanel_, &SamplingPanel::sessionProfileChosen, this, [this](const QString& name) {
    try {
      const QString folder =
          QDir(trainingPanel_->runsFolder()).filePath(QStringLiteral("profiles"));
      samplingPanel_->useSessionProfileFile(name, writeSessionProfile(*workbench_, name, folder));
    } catch (const std::exception& e) {
      showWarning(this, tr("Session profile"), QString::fromStdString(e.what()));
    }
  });
  connect(workbench_, &Workbench::datasetChanged, this, &MainWindow::updateSummary);
  connect(workbench_, &Workbench::statisticsChanged, this, &MainWindow::updateSummary);

  buildMenus();
  resize(1200, 800);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open dataset…"), this, &MainWindow::openFileDialog);
  open->setShortcut(QKeySequence::Open);
  file->addAction(tr("Open image &folder…"), this, &MainWindow::openFolderDialog);
  file->addAction(tr("New &synthetic dataset…"), this, &MainWindow::openSyntheticDialog);
  recentMenu_ = file->addMenu(tr("Open &recent"));
  rebuildRecentMenu();
  file->addSeparator();
  reportAction_ =
      file->addAction(tr("Write re&port folder…"), this, &MainWindow::chooseReportFolder);
  reportAction_->setToolTip(
      tr("The loaded dataset's samples, diagnostic, schedules and trainer knobs as files, the "
         "same folder as noisescope-cli report writes"));
  reportAction_->setEnabled(false);
  connect(workbench_, &Workbench::datasetChanged, this,
          [this] { reportAction_->setEnabled(workbench_->dataset() != nullptr); });
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* guide = help->addAction(tr("&User guide"), this, [this] {
    const QString path = findUserGuide();
    if (path.isEmpty() || !QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
      QMessageBox::information(
          this, tr("User guide"),
          path.isEmpty() ? tr("The user guide (user-guide.md) is not installed beside this "
                              "program; it is docs/user-guide.md in the source tree.")
                         : tr("No program here opens %1; open it in any text viewer.").arg(path));
  });
  guide->setObjectName(QStringLiteral("userGuideAction"));
  guide->setShortcut(QKeySequence::HelpContents);
  help->addAction(tr("&About NoiseScope"), this, [this] {
    QMessageBox::about(this, tr("About NoiseScope"),
                       tr("<b>NoiseScope %1</b><p>Which noise levels should a diffusion model "
                          "train on, and how much? Datasets, optimal-denoiser diagnostics and "
                          "schedules on one axis.</p>")
                           .arg(QStringLiteral(NOISESCOPE_VERSION)));
  });
}

void MainWindow::openFileDialog() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open dataset"), QString(),
      tr("Datasets (*.gz *-ubyte *.idx *.bin *.npy *.npz *.safetensors *.zip *.h5 *.hdf5 *.fa "
         "*.fasta *.fna *.txt *.seq);;"
         "All files (*)"));
  if (!path.isEmpty()) openPath(path);
}

void MainWindow::openFolderDialog() {
  const QString path = QFileDialog::getExistingDirectory(this, tr("Open image folder"));
  if (!path.isEmpty()) openPath(path);
}

void MainWindow::openSyntheticDialog() {
  const QString spec = askSyntheticSpec(this);
  if (!spec.isEmpty()) openPath(spec, false);
}

bool MainWindow::askOptions(const QString& path, LoadOptions& options) {
  switch (detectFormat(path.toStdString())) {
    case FileFormat::Fasta:
      return askFastaOptions(this, path, options);
    case FileFormat::ImageFolder:
    case FileFormat::EdmZip:  // its images are resized like a folder's
      return askImageFolderOptions(this, path, options);
    case FileFormat::Hdf5:
      return askHdf5Dataset(this, path, options);
    case FileFormat::Safetensors:
    case FileFormat::Npz:
    case FileFormat::LatentFolder:
      return askLatentScale(this, path, options);
    default:
      return true;
  }
}

void MainWindow::openPath(const QString& path, bool ask) {
  LoadOptions options;
  if (ask) {
    try {
      if (!askOptions(path, options)) return;
    } catch (const std::exception& e) {
      QMessageBox::warning(this, tr("Cannot open dataset"), QString::fromStdString(e.what()));
      Q_EMIT loadFailed(path, QString::fromStdString(e.what()));
      return;
    }
  } else if (detectFormat(path.toStdString()) == FileFormat::Hdf5) {
    // Without asking, a single-dataset file still loads; several datasets give a clear error.
    try {
      const auto found = listHdf5Datasets(path.toStdString());
      if (found.size() == 1) options.hdf5Dataset = found.front().path;
    } catch (const std::exception&) {
      // loadDataset reports the same problem with the file name.
    }
  }
  startLoad(path, options);
}

void MainWindow::startLoad(const QString& path, const LoadOptions& options) {
  auto loaded = std::make_shared<Dataset>();
  const std::string file = path.toStdString();
  workbench_->jobs()->submit(
      kLoadTag,
      [loaded, file, options](const Progress& progress) {
        LoadOptions withProgress = options;
        withProgress.progress = progress;
        *loaded = loadDataset(file, withProgress);
      },
      [this, loaded, path, options] {
        std::shared_ptr<const Dataset> dataset = loaded;
        datasetPath_ = path;
        datasetLoad_ = std::make_shared<const LoadOptions>(options);
        workbench_->setDataset(dataset);
        addRecent(path);
        Q_EMIT datasetLoaded(path);
        auto statistics = std::make_shared<DatasetStatistics>();
        workbench_->jobs()->submit(
            kStatisticsTag,
            [dataset, statistics](const Progress& progress) {
              *statistics = pipeline::datasetStatistics(*dataset, {}, progress);
            },
            [this, dataset, statistics] {
              if (workbench_->dataset() == dataset) workbench_->setStatistics(*statistics);
            });
      },
      [this, path](const QString& message, bool cancelled) {
        if (!cancelled) QMessageBox::warning(this, tr("Cannot open dataset"), message);
        Q_EMIT loadFailed(path, message);
      });
}

void MainWindow::chooseReportFolder() {
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Write report folder"));
  if (!folder.isEmpty()) writeReportFolder(folder);
}

void MainWindow::writeReportFolder(const QString& folder) {
  if (!workbench_->dataset() || !datasetLoad_) {
    Q_EMIT reportFailed(tr("Open a dataset first."), false);
    return;
  }
  const pipeline::ReportRequest request = pipeline::reportRequest(
      {datasetPath_.toStdString()}, *datasetLoad_, folder.toStdString(), kWorkbenchProducer);
  workbench_->jobs()->submit(
      kReportTag, [request](const Progress& progress) { pipeline::writeReport(request, progress); },
      [this, folder] {
        statusBar()->showMessage(tr("Report written to %1").arg(folder), 10000);
        Q_EMIT reportWritten(folder);
      },
      [this](const QString& message, bool cancelled) {
        if (!cancelled) showWarning(this, tr("Cannot write the report"), message);
        Q_EMIT reportFailed(message, cancelled);
      });
}

QStringList MainWindow::recentFiles() const {
  return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecent(const QString& path) {
  QStringList recent = recentFiles();
  const QString stored =
      path.startsWith(QLatin1String("synthetic:")) ? path : QFileInfo(path).absoluteFilePath();
  recent.removeAll(stored);
  recent.prepend(stored);
  while (recent.size() > kMaxRecent) recent.removeLast();
  QSettings().setValue(kRecentKey, recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = recentFiles();
  for (const QString& path : recent) {
    recentMenu_->addAction(path, this, [this, path] { openPath(path); });
  }
  recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) {
    event->acceptProposedAction();
    openPath(urls.first().toLocalFile());
  }
}

void MainWindow::closeEvent(QCloseEvent* event) {
  workbench_->jobs()->cancel();
  event->accept();
}

void MainWindow::onJobStarted(const QString& tag) {
  jobLabel_->setText(tag == kLoadTag ? tr("Loading…") : tr("Working: %1").arg(tag));
  progress_->setValue(0);
  progress_->show();
  cancel_->show();
}

void MainWindow::onJobProgress(const QString&, double fraction, const QString& message) {
  progress_->setValue(static_cast<int>(fraction * 1000));
  if (!message.isEmpty()) jobLabel_->setText(message);
}

void MainWindow::onJobFinished(const QString&, bool, const QString&) {
  if (workbench_->jobs()->isIdle()) {
    progress_->hide();
    cancel_->hide();
    jobLabel_->clear();
  }
}

void MainWindow::trainWithSchedule(const QString& name) {
  // A file name a user recognises: the schedule's name, with what paths cannot hold replaced.
  QString stem = name;
  stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
  stem = stem.remove(QRegularExpression(QStringLiteral("^[-.]+|-+$")));
  if (stem.isEmpty()) stem = QStringLiteral("schedule");
  const QDir folder(QDir(trainingPanel_->runsFolder()).filePath(QStringLiteral("schedules")));
  if (!folder.mkpath(QStringLiteral("."))) {
    showWarning(this, tr("Train with it"), tr("Cannot create the folder %1").arg(folder.path()));
    return;
  }
  const QString path = folder.filePath(stem + QStringLiteral(".schedule.json"));
  const QString error = schedulePanel_->exportCurrent(path);
  if (!error.isEmpty()) {
    showWarning(this, tr("Train with it"), error);
    return;
  }
  trainingPanel_->useScheduleFile(path, name);
  tabs_->setCurrentWidget(trainingPanel_);
}

void MainWindow::updateSummary() {
  const auto dataset = workbench_->dataset();
  if (!dataset) {
    summary_->setText(tr("No dataset"));
    return;
  }
  QString text = tr("%1 · N = %2 · %3 · %4")
                     .arg(QString::fromStdString(dataset->name))
                     .arg(dataset->size())
                     .arg(QString::fromStdString(dataset->shapeString()))
                     .arg(QString::fromStdString(dataset->scaling));
  if (workbench_->hasStatistics()) {
    const DatasetStatistics& s = workbench_->statistics();
    text += tr(" · mean %1 · std %2 · σ_data %3")
                .arg(s.mean, 0, 'g', 3)
                .arg(s.stddev, 0, 'g', 3)
                .arg(s.sigmaData, 0, 'g', 3);
  }
  summary_->setText(text);
  setWindowTitle(tr("%1 — NoiseScope").arg(QString::fromStdString(dataset->name)));
}

}  // namespace noisescope::ui
