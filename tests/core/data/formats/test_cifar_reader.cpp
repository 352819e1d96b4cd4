// CIFAR-10 / CIFAR-100 binary batches: exact round trips, a folder of batches read in order, and
// bad files answered with an InputError naming the file.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include "data/formats/cifar_reader.h"
#include "fixtures.h"

using namespace noisescope;

namespace {
// `count` records with the given number of label bytes; pixel bytes follow a pattern per record.
std::string cifarBytes(int count, int labelBytes, int firstLabel) {
  std::string bytes;
  for (int r = 0; r < count; ++r) {
    if (labelBytes == 2) bytes.push_back(static_cast<char>(r % 20));  // coarse label
    bytes.push_back(static_cast<char>(firstLabel + r));
    for (int i = 0; i < 3072; ++i) bytes.push_back(static_cast<char>((i * 7 + r * 13) % 256));
  }
  return bytes;
}
float pixel(int record, int i) {
  return fixtures::symmetric((i * 7 + record * 13) % 256);
}
}  // namespace

class TestCifarReader : public fixtures::ScratchTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void cifar10Batch() {
    fixtures::writeBytes(path("test_batch.bin"), cifarBytes(3, 1, 7));
    const Dataset d = readCifar(path("test_batch.bin"));
    QCOMPARE(d.size(), int64_t{3});
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{3, 32, 32}));
    QCOMPARE(std::string(toString(d.kind)), std::string("image"));
    QCOMPARE(d.labels, (std::vector<int32_t>{7, 8, 9}));
    QCOMPARE(d.split, std::string("test"));
    QCOMPARE(d.scaling, std::string("[-1,1]"));
    for (int r = 0; r < 3; ++r)
      for (int i = 0; i < 3072; i += 101) EXPECT_SAME_FLOAT(d.sample(r)[i], pixel(r, i));
    QCOMPARE(d.sourceMin, 0.0);
    QCOMPARE(d.sourceMax, 255.0);
  }

  void cifar100KeepsFineLabel() {
    fixtures::writeBytes(path("train.bin"), cifarBytes(4, 2, 95));
    const Dataset d = readCifar(path("train.bin"));
    QCOMPARE(d.labels, (std::vector<int32_t>{95, 96, 97, 98}));
    QCOMPARE(d.split, std::string("train"));
    EXPECT_SAME_FLOAT(d.sample(3)[5], pixel(3, 5));
  }

  void folderReadsBatchesInOrder() {
    QDir(dir_.path()).mkdir("cifar-10-batches-bin");
    fixtures::writeBytes(path("cifar-10-batches-bin/data_batch_2.bin"), cifarBytes(2, 1, 5));
    fixtures::writeBytes(path("cifar-10-batches-bin/data_batch_1.bin"), cifarBytes(3, 1, 0));
    fixtures::writeBytes(path("cifar-10-batches-bin/test_batch.bin"), cifarBytes(1, 1, 9));
    QVERIFY(looksLikeCifar(path("cifar-10-batches-bin")));
    const Dataset d = readCifar(path("cifar-10-batches-bin"));
    QCOMPARE(d.size(), int64_t{5});
    QCOMPARE(d.labels, (std::vector<int32_t>{0, 1, 2, 5, 6}));
    EXPECT_SAME_FLOAT(d.sample(3)[0], pixel(0, 0));
    QCOMPARE(d.split, std::string("train"));
  }

  void sizeNotWholeRecords() {
    const std::string bytes = cifarBytes(2, 1, 0);
    fixtures::writeBytes(path("data_batch_9.bin"), bytes.substr(0, bytes.size() - 10));
    EXPECT_INPUT_ERROR(readCifar(path("data_batch_9.bin")), "data_batch_9.bin");
    fixtures::writeBytes(path("odd.bin"), std::string(1000, '\0'));
    EXPECT_INPUT_ERROR(readCifar(path("odd.bin")), "odd.bin");
  }

  void labelOutOfRangeIsNotCifar() {
    // CIFAR has no magic number: a label above 9 is how a wrong file shows itself.
    fixtures::writeBytes(path("data_batch_7.bin"), cifarBytes(2, 1, 200));
    EXPECT_INPUT_ERROR(readCifar(path("data_batch_7.bin")), "data_batch_7.bin");
  }

  void emptyMissingAndFolders() {
    fixtures::writeBytes(path("data_batch_8.bin"), "");
    EXPECT_INPUT_ERROR(readCifar(path("data_batch_8.bin")), "data_batch_8.bin");
    EXPECT_INPUT_ERROR(readCifar(path("data_batch_0.bin")), "data_batch_0.bin");
    QDir(dir_.path()).mkdir("no-batches");
    EXPECT_INPUT_ERROR(readCifar(path("no-batches")), "no-batches");
  }
};

QTEST_APPLESS_MAIN(TestCifarReader)
#include "test_cifar_reader.moc"
