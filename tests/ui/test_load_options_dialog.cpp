// The latent-cache load dialog: its choices are the latent-space table's pairs after "as cached",
// and the pair chosen is the LoadOptions::latentsFor the load gets (the CLI's --latents).
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QTest>
#include <QTimer>

#include <functional>

#include "data/load.h"
#include "pipeline/dataset/latent_scales.h"
#include "screenshot.h"
#include "ui/load_options_dialog.h"

using namespace noisescope;

namespace {
// Runs `act` on the modal dialog once it is shown.
void whenShown(std::function<void(QDialog*)> act) {
  QTimer::singleShot(0, [act] {
    auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
    QVERIFY(dialog);
    act(dialog);
  });
}
}  // namespace

class TestLoadOptionsDialog : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void choicesAreAsCachedThenEveryPair() {
    const auto choices = ui::latentScaleChoices();
    const auto scales = pipeline::latentScales();
    QCOMPARE(choices.size(), qsizetype(scales.size() + 1));
    QVERIFY(scales.size() > 30);  // the table's 41 pairs, give or take
    QVERIFY(choices.front().latentsFor.isEmpty());
    for (int i = 1; i < choices.size(); ++i) {
      QCOMPARE(choices[i].latentsFor, QString::fromStdString(scales[i - 1].pair));
      QVERIFY(choices[i].label.startsWith(choices[i].latentsFor));
    }
  }

  void theChosenPairIsWhatTheLoadGets() {
    LoadOptions options;
    whenShown([](QDialog* dialog) {
      auto* scale = dialog->findChild<QComboBox*>("latentScale");
      QVERIFY(scale);
      scale->setCurrentIndex(scale->findData(QString("sd-scripts:sdxl")));
      QVERIFY(scale->currentIndex() > 0);
      saveScreenshot(dialog, "load-latent-cache-dialog");
      dialog->accept();
    });
    QVERIFY(ui::askLatentScale(nullptr, "/data/cache/img_0001_1024x1024_sdxl.npz", options));
    QCOMPARE(QString::fromStdString(options.latentsFor), QString("sd-scripts:sdxl"));

    LoadOptions untouched;
    whenShown([](QDialog* dialog) { dialog->reject(); });
    QVERIFY(!ui::askLatentScale(nullptr, "cache.npz", untouched));
    QVERIFY(untouched.latentsFor.empty());

    whenShown([](QDialog* dialog) { dialog->accept(); });  // the default: as cached
    QVERIFY(ui::askLatentScale(nullptr, "cache.npz", untouched));
    QVERIFY(untouched.latentsFor.empty());
  }
};

QTEST_MAIN(TestLoadOptionsDialog)
#include "test_load_options_dialog.moc"
