#pragma once
// The race's feature network, so that it ranks by sample quality: a NoiseScope feature network
// (`*.features.pt`, from `noisescope-cli quality train-features`) beside the loaded dataset.
// sample_data/ ships one for each bundled dataset. A TorchScript file runs the code inside it when
// loaded, so a file found here is only named to the user; it is loaded (checkFeatureNetwork) once
// the user chooses it. Torch stays in the .cpp (ui/CMakeLists.txt).
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace noisescope::ui {

// The first `*.features.pt` in the dataset's folder, by file name; not opened. nullopt for a
// synthetic spec or a folder without one.
std::optional<QString> featureNetworkBeside(const QString& datasetPath);

struct CheckedFeatureNetwork {
  QString description;  // task, held-out accuracy and training data, for the form's note
  QString problem;      // why it cannot score this dataset ("" when it can)
};

// Loads a feature network the user chose and checks that it takes samples of `sampleShape`.
CheckedFeatureNetwork checkFeatureNetwork(const QString& path,
                                          const std::vector<int64_t>& sampleShape);

}  // namespace noisescope::ui
