// HDF5 reader: listing, exact round trips of uint8 / int32 / float / double datasets, choosing a
// dataset, and bad files answered with an InputError naming the file.
#include <QTemporaryDir>
#include <QTest>

#include "data/formats/hdf5_probe.h"
#include "data/formats/hdf5_reader.h"
#include "data/load.h"
#include "data/streaming/prior_rows.h"
#include "fixtures.h"
#include "test_paths.h"

using namespace noisescope;

class TestHdf5Reader : public fixtures::ScratchTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void listsNestedDatasets() {
    const std::vector<float> points = {1, 2, 3, 4, 5, 6};
    const std::vector<uint8_t> images(4 * 2 * 3, 7);
    fixtures::writeHdf5(path("two.h5"), "/points", {3, 2}, fixtures::hdf5Float(), points.data());
    fixtures::writeHdf5(path("two.h5"), "/train/images", {4, 2, 3}, fixtures::hdf5Uint8(),
                        images.data(), true);
    const auto list = listHdf5Datasets(path("two.h5"));
    QCOMPARE(list.size(), size_t{2});
    QCOMPARE(list[0].path, std::string("/points"));
    QCOMPARE(list[0].dtype, std::string("float32"));
    QCOMPARE(list[0].shape, (std::vector<int64_t>{3, 2}));
    QCOMPARE(list[1].path, std::string("/train/images"));
    QCOMPARE(list[1].dtype, std::string("uint8"));

    // Several datasets and none chosen: the error lists them.
    const auto check = fixtures::expectInputError([&] { readHdf5(path("two.h5"), ""); }, "two.h5");
    QVERIFY2(check.ok, check.message.c_str());
    QVERIFY(check.message.find("/points") != std::string::npos);
    QVERIFY(check.message.find("/train/images") != std::string::npos);

    const Dataset d = readHdf5(path("two.h5"), "/points");
    QCOMPARE(d.values, points);
    QCOMPARE(std::string(toString(d.kind)), std::string("points"));
    const Dataset e = readHdf5(path("two.h5"), "train/images");
    QCOMPARE(std::string(toString(e.kind)), std::string("image"));
    QCOMPARE(e.sampleShape, (std::vector<int64_t>{1, 2, 3}));
    QCOMPARE(e.split, std::string("train"));
    EXPECT_SAME_FLOAT(e.values[0], fixtures::symmetric(7));

    EXPECT_INPUT_ERROR(readHdf5(path("two.h5"), "/nothing"), "two.h5");
  }

  void singleDatasetIsTakenAndTypesConvert() {
    std::vector<double> v(5 * 6);
    for (size_t i = 0; i < v.size(); ++i) v[i] = 0.25 * static_cast<double>(i) - 2.0;
    fixtures::writeHdf5(path("one.hdf5"), "/x", {5, 6}, fixtures::hdf5Double(), v.data());
    const Dataset d = readHdf5(path("one.hdf5"), "");
    QCOMPARE(d.size(), int64_t{5});
    QCOMPARE(d.sourceDtype, std::string("float64"));
    for (size_t i = 0; i < v.size(); ++i) EXPECT_SAME_FLOAT(d.values[i], static_cast<float>(v[i]));

    const std::vector<int32_t> ints = {-3, 0, 9, 100000};
    fixtures::writeHdf5(path("ints.h5"), "/n", {4}, fixtures::hdf5Int32(), ints.data());
    const Dataset e = loadDataset(path("ints.h5"));
    QCOMPARE(e.sourceDtype, std::string("int32"));
    QCOMPARE(e.values, (std::vector<float>{-3, 0, 9, 100000}));
  }

  void readsInChunksWithProgress() {
    std::vector<float> v(3000 * 400);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 1000) * 0.001f;
    fixtures::writeHdf5(path("big.h5"), "/data", {3000, 400}, fixtures::hdf5Float(), v.data());
    int reports = 0;
    const Dataset d =
        readHdf5(path("big.h5"), "/data", Progress([&](double, const std::string&) { ++reports; }));
    QVERIFY(reports >= 2);
    QCOMPARE(d.values, v);
  }

  void unwrittenHugeDataset() {
    fixtures::writeHdf5Unwritten(path("huge.h5"), "/empty", {1000000000, 100000});
    EXPECT_INPUT_ERROR(readHdf5(path("huge.h5"), ""), "huge.h5");
  }

  void truncatedFile() {
    std::vector<float> v(2000, 1.5f);
    fixtures::writeHdf5(path("cut.h5"), "/v", {200, 10}, fixtures::hdf5Float(), v.data());
    const size_t size = fixtures::readBytes(path("cut.h5")).size();
    fixtures::truncateFile(path("cut.h5"), size / 2);
    EXPECT_INPUT_ERROR(readHdf5(path("cut.h5"), ""), "cut.h5");
    fixtures::truncateFile(path("cut.h5"), 100);
    EXPECT_INPUT_ERROR(readHdf5(path("cut.h5"), ""), "cut.h5");
  }

  // Fuzz finding 9 (docs/fuzzing.md): a dataset listed as uint8 whose values convert to 21 … 964
  // must be refused, read whole or streamed, instead of indexing the 256-entry byte table.
  void uint8TypeHoldingLargerValues() {
    const std::string file =
        noisescope::test::sourcePath() + "/tests/fuzz/regressions/hdf5/uint8-type-holding-964.h5";
    EXPECT_INPUT_ERROR(readHdf5(file, "/images"), "corrupt type");
    LoadOptions options;
    options.hdf5Dataset = "/images";
    EXPECT_INPUT_ERROR(openStreamedPrior(file, options), "corrupt type");
  }

  // Fuzz finding 10: a local heap that claims 2.4e18 bytes made libhdf5's metadata accumulator
  // copy from a null buffer (SIGSEGV). Our read-only file driver has no accumulator, so listing
  // and reading the file end in an InputError that names it.
  void localHeapClaimingExabytes() {
    const std::string file = noisescope::test::sourcePath() +
                             "/tests/fuzz/regressions/hdf5/rejected-h5f-accum-read-null-memcpy.h5";
    EXPECT_INPUT_ERROR(listHdf5Datasets(file), "cannot list its contents");
    EXPECT_INPUT_ERROR(readHdf5(file, ""), "rejected-h5f-accum-read-null-memcpy.h5");
  }

  // Fuzz finding 11: a crafted attribute message makes libhdf5 1.10.8 read past it (the class of
  // CVE-2025-2310), which crashes a sanitized build. Every file's metadata is first walked in a
  // child process: a good file's walk passes, and the crafted file is read (a release build,
  // where the read stays silent) or refused with an InputError (a sanitized one), never a crash.
  void metadataIsWalkedInAChildFirst() {
    std::vector<float> v(6, 1.0f);
    fixtures::writeHdf5(path("walk.h5"), "/group/v", {2, 3}, fixtures::hdf5Float(), v.data());
    noisescope::hdf5::walkMetadata(path("walk.h5"));
    noisescope::hdf5::requireMetadataWalkSurvives(path("walk.h5"));
    QCOMPARE(listHdf5Datasets(path("walk.h5")).size(), size_t(1));

    const std::string crafted =
        noisescope::test::sourcePath() + "/tests/fuzz/regressions/hdf5/h5o-attr-decode-overread.h5";
    try {
      noisescope::hdf5::requireMetadataWalkSurvives(crafted);
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("crashed decoding its metadata") != std::string::npos,
               e.what());
    }
  }

  // Two readers of one file at once share HDF5's open file (the driver compares device and
  // inode), and each reads its own rows.
  void oneFileOpenTwice() {
    std::vector<float> v(60);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
    fixtures::writeHdf5(path("twice.h5"), "/v", {20, 3}, fixtures::hdf5Float(), v.data());
    const Dataset first = readHdf5(path("twice.h5"), "");
    LoadOptions options;
    const auto streamed = openStreamedPrior(path("twice.h5"), options);
    const Dataset second = readHdf5(path("twice.h5"), "/v");
    QCOMPARE(first.values, second.values);
    std::vector<float> row(3);
    streamed->read(19, 1, row.data());
    QCOMPARE(row[0], first.values[57]);
  }

  void emptyWrongMagicUnreadable() {
    fixtures::writeBytes(path("empty.h5"), "");
    EXPECT_INPUT_ERROR(readHdf5(path("empty.h5"), ""), "empty.h5");
    EXPECT_INPUT_ERROR(listHdf5Datasets(path("empty.h5")), "empty.h5");
    fixtures::writeBytes(path("text.h5"), "not hdf5, just some text that is long enough");
    EXPECT_INPUT_ERROR(readHdf5(path("text.h5"), ""), "text.h5");
    EXPECT_INPUT_ERROR(readHdf5(path("missing.h5"), ""), "missing.h5");
    EXPECT_INPUT_ERROR(readHdf5(dir_.path().toStdString(), ""), dir_.path().toStdString());
  }
};

QTEST_APPLESS_MAIN(TestHdf5Reader)
#include "test_hdf5_reader.moc"
