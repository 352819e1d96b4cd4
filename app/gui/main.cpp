// noisescope: the workbench. Opens the datasets named on the command line, or the bundled sample.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>

#include "pipeline/environment.h"
#include "ui/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("NoiseScope"));
  QApplication::setApplicationName(QStringLiteral("NoiseScope"));
  QApplication::setApplicationVersion(QStringLiteral(NOISESCOPE_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Which noise levels should a diffusion model train on, and how much"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("dataset"),
                               QStringLiteral("Dataset file, folder or synthetic: spec to open"));
  QCommandLineOption threads(QStringLiteral("threads"),
                             QStringLiteral("CPU threads for torch (0: all)"), QStringLiteral("n"),
                             QStringLiteral("0"));
  parser.addOption(threads);
  parser.process(app);

  noisescope::pipeline::initComputeThreads(parser.value(threads).toInt());
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/noisescope.svg")));
  noisescope::ui::MainWindow window;
  window.show();
  const QStringList paths = parser.positionalArguments();
  if (!paths.isEmpty()) window.openPath(paths.first(), false);
  return app.exec();
}
