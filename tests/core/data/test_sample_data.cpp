// The bundled sample_data/ files load as documented in their READMEs.
#include <QObject>
#include <QTest>

#include <set>

#include "data/load.h"
#include "data/statistics.h"
#include "fixtures.h"
#include "test_paths.h"

using namespace noisescope;

namespace {
std::string sample(const std::string& relative) {
  return noisescope::test::sourcePath() + "/sample_data/" + relative;
}
}  // namespace

class TestSampleData : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void fashionMnistTrain() {
    const Dataset d = loadDataset(sample("fashion-mnist/train-images-idx3-ubyte.gz"));
    QCOMPARE(d.size(), int64_t{2000});
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{1, 28, 28}));
    QCOMPARE(d.split, std::string("train"));
    QCOMPARE(d.labels.size(), size_t{2000});
    QVERIFY(d.labelsSource.find("train-labels-idx1-ubyte.gz") != std::string::npos);
    std::set<int32_t> classes(d.labels.begin(), d.labels.end());
    QCOMPARE(classes.size(), size_t{10});
    QCOMPARE(*classes.begin(), 0);
    QCOMPARE(*classes.rbegin(), 9);
    QCOMPARE(d.sourceMin, 0.0);
    QCOMPARE(d.sourceMax, 255.0);
    // Fashion-MNIST is mostly background: the mean pixel in [−1, 1] is well below 0.
    const DatasetStatistics s = computeStatistics(d, 64);
    QVERIFY(s.mean < -0.2 && s.mean > -0.7);
    QVERIFY(s.sigmaData > 0.3 && s.sigmaData < 0.9);
    QVERIFY(s.nearestNeighbourMedian > 1.0);
  }

  void fashionMnistTest() {
    const Dataset d = loadDataset(sample("fashion-mnist/t10k-images-idx3-ubyte.gz"));
    QCOMPARE(d.size(), int64_t{500});
    QCOMPARE(d.split, std::string("test"));
    QCOMPARE(d.labels.size(), size_t{500});
  }

  void lambdaPhage() {
    const std::string path = sample("dna/lambda_phage.fa");
    QCOMPARE(std::string(toString(detectFormat(path))), std::string("fasta"));
    const Dataset d = loadDataset(path);
    QCOMPARE(d.size(), int64_t{48502 / 200});
    QCOMPARE(d.sampleShape, (std::vector<int64_t>{200, 4}));
    // Every position is exactly one base: one +1 and three −1.
    for (int64_t i = 0; i < d.size(); ++i)
      for (int64_t p = 0; p < 200; ++p) {
        const float* x = d.sample(i) + p * 4;
        QCOMPARE(x[0] + x[1] + x[2] + x[3], -2.0f);
      }
    // The genome starts GGGCGGCGAC.
    const float* first = d.sample(0);
    EXPECT_SAME_FLOAT(first[0 * 4 + 2], 1.0f);
    EXPECT_SAME_FLOAT(first[3 * 4 + 1], 1.0f);
    EXPECT_SAME_FLOAT(first[8 * 4 + 0], 1.0f);
  }
};

QTEST_APPLESS_MAIN(TestSampleData)
#include "test_sample_data.moc"
