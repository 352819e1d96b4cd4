#include "ui/load_options_dialog.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QSpinBox>
#include <QStringList>

#include "data/load.h"
#include "data/synthetic.h"
#include "pipeline/dataset/latent_scales.h"

namespace noisescope::ui {

namespace {

// A dialog with a form and OK/Cancel; the caller adds rows.
struct FormDialog {
  QDialog dialog;
  QFormLayout* form;
  FormDialog(QWidget* parent, const QString& title, const QString& intro) : dialog(parent) {
    dialog.setWindowTitle(title);
    form = new QFormLayout(&dialog);
    if (!intro.isEmpty()) {
      auto* label = new QLabel(intro, &dialog);
      label->setWordWrap(true);
      form->addRow(label);
    }
  }
  bool exec() {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    return dialog.exec() == QDialog::Accepted;
  }
};

QSpinBox* spin(QWidget* parent, int lo, int hi, int value) {
  auto* box = new QSpinBox(parent);
  box->setRange(lo, hi);
  box->setValue(value);
  return box;
}

}  // namespace

bool askFastaOptions(QWidget* parent, const QString& path, LoadOptions& options) {
  FormDialog d(parent, QObject::tr("Load DNA sequences"),
               QObject::tr("%1 is read as one-hot DNA windows: +1 for the base, −1 in the other "
                           "three channels (order A, C, G, T).")
                   .arg(QFileInfo(path).fileName()));
  auto* window = spin(&d.dialog, 1, 100000, static_cast<int>(options.fasta.window));
  auto* stride = spin(&d.dialog, 1, 100000, static_cast<int>(options.fasta.stride));
  auto* unknown = new QComboBox(&d.dialog);
  unknown->addItem(QObject::tr("Skip windows that contain them"));
  unknown->addItem(QObject::tr("Keep them as −1 in all four channels"));
  d.form->addRow(QObject::tr("&Window length (bases):"), window);
  d.form->addRow(QObject::tr("&Stride (bases):"), stride);
  d.form->addRow(QObject::tr("N and other &letters:"), unknown);
  if (!d.exec()) return false;
  options.fasta.window = window->value();
  options.fasta.stride = stride->value();
  options.fasta.unknownBases = unknown->currentIndex() == 0
                                   ? FastaOptions::UnknownBases::SkipWindow
                                   : FastaOptions::UnknownBases::AllNegative;
  return true;
}

bool askImageFolderOptions(QWidget* parent, const QString& path, LoadOptions& options) {
  FormDialog d(parent, QObject::tr("Load image folder"),
               QObject::tr("Every PNG and JPEG in %1 is resized to one common size and mapped to "
                           "[−1, 1].")
                   .arg(path));
  auto* width = spin(&d.dialog, 0, 1024, options.imageFolder.width);
  auto* height = spin(&d.dialog, 0, 1024, options.imageFolder.height);
  width->setSpecialValueText(QObject::tr("first image's"));
  height->setSpecialValueText(QObject::tr("first image's"));
  auto* colour = new QComboBox(&d.dialog);
  colour->addItems({QObject::tr("Automatic"), QObject::tr("Grey"), QObject::tr("RGB")});
  d.form->addRow(QObject::tr("&Width (pixels):"), width);
  d.form->addRow(QObject::tr("&Height (pixels):"), height);
  d.form->addRow(QObject::tr("&Colour:"), colour);
  if (!d.exec()) return false;
  options.imageFolder.width = width->value();
  options.imageFolder.height = height->value();
  options.imageFolder.color = static_cast<ImageFolderOptions::Color>(colour->currentIndex());
  return true;
}

bool askHdf5Dataset(QWidget* parent, const QString& path, LoadOptions& options) {
  const std::vector<Hdf5DatasetInfo> found = listHdf5Datasets(path.toStdString());
  if (found.size() == 1) {
    options.hdf5Dataset = found.front().path;
    return true;
  }
  QStringList items;
  for (const Hdf5DatasetInfo& info : found) {
    QString shape;
    for (size_t i = 0; i < info.shape.size(); ++i)
      shape += (i ? QStringLiteral("×") : QString()) + QString::number(info.shape[i]);
    items << QStringLiteral("%1  [%2, %3]")
                 .arg(QString::fromStdString(info.path), shape, QString::fromStdString(info.dtype));
  }
  bool ok = false;
  const QString chosen = QInputDialog::getItem(
      parent, QObject::tr("Choose a dataset"),
      QObject::tr("%1 holds several datasets. Load which one?").arg(QFileInfo(path).fileName()),
      items, 0, false, &ok);
  if (!ok) return false;
  options.hdf5Dataset = found[static_cast<size_t>(items.indexOf(chosen))].path;
  return true;
}

QList<LatentScaleChoice> latentScaleChoices() {
  QList<LatentScaleChoice> choices{
      {QObject::tr("As cached (the metadata's trainer if it names one, else no normalisation)"),
       QString()}};
  for (const pipeline::LatentScale& scale : pipeline::latentScales()) {
    const QString pair = QString::fromStdString(scale.pair);
    choices.append(
        {QObject::tr("%1 — %2 VAE, %3")
             .arg(pair, QString::fromStdString(scale.vae),
                  scale.cacheIsNormalised ? QObject::tr("cached normalised (read as is)")
                                          : QObject::tr("cached raw (normalised on reading)")),
         pair});
  }
  return choices;
}

bool askLatentScale(QWidget* parent, const QString& path, LoadOptions& options) {
  FormDialog d(parent, QObject::tr("Load latent cache"),
               QObject::tr("If %1 is a trainer's latent cache: σ means something only on the "
                           "scale the trainer noises, and some trainers cache raw VAE latents "
                           "that they normalise when training. The cache is put on the scale of "
                           "the trainer and model chosen here (docs/latent-caches.md).")
                   .arg(QFileInfo(path).fileName()));
  auto* scale = new QComboBox(&d.dialog);
  scale->setObjectName("latentScale");
  const QList<LatentScaleChoice> choices = latentScaleChoices();
  for (const LatentScaleChoice& c : choices) scale->addItem(c.label, c.latentsFor);
  d.form->addRow(QObject::tr("&Trained by:"), scale);
  if (!d.exec()) return false;
  options.latentsFor = scale->currentData().toString().toStdString();
  return true;
}

QString askSyntheticSpec(QWidget* parent) {
  FormDialog d(parent, QObject::tr("New synthetic dataset"),
               QObject::tr("Seeded sets with known structure: the same settings always give the "
                           "same points."));
  auto* kind = new QComboBox(&d.dialog);
  kind->addItems({"two-moons", "circle", "swiss-roll", "gaussian", "dirac-mixture", "hypercube"});
  auto* count = spin(&d.dialog, 2, 1000000, 2000);
  auto* dimension = spin(&d.dialog, 1, 4096, 2);
  auto* components = spin(&d.dialog, 1, 100000, 8);
  auto* scale = new QDoubleSpinBox(&d.dialog);
  scale->setRange(0.001, 100.0);
  scale->setValue(1.0);
  auto* noise = new QDoubleSpinBox(&d.dialog);
  noise->setRange(0.0, 10.0);
  noise->setDecimals(3);
  auto* seed = spin(&d.dialog, 0, 1 << 30, 1);
  d.form->addRow(QObject::tr("&Kind:"), kind);
  d.form->addRow(QObject::tr("&Samples N:"), count);
  d.form->addRow(QObject::tr("&Dimension (gaussian, dirac-mixture, hypercube):"), dimension);
  d.form->addRow(QObject::tr("&Components (dirac-mixture):"), components);
  d.form->addRow(QObject::tr("S&cale:"), scale);
  d.form->addRow(QObject::tr("&Jitter (std):"), noise);
  d.form->addRow(QObject::tr("S&eed:"), seed);
  if (!d.exec()) return {};
  SyntheticSpec spec;
  spec.kind = kind->currentText().toStdString();
  spec.count = count->value();
  spec.dimension = dimension->value();
  spec.components = components->value();
  spec.scale = scale->value();
  spec.noise = noise->value();
  spec.seed = static_cast<uint64_t>(seed->value());
  return QString::fromStdString(formatSyntheticSpec(spec));
}

}  // namespace noisescope::ui
