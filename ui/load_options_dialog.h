#pragma once
// Asks for the options a format has before loading: FASTA windowing and what to do with unknown
// letters, image-folder size and colour, which dataset of an HDF5 file. Returns false on cancel.
#include <QList>
#include <QString>

class QWidget;

namespace noisescope {
struct LoadOptions;
}

namespace noisescope::ui {

bool askFastaOptions(QWidget* parent, const QString& path, LoadOptions& options);
bool askImageFolderOptions(QWidget* parent, const QString& path, LoadOptions& options);
// Throws InputError when the file cannot be listed.
bool askHdf5Dataset(QWidget* parent, const QString& path, LoadOptions& options);
// Returns a "synthetic:..." spec, or an empty string on cancel.
QString askSyntheticSpec(QWidget* parent);

// A latent cache's scale: read as cached, or put on the scale one (tool, model) pair of the
// latent-space table noises (data/formats/latent_spaces.h; the CLI's --latents TOOL:MODEL). Each
// choice's label and the LoadOptions::latentsFor it sets ("" for as cached, first).
struct LatentScaleChoice {
  QString label, latentsFor;
};
QList<LatentScaleChoice> latentScaleChoices();
bool askLatentScale(QWidget* parent, const QString& path, LoadOptions& options);

}  // namespace noisescope::ui
