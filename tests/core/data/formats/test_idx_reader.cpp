// IDX reader: exact round trips (raw and gzip), the labels file next to the images, and every
// kind of bad file answered with an InputError that names it.
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <memory>

#include "data/formats/idx_reader.h"
#include "fixtures.h"
#include "util/error.h"

using namespace noisescope;

class TestIdxReader : public fixtures::ScratchTest {
  Q_OBJECT

  static std::vector<uint8_t> ramp(size_t n) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>((i * 37 + 11) % 256);
    v[0] = 0;
    v[1] = 255;
    return v;
  }

  void checkImages(const Dataset& d, const std::vector<uint8_t>& pixels, int64_t n, int64_t h,
                   int64_t w) {
    QCOMPARE(d.size(), n);
    QCOMPARE(std::string(toString(d.kind)), std::string(toString(SampleKind::Image)));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{1, h, w}));
    QCOMPARE(d.sourceDtype, std::string("uint8"));
    QCOMPARE(d.scaling, std::string("[-1,1]"));
    QVERIFY(d.sourceRangeKnown);
    QCOMPARE(d.sourceMin, 0.0);
    QCOMPARE(d.sourceMax, 255.0);
    for (size_t i = 0; i < pixels.size(); ++i)
      EXPECT_SAME_FLOAT(d.values[i], fixtures::symmetric(pixels[i]));
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void rawImagesWithLabels() {
    const auto pixels = ramp(5 * 4 * 3);
    fixtures::writeBytes(path("train-images-idx3-ubyte"), fixtures::idxBytes({5, 4, 3}, pixels));
    fixtures::writeBytes(path("train-labels-idx1-ubyte"), fixtures::idxBytes({5}, {3, 1, 4, 1, 5}));
    const Dataset d = readIdx(path("train-images-idx3-ubyte"));
    checkImages(d, pixels, 5, 4, 3);
    QCOMPARE(d.split, std::string("train"));
    QCOMPARE(d.name, std::string("train-images-idx3-ubyte"));
    QCOMPARE(d.labels, (std::vector<int32_t>{3, 1, 4, 1, 5}));
    QCOMPARE(d.labelsSource, path("train-labels-idx1-ubyte"));
    EXPECT_SAME_FLOAT(d.values.front(), -1.0f);
    EXPECT_SAME_FLOAT(d.values[1], 1.0f);
  }

  void gzipImagesWithGzipLabels() {
    const auto pixels = ramp(7 * 6 * 5);
    fixtures::writeGzip(path("t10k-images-idx3-ubyte.gz"), fixtures::idxBytes({7, 6, 5}, pixels));
    fixtures::writeGzip(path("t10k-labels-idx1-ubyte.gz"),
                        fixtures::idxBytes({7}, {0, 1, 2, 3, 4, 5, 6}));
    const Dataset d = readIdx(path("t10k-images-idx3-ubyte.gz"));
    checkImages(d, pixels, 7, 6, 5);
    QCOMPARE(d.split, std::string("test"));
    QCOMPARE(d.name, std::string("t10k-images-idx3-ubyte"));
    QCOMPARE(d.labels.size(), size_t{7});
    QCOMPARE(d.labels[6], 6);
  }

  void labelsCountMismatchIsNotedNotUsed() {
    fixtures::writeBytes(path("odd-images-idx3-ubyte"), fixtures::idxBytes({2, 2, 2}, ramp(8)));
    fixtures::writeBytes(path("odd-labels-idx1-ubyte"), fixtures::idxBytes({3}, {1, 2, 3}));
    const Dataset d = readIdx(path("odd-images-idx3-ubyte"));
    QVERIFY(!d.hasLabels());
    QCOMPARE(d.notes.size(), size_t{1});
    QVERIFY(d.notes[0].find("3 labels for 2 images") != std::string::npos);
  }

  void corruptLabelsFileIsNamed() {
    fixtures::writeBytes(path("bad-images-idx3-ubyte"), fixtures::idxBytes({2, 2, 2}, ramp(8)));
    fixtures::writeBytes(path("bad-labels-idx1-ubyte"), "garbage!");
    EXPECT_INPUT_ERROR(readIdx(path("bad-images-idx3-ubyte")), "bad-labels-idx1-ubyte");
  }

  void twoDimensionalIsVectors() {
    fixtures::writeBytes(path("vectors.idx"), fixtures::idxBytes({3, 10}, ramp(30)));
    const Dataset d = readIdx(path("vectors.idx"));
    QCOMPARE(std::string(toString(d.kind)), std::string(toString(SampleKind::Vector)));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{10}));
    QCOMPARE(d.size(), int64_t{3});
    QCOMPARE(d.split, std::string("all"));
    fixtures::writeBytes(path("emnist-letters-test-images-idx3-ubyte"),
                         fixtures::idxBytes({1, 2, 2}, ramp(4)));
    QCOMPARE(readIdx(path("emnist-letters-test-images-idx3-ubyte")).split, std::string("test"));
  }

  void progressAndCancel() {
    const auto pixels = ramp(3 * 1024 * 1024);  // three 1 MB chunks
    fixtures::writeGzip(path("big-images-idx3-ubyte.gz"),
                        fixtures::idxBytes({3, 1024, 1024}, pixels));
    int reports = 0;
    double last = 0.0;
    Progress progress([&](double f, const std::string&) {
      ++reports;
      QVERIFY(f >= last - 1e-12);
      last = f;
    });
    const Dataset d = readIdx(path("big-images-idx3-ubyte.gz"), progress);
    QCOMPARE(d.size(), int64_t{3});
    QVERIFY(reports >= 3);
    QCOMPARE(last, 1.0);

    auto cancel = std::make_shared<std::atomic<bool>>(true);
    Progress cancelled([](double, const std::string&) {}, cancel);
    QVERIFY_THROWS_EXCEPTION(Cancelled, readIdx(path("big-images-idx3-ubyte.gz"), cancelled));
  }

  void truncatedRaw() {
    std::string bytes = fixtures::idxBytes({4, 3, 3}, ramp(36));
    fixtures::writeBytes(path("short-images-idx3-ubyte"), bytes.substr(0, bytes.size() - 5));
    EXPECT_INPUT_ERROR(readIdx(path("short-images-idx3-ubyte")), "short-images-idx3-ubyte");
    fixtures::writeBytes(path("header-cut-idx3-ubyte"), bytes.substr(0, 9));
    EXPECT_INPUT_ERROR(readIdx(path("header-cut-idx3-ubyte")), "header-cut-idx3-ubyte");
  }

  void trailingBytes() {
    fixtures::writeBytes(path("long-images-idx3-ubyte"),
                         fixtures::idxBytes({1, 2, 2}, ramp(4)) + "xx");
    EXPECT_INPUT_ERROR(readIdx(path("long-images-idx3-ubyte")), "long-images-idx3-ubyte");
  }

  void truncatedGzip() {
    fixtures::writeGzip(path("cut.gz"), fixtures::idxBytes({50, 20, 20}, ramp(20000)));
    const std::string bytes = fixtures::readBytes(path("cut.gz"));
    fixtures::writeBytes(path("cut.gz"), bytes.substr(0, bytes.size() / 2));
    EXPECT_INPUT_ERROR(readIdx(path("cut.gz")), "cut.gz");
  }

  void corruptGzipDoesNotHang() {
    fixtures::writeGzip(path("corrupt.gz"), fixtures::idxBytes({50, 20, 20}, ramp(20000)));
    std::string bytes = fixtures::readBytes(path("corrupt.gz"));
    for (size_t i = 30; i < bytes.size() - 8; i += 7) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    fixtures::writeBytes(path("corrupt.gz"), bytes);
    EXPECT_INPUT_ERROR(readIdx(path("corrupt.gz")), "corrupt.gz");
  }

  void emptyFile() {
    fixtures::writeBytes(path("empty-images-idx3-ubyte"), "");
    EXPECT_INPUT_ERROR(readIdx(path("empty-images-idx3-ubyte")), "empty-images-idx3-ubyte");
  }

  void wrongMagic() {
    fixtures::writeBytes(path("magic.idx"), "\x01\x02\x08\x03 and more bytes here");
    EXPECT_INPUT_ERROR(readIdx(path("magic.idx")), "magic.idx");
    std::string floatIdx = fixtures::idxBytes({1, 1, 1}, {0, 0, 0, 0});
    floatIdx[2] = 0x0D;  // float32 elements
    fixtures::writeBytes(path("float.idx"), floatIdx);
    EXPECT_INPUT_ERROR(readIdx(path("float.idx")), "float.idx");
  }

  void labelsFileAsImages() {
    fixtures::writeBytes(path("only-labels-idx1-ubyte"), fixtures::idxBytes({3}, {1, 2, 3}));
    EXPECT_INPUT_ERROR(readIdx(path("only-labels-idx1-ubyte")), "only-labels-idx1-ubyte");
  }

  void oversizedHeader() {
    // Declares 60000×60000×60000 bytes in a file of a few bytes: refused before any allocation.
    std::string bytes = fixtures::idxBytes({60000, 60000, 60000}, ramp(16));
    fixtures::writeBytes(path("huge-images-idx3-ubyte"), bytes);
    EXPECT_INPUT_ERROR(readIdx(path("huge-images-idx3-ubyte")), "huge-images-idx3-ubyte");
    fixtures::writeGzip(path("huge-images-idx3-ubyte.gz"), bytes);
    EXPECT_INPUT_ERROR(readIdx(path("huge-images-idx3-ubyte.gz")), "huge-images-idx3-ubyte.gz");
    // Plausible for the gzip bound but not matching the trailer: read grows with the data and
    // then reports the truncation.
    fixtures::writeGzip(path("lying.gz"), fixtures::idxBytes({1000, 28, 28}, ramp(784)));
    EXPECT_INPUT_ERROR(readIdx(path("lying.gz")), "lying.gz");
  }

  void unreadablePaths() {
    EXPECT_INPUT_ERROR(readIdx(path("missing-images-idx3-ubyte")), "missing-images-idx3-ubyte");
    EXPECT_INPUT_ERROR(readIdx(dir_.path().toStdString()), dir_.path().toStdString());
  }
};

QTEST_APPLESS_MAIN(TestIdxReader)
#include "test_idx_reader.moc"
