// The workbench opens the bundled sample data off the GUI thread, shows it, and redraws the
// same samples with noise as the σ slider moves, clipped or signal-scaled, with each sample's
// class label; bad files give a message and leave the previous dataset in place; Help opens the
// user guide.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>
#include <QImage>
#include <QLabel>
#include <QObject>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>
#include <QWidget>

#include <cmath>
#include <cstdint>
#include <utility>

#include "screenshot.h"
#include "test_paths.h"
#include "ui/dataset_panel.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/scatter_view.h"
#include "ui/sigma_control.h"
#include "ui/workbench.h"

using namespace noisescope::ui;

namespace {
const QString kSampleImages = QString::fromStdString(
    noisescope::test::sourcePath("sample_data/fashion-mnist/train-images-idx3-ubyte.gz"));

// The share of black or white pixels among the tiles' pixels of a grey grid image (the grid's
// gaps and empty cells are renderSampleGrid's grey 230).
double saturatedShare(const QImage& image) {
  int64_t saturated = 0, tiles = 0;
  for (int y = 0; y < image.height(); ++y) {
    const uchar* row = image.constScanLine(y);
    for (int x = 0; x < image.width(); ++x) {
      saturated += row[x] == 0 || row[x] == 255;
      tiles += row[x] != 230;
    }
  }
  return double(saturated) / double(tiles);
}

// Pearson correlation of two grey images of one size, pixel by pixel.
double correlation(const QImage& a, const QImage& b) {
  double n = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (int y = 0; y < a.height(); ++y) {
    const uchar* ra = a.constScanLine(y);
    const uchar* rb = b.constScanLine(y);
    for (int x = 0; x < a.width(); ++x) {
      const double u = ra[x], v = rb[x];
      n += 1, sa += u, sb += v, saa += u * u, sbb += v * v, sab += u * v;
    }
  }
  const double cov = sab / n - sa / n * sb / n;
  return cov / std::sqrt((saa / n - sa / n * sa / n) * (sbb / n - sb / n * sb / n));
}

// Receives what QDesktopServices::openUrl is asked to open.
class UrlCatcher : public QObject {
  Q_OBJECT

 public:
  QUrl url;

 public Q_SLOTS:
  void open(const QUrl& opened) { url = opened; }
};
}  // namespace

class TestDatasetExplorer : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
    QCoreApplication::setApplicationName("test_dataset_explorer");
  }

  void opensSampleDataAndMovesSigma() {
    MainWindow window;
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath(kSampleImages, false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);

    auto dataset = window.workbench()->dataset();
    QVERIFY(dataset);
    QCOMPARE(dataset->sampleShape, (std::vector<int64_t>{1, 28, 28}));
    QVERIFY(window.summaryLabel()->text().contains(QString("N = %1").arg(dataset->size())));
    QTRY_VERIFY_WITH_TIMEOUT(window.workbench()->hasStatistics(), 20000);
    QVERIFY(window.summaryLabel()->text().contains("σ_data"));

    DatasetPanel* panel = window.datasetPanel();
    const QImage clean = panel->imageView()->image();
    QVERIFY(!clean.isNull());

    // Move the slider to the far end: σ = 80 swamps every pixel, so the grid must change.
    QSlider* slider = panel->sigmaControl()->slider();
    slider->setValue(slider->maximum());
    QCOMPARE(panel->sigmaControl()->sigma(), 80.0);
    const QImage noisy = panel->imageView()->image();
    QCOMPARE(noisy.size(), clean.size());
    QVERIFY(noisy != clean);

    // Back to the minimum: σ = 0.002 is invisible at 8-bit display depth.
    slider->setValue(slider->minimum());
    QCOMPARE(panel->imageView()->image(), clean);
    QCOMPARE(window.recentFiles().value(0), QFileInfo(kSampleImages).absoluteFilePath());
  }

  // A σ typed at a normal key rate is the σ typed: the field commits on Enter or focus-out, not
  // on the first keystroke (which turned "2.5" into 2 and "0.25" into σ_min; issue 35, item 2).
  void typedSigmaCommitsOnEnter() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:two-moons?n=200&seed=3", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    SigmaControl* control = window.datasetPanel()->sigmaControl();
    QDoubleSpinBox* field = control->spinBox();
    QSignalSpy changed(control, &SigmaControl::sigmaChanged);
    constexpr int kKeyDelayMs = 120;  // about eight keys a second
    for (const auto& [typed, expected] :
         {std::pair{"2.5", 2.5}, std::pair{"0.25", 0.25}, std::pair{"1.5", 1.5}}) {
      field->setFocus();
      field->selectAll();
      changed.clear();
      QTest::keyClicks(field, QString::fromLatin1(typed), Qt::NoModifier, kKeyDelayMs);
      QCOMPARE(changed.count(), 0);  // nothing commits while the value is being typed
      QTest::keyClick(field, Qt::Key_Return);
      QCOMPARE(control->sigma(), expected);
      QCOMPARE(changed.count(), 1);
      QCOMPARE(field->value(), expected);
    }
    // Leaving the field commits too.
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("3.75"), Qt::NoModifier, kKeyDelayMs);
    window.datasetPanel()->findChild<QSpinBox*>()->setFocus();
    QCOMPARE(control->sigma(), 3.75);
  }

  // The explorer shows the high-σ half (issue 35, item 6): clipped to [−1, 1], σ = 80 is
  // saturated static; signal-scaled, (x + σε)·σ_data/√(σ_data² + σ²) keeps the data's contrast,
  // and the signal left at σ = 5 shows where σ = 80 has none. The sample set's labels file puts
  // each sample's class in its tile's corner.
  void signalScaledViewAndClassLabels() {
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath(kSampleImages, false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(window.workbench()->hasStatistics(), 20000);
    DatasetPanel* panel = window.datasetPanel();
    QVERIFY(panel->signalScaledBox()->text().contains("√(σ_data² + σ²)"));
    const QImage clean = panel->imageView()->image();
    auto drawn = [&](double sigma, bool scaled) {
      panel->signalScaledBox()->setChecked(scaled);
      panel->sigmaControl()->setSigma(sigma);
      return panel->imageView()->image().convertToFormat(QImage::Format_Grayscale8);
    };
    const QImage clipped80 = drawn(80, false), scaled80 = drawn(80, true), scaled5 = drawn(5, true);
    QVERIFY(scaled80 != clipped80);
    const double clippedSaturated = saturatedShare(clipped80),
                 scaledSaturated = saturatedShare(scaled80);
    QVERIFY2(clippedSaturated > 0.9 && scaledSaturated < 0.3,
             qPrintable(QString("saturated: clipped %1, scaled %2")
                            .arg(clippedSaturated)
                            .arg(scaledSaturated)));
    const QImage grey = clean.convertToFormat(QImage::Format_Grayscale8);
    const double signal5 = correlation(scaled5, grey), signal80 = correlation(scaled80, grey);
    qInfo(
        "black or white tile pixels at σ = 80: clipped %.3f, signal-scaled %.3f; correlation "
        "with the clean grid, signal-scaled: σ = 5 %.3f, σ = 80 %.3f",
        clippedSaturated, scaledSaturated, signal5, signal80);
    QVERIFY2(signal5 > signal80 + 0.03,
             qPrintable(QString("correlation with the clean grid: σ = 5 %1, σ = 80 %2")
                            .arg(signal5)
                            .arg(signal80)));
    saveScreenshot(&window, "dataset-signal-scaled");

    // Class labels: one per shown sample, the dataset's own.
    const auto dataset = window.workbench()->dataset();
    QVERIFY(dataset->hasLabels());
    const QStringList labels = panel->imageView()->cellLabels();
    QCOMPARE(labels.size(), int(panel->shownIndices().size()));
    for (int i = 0; i < labels.size(); ++i)
      QCOMPARE(labels[i], QString::number(dataset->labels[panel->shownIndices()[size_t(i)]]));

    // A set without labels shows none.
    QSignalSpy again(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:hypercube?n=64&d=16&seed=1", false);
    QTRY_COMPARE_WITH_TIMEOUT(again.count(), 1, 20000);
    QVERIFY(!window.workbench()->dataset()->hasLabels());
    QVERIFY(panel->imageView()->cellLabels().isEmpty());
  }

  // Help ▸ User guide opens the guide's file.
  void helpOpensTheUserGuide() {
    MainWindow window;
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    auto* guide = window.findChild<QAction*>(QStringLiteral("userGuideAction"));
    QVERIFY(guide);
    QVERIFY(guide->text().remove('&').contains("User guide"));
    guide->trigger();
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    QVERIFY(catcher.url.isLocalFile());
    const QFileInfo opened(catcher.url.toLocalFile());
    QCOMPARE(opened.fileName(), QStringLiteral("user-guide.md"));
    QVERIFY(opened.isFile());
  }

  void pointSetsAreScatterPlots() {
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:two-moons?n=500&seed=3", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    QCOMPARE(window.datasetPanel()->scatterView()->noisyPointCount(), 500);
  }

  // A reader's note is a phrase; the panel shows it as a sentence before its own.
  void readerNotesReadAsSentences() {
    QTemporaryDir dir;
    const QString path = dir.filePath("images.npy");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4, 4), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    file.write(QByteArray("\x93NUMPY\x01\x00", 8));
    const quint16 length = static_cast<quint16>(header.size());
    file.write(reinterpret_cast<const char*>(&length), 2);
    file.write(header);
    for (int i = 0; i < 48; ++i) {
      const float v = static_cast<float>(i % 11);  // values 0 … 10: mapped affinely, with a note
      file.write(reinterpret_cast<const char*>(&v), sizeof v);
    }
    file.close();

    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath(path, false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    const QString note = window.datasetPanel()->noteLabel()->text();
    QVERIFY2(note.startsWith("Image values in [0, 10] mapped"), qPrintable(note));
    QVERIFY2(note.contains("to [-1, 1]. Pixels are shown"), qPrintable(note));
    saveScreenshot(window.datasetPanel(), "dataset-reader-note");
  }

  void badFileKeepsPreviousDataset() {
    QTemporaryDir dir;
    const QString bad = dir.filePath("broken.npy");
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("\x93NUMPY\x01\x00\x20\x00{'descr': '<f4'");  // truncated header
    file.close();

    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openPath("synthetic:circle?n=100", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    auto before = window.workbench()->dataset();

    // The failure message box would block; close it as soon as it appears.
    QTimer::singleShot(0, [] {});
    auto closer = new QTimer(&window);
    connect(closer, &QTimer::timeout, [] {
      if (QWidget* modal = QApplication::activeModalWidget()) modal->close();
    });
    closer->start(20);
    window.openPath(bad, false);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
    QVERIFY(failed.first().at(1).toString().contains("broken.npy"));
    QCOMPARE(window.workbench()->dataset(), before);
  }
};

QTEST_MAIN(TestDatasetExplorer)
#include "test_dataset_explorer.moc"
