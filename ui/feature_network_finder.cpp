#include "ui/feature_network_finder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "train/feature_network.h"

namespace noisescope::ui {

std::optional<FoundFeatureNetwork> featureNetworkBeside(const QString& datasetPath,
                                                        const std::vector<int64_t>& sampleShape) {
  const QFileInfo data(datasetPath);
  if (datasetPath.isEmpty() || !data.exists()) return std::nullopt;  // synthetic: specs too
  const QDir folder = data.isDir() ? QDir(data.absoluteFilePath()) : data.absoluteDir();
  const QStringList names =
      folder.entryList({QStringLiteral("*.features.pt")}, QDir::Files, QDir::Name);
  for (const QString& name : names) {
    const QString path = folder.filePath(name);
    try {
      const train::FeatureNetwork network(QFile::encodeName(path).toStdString());
      const train::FeatureNetworkInfo& info = network.info();
      if (info.sampleShape != sampleShape) continue;
      return FoundFeatureNetwork{
          path, QObject::tr("%1, held-out accuracy %2, trained on %3")
                    .arg(QString::fromStdString(info.task))
                    .arg(info.testAccuracy, 0, 'f', 3)
                    .arg(QFileInfo(QString::fromStdString(info.trainedOn)).fileName())};
    } catch (const std::exception&) {
      continue;  // not a feature network this version reads
    }
  }
  return std::nullopt;
}

}  // namespace noisescope::ui
