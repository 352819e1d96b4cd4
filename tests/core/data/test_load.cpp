// Format detection (magic numbers first, then names) and dispatch through loadDataset.
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileDevice>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include "data/load.h"
#include "fixtures.h"

using namespace noisescope;

class TestLoad : public fixtures::ScratchTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void detectsByContent() {
    // Misleading names: the content decides.
    fixtures::writeBytes(path("npy-data.bin"),
                         fixtures::npyBytes("<f4", {1}, std::string(4, '\0')));
    QCOMPARE(std::string(toString(detectFormat(path("npy-data.bin")))), std::string("npy"));
    fixtures::writeBytes(path("images.dat"), fixtures::idxBytes({1, 2, 2}, {1, 2, 3, 4}));
    QCOMPARE(std::string(toString(detectFormat(path("images.dat")))), std::string("idx"));
    fixtures::writeGzip(path("images.dat.gz"), fixtures::idxBytes({1, 2, 2}, {1, 2, 3, 4}));
    QCOMPARE(std::string(toString(detectFormat(path("images.dat.gz")))), std::string("idx"));
    fixtures::writeBytes(path("genome.txt"), ">chr\nACGT\n");
    QCOMPARE(std::string(toString(detectFormat(path("genome.txt")))), std::string("fasta"));
    fixtures::writeGzip(path("genome.txt.gz"), "acgtnacgt\n");
    QCOMPARE(std::string(toString(detectFormat(path("genome.txt.gz")))), std::string("fasta"));
#ifdef NOISESCOPE_WITH_HDF5
    const float one = 1.0f;
    fixtures::writeHdf5(path("arrays.data"), "/x", {1}, fixtures::hdf5Float(), &one);
    QCOMPARE(std::string(toString(detectFormat(path("arrays.data")))), std::string("hdf5"));
#endif
  }

  void detectsByNameAndKind() {
    QCOMPARE(std::string(toString(detectFormat("synthetic:circle?n=5"))), std::string("synthetic"));
    QCOMPARE(std::string(toString(detectFormat(path("data_batch_1.bin")))), std::string("cifar"));
    QCOMPARE(std::string(toString(detectFormat(path("missing.npy")))), std::string("npy"));
    QCOMPARE(std::string(toString(detectFormat(path("missing.h5")))), std::string("hdf5"));
    QCOMPARE(std::string(toString(detectFormat(path("x.fa.gz")))), std::string("fasta"));
    QDir(dir_.path()).mkdir("pictures");
    QCOMPARE(std::string(toString(detectFormat(path("pictures")))), std::string("image-folder"));
    QDir(dir_.path()).mkdir("batches");
    fixtures::writeBytes(path("batches/data_batch_1.bin"), std::string(3073, '\0'));
    QCOMPARE(std::string(toString(detectFormat(path("batches")))), std::string("cifar"));
    fixtures::writeBytes(path("mystery.xyz"), "hello world, nothing to see");
    QCOMPARE(std::string(toString(detectFormat(path("mystery.xyz")))), std::string("unknown"));
  }

  void loadDispatches() {
    fixtures::writeBytes(
        path("d.npy"),
        fixtures::npyBytes("<f4", {2, 2}, fixtures::rawBytes(std::vector<float>{1, 2, 3, 4})));
    QCOMPARE(loadDataset(path("d.npy")).values, (std::vector<float>{1, 2, 3, 4}));
    LoadOptions options;
    options.fasta.window = 2;
    options.fasta.stride = 1;
    fixtures::writeBytes(path("w.fa"), ">r\nACGT\n");
    QCOMPARE(loadDataset(path("w.fa"), options).size(), int64_t{3});
    QCOMPARE(loadDataset("synthetic:hypercube?n=7&d=3").size(), int64_t{7});
    QDir(dir_.path()).mkdir("imgs");
    fixtures::writePng(path("imgs/a.png"), 4, 2, 1, std::vector<uint8_t>(8, 9));
    options.imageFolder.width = 2;
    const Dataset folder = loadDataset(path("imgs"), options);
    QCOMPARE(folder.sampleShape, (std::vector<int64_t>{1, 1, 2}));  // height from the aspect ratio
  }

  // Black-and-white images in an ordinary IDX file are binary data, as binarize would make them.
  void twoValuedImagesLoadAsPlusMinusOne() {
    fixtures::writeGzip(path("bw-ubyte.gz"),
                        fixtures::idxBytes({2, 2, 2}, {0, 255, 255, 0, 255, 0, 0, 0}));
    const Dataset bw = loadDataset(path("bw-ubyte.gz"));
    QCOMPARE(bw.scaling, std::string("{-1,+1}"));
    QCOMPARE(bw.values, (std::vector<float>{-1, 1, 1, -1, 1, -1, -1, -1}));
    fixtures::writeGzip(path("grey-ubyte.gz"), fixtures::idxBytes({1, 2, 2}, {0, 255, 128, 0}));
    QCOMPARE(loadDataset(path("grey-ubyte.gz")).scaling, std::string("[-1,1]"));
  }

  // Messages and provenance name a dataset by its file, or by its name when it has none.
  void datasetsAreNamedByTheirOrigin() {
    fixtures::writeBytes(
        path("n.npy"),
        fixtures::npyBytes("<f4", {2, 2}, fixtures::rawBytes(std::vector<float>{1, 2, 3, 4})));
    QCOMPARE(loadDataset(path("n.npy")).sourceOrName(), path("n.npy"));
    Dataset built;
    built.name = "in memory";
    QCOMPARE(built.sourceOrName(), std::string("in memory"));
    built.sampleShape = {1, 28, 28};
    QCOMPARE(built.shapeString(), std::string("1×28×28"));
    QCOMPARE(sampleShapeText({200, 4}), std::string("200×4"));
    QCOMPARE(sampleShapeText({}), std::string());
  }

  void badInputsAreNamed() {
    EXPECT_INPUT_ERROR(loadDataset(path("mystery.xyz")), "mystery.xyz");
    EXPECT_INPUT_ERROR(loadDataset(path("nowhere.npy")), "nowhere.npy");
    EXPECT_INPUT_ERROR(loadDataset(path("nowhere")), "nowhere");
    fixtures::writeBytes(path("empty.bin"), "");
    EXPECT_INPUT_ERROR(loadDataset(path("empty.bin")), "empty.bin");
    EXPECT_INPUT_ERROR(loadDataset("synthetic:nothing"), "synthetic:nothing");
    EXPECT_INPUT_ERROR(loadDataset(""), "dataset");
  }

  void unreadableFile() {
    fixtures::writeBytes(path("locked.npy"), fixtures::npyBytes("<f4", {1}, std::string(4, '\0')));
    QFile::setPermissions(QString::fromStdString(path("locked.npy")), QFileDevice::Permissions());
    if (::geteuid() == 0) QSKIP("root reads files whatever their permissions");
    EXPECT_INPUT_ERROR(loadDataset(path("locked.npy")), "locked.npy");
  }
};

QTEST_APPLESS_MAIN(TestLoad)
#include "test_load.moc"
