// Image folders: exact PNG round trips, JPEG within compression error, grey / RGB choice, resizing
// (area averaging down, bilinear up), and unreadable images named in the InputError.
#include <QDir>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <cmath>

#include "data/formats/image_decode.h"
#include "data/formats/image_folder_reader.h"
#include "fixtures.h"

using namespace noisescope;

namespace {
float scaled(double byte) {
  return fixtures::symmetric(byte);
}
}  // namespace

class TestImageFolder : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  std::string folder(const std::string& name) const {
    QDir(dir_.path()).mkpath(name.c_str());
    return dir_.filePath(name.c_str()).toStdString();
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void greyPngRoundTripInNameOrder() {
    const std::string f = folder("grey");
    std::vector<uint8_t> a(3 * 2), b(3 * 2);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<uint8_t>(i * 40);
      b[i] = static_cast<uint8_t>(255 - i * 30);
    }
    fixtures::writePng(f + "/b.png", 3, 2, 1, b);
    fixtures::writePng(f + "/a.PNG", 3, 2, 1, a);
    fixtures::writeBytes(f + "/notes.txt", "ignored");
    const Dataset d = readImageFolder(f);
    QCOMPARE(d.size(), int64_t{2});
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{1, 2, 3}));
    QCOMPARE(d.name, std::string("grey"));
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_SAME_FLOAT(d.sample(0)[i], scaled(a[i]));  // a.PNG sorts before b.png
      EXPECT_SAME_FLOAT(d.sample(1)[i], scaled(b[i]));
    }
  }

  void rgbPngIsChannelsFirst() {
    const std::string f = folder("rgb");
    std::vector<uint8_t> px(2 * 2 * 3);
    for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint8_t>(i * 20 + 5);
    fixtures::writePng(f + "/x.png", 2, 2, 3, px);
    const Dataset d = readImageFolder(f);
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{3, 2, 2}));
    for (int c = 0; c < 3; ++c)
      for (int p = 0; p < 4; ++p) EXPECT_SAME_FLOAT(d.sample(0)[c * 4 + p], scaled(px[p * 3 + c]));
  }

  void mixedColourAndGreyChoice() {
    const std::string f = folder("mixed");
    fixtures::writePng(f + "/1.png", 2, 1, 1, {10, 20});
    fixtures::writePng(f + "/2.png", 2, 1, 3, {100, 50, 0, 0, 0, 255});
    const Dataset automatic = readImageFolder(f);
    QCOMPARE(automatic.sampleShape, (std::vector<int64_t>{3, 1, 2}));
    QCOMPARE(automatic.sample(0)[0], scaled(10));  // grey replicated into R, G and B
    QCOMPARE(automatic.sample(0)[2], scaled(10));
    ImageFolderOptions grey;
    grey.color = ImageFolderOptions::Color::Grey;
    const Dataset g = readImageFolder(f, grey);
    QCOMPARE(g.sampleShape, (std::vector<int64_t>{1, 1, 2}));
    QVERIFY(std::abs(g.sample(1)[0] - scaled(0.299 * 100 + 0.587 * 50)) < 1e-5f);
    QVERIFY(std::abs(g.sample(1)[1] - scaled(0.114 * 255)) < 1e-5f);
  }

  void jpegWithinCompressionError() {
    const std::string f = folder("jpeg");
    std::vector<uint8_t> px(16 * 16);
    for (int y = 0; y < 16; ++y)
      for (int x = 0; x < 16; ++x) px[y * 16 + x] = static_cast<uint8_t>(60 + 4 * x + 2 * y);
    fixtures::writeJpeg(f + "/a.jpg", 16, 16, 1, px);
    fixtures::writeJpeg(f + "/b.jpeg", 16, 16, 1, px);
    const Dataset d = readImageFolder(f);
    QCOMPARE(d.size(), int64_t{2});
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{1, 16, 16}));
    for (size_t i = 0; i < px.size(); ++i)
      QVERIFY(std::abs(d.sample(0)[i] - scaled(px[i])) < 3.0f / 127.5f);
  }

  void areaAveragingAndBilinear() {
    const std::string f = folder("resize");
    // 4×2 grey shrunk to 2×1: each output pixel is the mean of a 2×2 block.
    fixtures::writePng(f + "/big.png", 4, 2, 1, {0, 10, 100, 200, 20, 30, 60, 40});
    ImageFolderOptions options;
    options.width = 2;
    options.height = 1;
    const Dataset d = readImageFolder(f, options);
    EXPECT_SAME_FLOAT(d.sample(0)[0], scaled(15));
    EXPECT_SAME_FLOAT(d.sample(0)[1], scaled(100));
    QVERIFY(!d.notes.empty());
    // 3 → 2 along one axis: fractional coverage (1, ½) and (½, 1), each divided by 1.5.
    const std::vector<float> third = data_detail::resizePlane({0, 90, 180}, 3, 1, 2, 1);
    QCOMPARE(third[0], 30.0f);
    QCOMPARE(third[1], 150.0f);
    // 2 → 4 bilinear between pixel centres: 0, 25, 75, 100.
    const std::vector<float> up = data_detail::resizePlane({0, 100}, 2, 1, 4, 1);
    QCOMPARE(up, (std::vector<float>{0, 25, 75, 100}));
  }

  void unreadableImageIsNamed() {
    const std::string f = folder("broken");
    fixtures::writePng(f + "/good.png", 2, 2, 1, {1, 2, 3, 4});
    fixtures::writeBytes(f + "/bad.png", "this is not a png");
    EXPECT_INPUT_ERROR(readImageFolder(f), "bad.png");
  }

  void truncatedImages() {
    const std::string f = folder("truncated");
    std::vector<uint8_t> px(64 * 64 * 3);
    for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint8_t>((i * 7919) % 251);
    fixtures::writePng(f + "/cut.png", 64, 64, 3, px);
    fixtures::truncateFile(f + "/cut.png", fixtures::readBytes(f + "/cut.png").size() / 2);
    EXPECT_INPUT_ERROR(readImageFolder(f), "cut.png");
    const std::string g = folder("truncated-jpeg");
    fixtures::writeJpeg(g + "/cut.jpg", 64, 64, 3, px, 90);
    fixtures::truncateFile(g + "/cut.jpg", fixtures::readBytes(g + "/cut.jpg").size() / 2);
    EXPECT_INPUT_ERROR(readImageFolder(g), "cut.jpg");
  }

  void emptyAndOversizedImages() {
    const std::string f = folder("empty-image");
    fixtures::writeBytes(f + "/zero.jpg", "");
    EXPECT_INPUT_ERROR(readImageFolder(f), "zero.jpg");
    // A PNG whose header claims 100000 × 100000 pixels.
    const std::string g = folder("huge");
    fixtures::writePng(g + "/huge.png", 1, 1, 1, {0});
    std::string bytes = fixtures::readBytes(g + "/huge.png");
    const char size[8] = {0, 1, (char)0x86, (char)0xA0, 0, 1, (char)0x86, (char)0xA0};
    bytes.replace(16, 8, size, 8);  // IHDR width and height
    const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(bytes.data() + 12), 17);
    for (int i = 0; i < 4; ++i) bytes[29 + i] = static_cast<char>(crc >> (24 - 8 * i));
    fixtures::writeBytes(g + "/huge.png", bytes);
    const auto check = fixtures::expectInputError([&] { readImageFolder(g); }, "huge.png");
    QVERIFY2(check.ok, check.message.c_str());
    QVERIFY2(check.message.find("100000×100000") != std::string::npos, check.message.c_str());
  }

  void folderProblems() {
    const std::string f = folder("nothing");
    EXPECT_INPUT_ERROR(readImageFolder(f), "nothing");
    EXPECT_INPUT_ERROR(readImageFolder(f + "/missing"), "missing");
    fixtures::writeBytes(f + "/file.txt", "x");
    EXPECT_INPUT_ERROR(readImageFolder(f + "/file.txt"), "file.txt");
  }
};

QTEST_APPLESS_MAIN(TestImageFolder)
#include "test_image_folder.moc"
