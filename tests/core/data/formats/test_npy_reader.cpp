// .npy reader: versions 1–3, uint8 / float32 / float64, the layout rules of array_layout.h, and
// bad files answered with an InputError naming the file.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "data/formats/npy_reader.h"
#include "fixtures.h"

using namespace noisescope;

class TestNpyReader : public fixtures::ScratchTest {
  Q_OBJECT

  Dataset write(const std::string& name, const std::string& bytes) {
    fixtures::writeBytes(path(name), bytes);
    return readNpy(path(name));
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void float32PointsRoundTrip() {
    const std::vector<float> v = {0.5f, -1.25f, 3.0f, 1e-7f, -42.0f, 7.75f};
    for (int version : {1, 2, 3}) {
      const Dataset d = write("points" + std::to_string(version) + ".npy",
                              fixtures::npyBytes("<f4", {3, 2}, fixtures::rawBytes(v), version));
      QCOMPARE(std::string(toString(d.kind)), std::string(toString(SampleKind::Points)));
      QCOMPARE(d.sampleShape, (std::vector<int64_t>{2}));
      QCOMPARE(d.size(), int64_t{3});
      QCOMPARE(d.values, v);  // raw: points are not rescaled
      QCOMPARE(d.scaling, std::string("raw"));
      QCOMPARE(d.sourceDtype, std::string("float32"));
      QCOMPARE(d.sourceMin, -42.0);
      QCOMPARE(d.sourceMax, 7.75);
      QCOMPARE(d.name, "points" + std::to_string(version));
    }
  }

  void float64VectorsAndOneDimensional() {
    std::vector<double> v(2 * 5);
    for (size_t i = 0; i < v.size(); ++i) v[i] = 0.1 * static_cast<double>(i) - 0.3;
    const Dataset d = write("vec.npy", fixtures::npyBytes("<f8", {2, 5}, fixtures::rawBytes(v)));
    QCOMPARE(std::string(toString(d.kind)), std::string(toString(SampleKind::Vector)));
    QCOMPARE(d.sourceDtype, std::string("float64"));
    for (size_t i = 0; i < v.size(); ++i) EXPECT_SAME_FLOAT(d.values[i], static_cast<float>(v[i]));

    const Dataset scalars =
        write("scalars.npy",
              fixtures::npyBytes("<f4", {3}, fixtures::rawBytes(std::vector<float>{1, 2, 3})));
    QCOMPARE(std::string(toString(scalars.kind)), std::string(toString(SampleKind::Points)));
    QCOMPARE(scalars.sampleShape, (std::vector<int64_t>{1}));
    QCOMPARE(scalars.size(), int64_t{3});
  }

  void uint8GreyImages() {
    std::vector<uint8_t> v(2 * 3 * 4);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i * 11);
    const Dataset d =
        write("grey.npy", fixtures::npyBytes("|u1", {2, 3, 4}, fixtures::rawBytes(v)));
    QCOMPARE(std::string(toString(d.kind)), std::string(toString(SampleKind::Image)));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{1, 3, 4}));
    QCOMPARE(d.scaling, std::string("[-1,1]"));
    QCOMPARE(d.sourceMax, 253.0);
    for (size_t i = 0; i < v.size(); ++i) EXPECT_SAME_FLOAT(d.values[i], fixtures::symmetric(v[i]));
  }

  void channelsFirstAndLastImages() {
    // [N, 3, H, W] is kept; the same pixels stored [N, H, W, 3] are transposed to it.
    const int64_t n = 2, c = 3, h = 2, w = 3;
    std::vector<uint8_t> chw(n * c * h * w), hwc(n * c * h * w);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < c; ++k)
        for (int64_t y = 0; y < h; ++y)
          for (int64_t x = 0; x < w; ++x) {
            const uint8_t value = static_cast<uint8_t>(i * 100 + k * 30 + y * 5 + x);
            chw[((i * c + k) * h + y) * w + x] = value;
            hwc[((i * h + y) * w + x) * c + k] = value;
          }
    const Dataset first =
        write("nchw.npy", fixtures::npyBytes("|u1", {n, c, h, w}, fixtures::rawBytes(chw)));
    const Dataset last =
        write("nhwc.npy", fixtures::npyBytes("|u1", {n, h, w, c}, fixtures::rawBytes(hwc)));
    QCOMPARE(first.sampleShape, (std::vector<int64_t>{3, 2, 3}));
    QCOMPARE(last.sampleShape, (std::vector<int64_t>{3, 2, 3}));
    QCOMPARE(std::string(toString(first.kind)), std::string(toString(SampleKind::Image)));
    QCOMPARE(last.values, first.values);
    QCOMPARE(last.notes.size(), size_t{1});
  }

  void floatImagesAreScaled() {
    const std::vector<float> unit = {0.0f, 0.25f, 1.0f, 0.5f};
    const Dataset d =
        write("unit.npy", fixtures::npyBytes("<f4", {1, 1, 2, 2}, fixtures::rawBytes(unit)));
    QCOMPARE(d.values, (std::vector<float>{-1.0f, -0.5f, 1.0f, 0.0f}));
    const std::vector<float> wide = {10.0f, 20.0f, 30.0f, 50.0f};
    const Dataset e =
        write("wide.npy", fixtures::npyBytes("<f4", {1, 2, 2}, fixtures::rawBytes(wide)));
    QCOMPARE(e.values, (std::vector<float>{-1.0f, -0.5f, 0.0f, 1.0f}));
    QCOMPARE(e.sourceMin, 10.0);
    QCOMPARE(e.sourceMax, 50.0);
  }

  void oneHotSequences() {
    // Two sequences of length 3 stored 0/1: they become ±1.
    const std::vector<float> v = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1,
                                  0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0};
    const Dataset d = write("dna.npy", fixtures::npyBytes("<f4", {2, 3, 4}, fixtures::rawBytes(v)));
    QCOMPARE(std::string(toString(d.kind)), std::string(toString(SampleKind::Sequence)));
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{3, 4}));
    QCOMPARE(d.scaling, std::string("one-hot ±1"));
    for (size_t i = 0; i < v.size(); ++i)
      EXPECT_SAME_FLOAT(d.values[i], v[i] == 1.0f ? 1.0f : -1.0f);
  }

  void unsupportedTypesAndOrders() {
    const std::string data(8 * 4, '\0');
    fixtures::writeBytes(path("big.npy"), fixtures::npyBytes(">f4", {8}, data));
    EXPECT_INPUT_ERROR(readNpy(path("big.npy")), "big.npy");
    fixtures::writeBytes(path("fortran.npy"), fixtures::npyBytes("<f4", {4, 2}, data, 1, true));
    EXPECT_INPUT_ERROR(readNpy(path("fortran.npy")), "fortran.npy");
    fixtures::writeBytes(path("object.npy"), fixtures::npyBytes("|O", {4}, std::string(32, '\0')));
    EXPECT_INPUT_ERROR(readNpy(path("object.npy")), "object.npy");
    fixtures::writeBytes(path("int64.npy"), fixtures::npyBytes("<i8", {4}, data));
    EXPECT_INPUT_ERROR(readNpy(path("int64.npy")), "int64.npy");
  }

  void truncatedAndTrailingData() {
    const std::string data(6 * 4, '\0');
    const std::string bytes = fixtures::npyBytes("<f4", {3, 2}, data);
    fixtures::writeBytes(path("short.npy"), bytes.substr(0, bytes.size() - 1));
    EXPECT_INPUT_ERROR(readNpy(path("short.npy")), "short.npy");
    fixtures::writeBytes(path("long.npy"), bytes + "x");
    EXPECT_INPUT_ERROR(readNpy(path("long.npy")), "long.npy");
    fixtures::writeBytes(path("cut-header.npy"), bytes.substr(0, 30));
    EXPECT_INPUT_ERROR(readNpy(path("cut-header.npy")), "cut-header.npy");
    fixtures::writeBytes(path("cut-preamble.npy"), bytes.substr(0, 8));
    EXPECT_INPUT_ERROR(readNpy(path("cut-preamble.npy")), "cut-preamble.npy");
  }

  void malformedHeaders() {
    std::string bytes = fixtures::npyBytes("<f4", {2}, std::string(8, '\0'));
    std::string garbled = bytes;
    garbled.replace(garbled.find("'shape'"), 7, "'shade'");
    fixtures::writeBytes(path("garbled.npy"), garbled);
    EXPECT_INPUT_ERROR(readNpy(path("garbled.npy")), "garbled.npy");
    std::string version = bytes;
    version[6] = 9;
    fixtures::writeBytes(path("version.npy"), version);
    EXPECT_INPUT_ERROR(readNpy(path("version.npy")), "version.npy");
  }

  void oversizedShape() {
    // 10^12 × 10^6 floats declared, a few bytes present: refused before allocating.
    fixtures::writeBytes(path("huge.npy"),
                         fixtures::npyBytes("<f4", {1000000000000, 1000000}, "abcd"));
    EXPECT_INPUT_ERROR(readNpy(path("huge.npy")), "huge.npy");
    fixtures::writeBytes(
        path("overflow.npy"),
        fixtures::npyBytes("<f4", {4000000000000000000, 4000000000000000000}, "abcd"));
    EXPECT_INPUT_ERROR(readNpy(path("overflow.npy")), "overflow.npy");
    // A header length field pointing past the end of the file.
    std::string bytes = fixtures::npyBytes("<f4", {1}, "abcd");
    bytes[8] = static_cast<char>(0xff);
    bytes[9] = static_cast<char>(0x7f);
    fixtures::writeBytes(path("header-length.npy"), bytes);
    EXPECT_INPUT_ERROR(readNpy(path("header-length.npy")), "header-length.npy");
  }

  void nonFiniteAndEmptyAxes() {
    const std::vector<float> v = {1.0f, NAN};
    fixtures::writeBytes(path("nan.npy"), fixtures::npyBytes("<f4", {2}, fixtures::rawBytes(v)));
    EXPECT_INPUT_ERROR(readNpy(path("nan.npy")), "nan.npy");
    const std::vector<double> huge = {1.0, 1e300};
    fixtures::writeBytes(path("f64range.npy"),
                         fixtures::npyBytes("<f8", {2}, fixtures::rawBytes(huge)));
    EXPECT_INPUT_ERROR(readNpy(path("f64range.npy")), "f64range.npy");
    fixtures::writeBytes(path("zero.npy"), fixtures::npyBytes("<f4", {0, 3}, ""));
    EXPECT_INPUT_ERROR(readNpy(path("zero.npy")), "zero.npy");
  }

  void emptyWrongMagicUnreadable() {
    fixtures::writeBytes(path("empty.npy"), "");
    EXPECT_INPUT_ERROR(readNpy(path("empty.npy")), "empty.npy");
    fixtures::writeBytes(path("text.npy"), "this is not numpy at all");
    EXPECT_INPUT_ERROR(readNpy(path("text.npy")), "text.npy");
    EXPECT_INPUT_ERROR(readNpy(path("missing.npy")), "missing.npy");
    EXPECT_INPUT_ERROR(readNpy(dir_.path().toStdString()), dir_.path().toStdString());
  }
};

QTEST_APPLESS_MAIN(TestNpyReader)
#include "test_npy_reader.moc"
