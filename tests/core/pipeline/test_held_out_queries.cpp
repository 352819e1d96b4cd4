// The held-out query set of a held-out profile or a bracket, one rule for both faces: an explicit
// file, else the test split beside the dataset, else a seeded share held out; each with the
// provenance text the profile records, and a clear refusal for a file of the wrong shape.
#include <QtTest>

#include <cmath>
#include <string>

#include "data/load.h"
#include "pipeline/held_out_queries.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::pipeline;

class TestHeldOutQueries : public QObject {
  Q_OBJECT

  const std::string train =
      std::string(NOISESCOPE_SOURCE_DIR) + "/sample_data/fashion-mnist/train-images-idx3-ubyte.gz";
  const std::string test =
      std::string(NOISESCOPE_SOURCE_DIR) + "/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz";

 private Q_SLOTS:
  void testSplitBesideTheFileIsPreferred() {
    const Dataset data = loadDataset(train);
    const HeldOutQueries held = chooseHeldOutQueries(data, train, HeldOutRequest{});
    QCOMPARE(held.prior.size(), data.size());  // the whole dataset stays the prior
    QCOMPARE(held.queries.size(), loadDataset(test).size());
    QCOMPARE(held.description, "the test split beside the dataset: " + test);
  }

  void askedShareIsHeldOutWithSeed() {
    const Dataset data = loadDataset(train);
    HeldOutRequest request;
    request.lookForTestSplit = false;
    request.share = 0.2;
    request.seed = 7;
    const HeldOutQueries a = chooseHeldOutQueries(data, train, request);
    const HeldOutQueries b = chooseHeldOutQueries(data, train, request);
    QCOMPARE(a.prior.size() + a.queries.size(), data.size());
    QCOMPARE(a.queries.size(), int64_t(std::llround(0.2 * data.size())));
    QVERIFY(a.queries.values == b.queries.values);  // the same seed, the same split
    QVERIFY(QString::fromStdString(a.description).startsWith("a seeded random 20% of "));
    QVERIFY(QString::fromStdString(a.description)
                .contains(QString("held out (%1 samples)").arg(a.queries.size())));
  }

  void aTestSplitDatasetIsSplitNotPairedWithItself() {
    Dataset data = loadDataset(test);
    QCOMPARE(data.split, std::string("test"));
    QVERIFY(heldOutQueryFile(HeldOutRequest{}, test, data.split).empty());
    const HeldOutQueries held = chooseHeldOutQueries(data, test, HeldOutRequest{});
    QVERIFY(held.queries.size() > 0 && held.prior.size() > 0);
    QVERIFY(QString::fromStdString(held.description).startsWith("a seeded random 10% of "));
  }

  void explicitFileWinsAndIsNamed() {
    const Dataset data = loadDataset(train);
    HeldOutRequest request;
    request.queriesFrom = test;
    request.lookForTestSplit = false;  // an explicit file is used even then
    const HeldOutQueries held = chooseHeldOutQueries(data, train, request);
    QCOMPARE(held.description, "--queries-from " + test);
    QCOMPARE(held.prior.size(), data.size());
  }

  void fileOfAnotherShapeIsRefusedByName() {
    const Dataset data = loadDataset(train);
    HeldOutRequest request;
    request.queriesFrom = "synthetic:gaussian?n=50&d=3&seed=1";
    try {
      chooseHeldOutQueries(data, train, request);
      QFAIL("a query file of another sample shape was accepted");
    } catch (const InputError& e) {
      const QString message = e.what();
      QVERIFY2(message.contains("synthetic:gaussian") && message.contains("do not match"),
               qPrintable(message));
    }
  }

  void shareOutsideTheRangeIsRefused() {
    const Dataset data = loadDataset(train);
    HeldOutRequest request;
    request.lookForTestSplit = false;
    request.share = 0.0;
    QVERIFY_THROWS_EXCEPTION(InputError, chooseHeldOutQueries(data, train, request));
  }
};

QTEST_GUILESS_MAIN(TestHeldOutQueries)
#include "test_held_out_queries.moc"
