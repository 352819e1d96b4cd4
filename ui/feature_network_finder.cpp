#include "ui/feature_network_finder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>

#include "pipeline/quality/sample_quality_job.h"
#include "util/error.h"

namespace noisescope::ui {

std::optional<QString> featureNetworkBeside(const QString& datasetPath) {
  const QFileInfo data(datasetPath);
  if (datasetPath.isEmpty() || !data.exists()) return std::nullopt;  // synthetic: specs too
  const QDir folder = data.isDir() ? QDir(data.absoluteFilePath()) : data.absoluteDir();
  const QStringList names =
      folder.entryList({QStringLiteral("*.features.pt")}, QDir::Files, QDir::Name);
  if (names.isEmpty()) return std::nullopt;
  return folder.filePath(names.first());
}

CheckedFeatureNetwork checkFeatureNetwork(const QString& path,
                                          const std::vector<int64_t>& sampleShape) {
  CheckedFeatureNetwork out;
  try {
    const pipeline::FeatureNetworkSummary info =
        pipeline::readFeatureNetworkSummary(QFile::encodeName(path).toStdString());
    out.description = QObject::tr("%1, held-out accuracy %2, trained on %3")
                          .arg(QString::fromStdString(info.task))
                          .arg(info.testAccuracy, 0, 'f', 3)
                          .arg(QFileInfo(QString::fromStdString(info.trainedOn)).fileName());
    if (info.sampleShape != sampleShape)
      out.problem =
          QObject::tr("%1 takes samples of shape %2; the dataset's have shape %3")
              .arg(QFileInfo(path).fileName(), QString::fromStdString(shapeText(info.sampleShape)),
                   QString::fromStdString(shapeText(sampleShape)));
  } catch (const std::exception& e) {
    out.problem = QString::fromStdString(e.what());
  }
  return out;
}

}  // namespace noisescope::ui
