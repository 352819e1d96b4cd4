#pragma once
// The race's default feature network, so that it ranks by sample quality without a file picked by
// hand: a NoiseScope feature network (`*.features.pt`, from `noisescope-cli quality
// train-features`) in the dataset's own folder whose sample shape is the dataset's. sample_data/
// ships one for each bundled dataset. Torch stays in the .cpp (ui/CMakeLists.txt).
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace noisescope::ui {

struct FoundFeatureNetwork {
  QString path;
  QString description;  // task, held-out accuracy and training data, for the form's note
};

// The first fitting network beside `datasetPath` (by file name), or nullopt. Files that are not
// feature networks are skipped.
std::optional<FoundFeatureNetwork> featureNetworkBeside(const QString& datasetPath,
                                                        const std::vector<int64_t>& sampleShape);

}  // namespace noisescope::ui
