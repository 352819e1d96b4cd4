// The held-out query set of a held-out profile or a bracket, one rule for both faces: an explicit
// file, else the test split beside the dataset, else a seeded share held out; each with the
// provenance text the profile records; a query file is read on the prior's scale, and refused by
// name when it is of the wrong shape or holds rows of the prior.
#include <QString>
#include <QTest>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "data/load.h"
#include "data/streaming/prior_rows.h"
#include "fixtures.h"
#include "pipeline/diagnose/held_out_queries.h"
#include "test_paths.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::pipeline;

namespace {

// The InputError message of `action`, or a note that it threw none.
QString refusal(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return "(accepted)";
}

}  // namespace

class TestHeldOutQueries : public fixtures::ScratchTest {
  Q_OBJECT

  std::string writeNpy(const std::string& name, const std::vector<float>& values,
                       const std::vector<int64_t>& shape) {
    fixtures::writeBytes(path(name), fixtures::npyBytes("<f4", shape, fixtures::rawBytes(values)));
    return path(name);
  }

  const std::string train =
      noisescope::test::sourcePath() + "/sample_data/fashion-mnist/train-images-idx3-ubyte.gz";
  const std::string test =
      noisescope::test::sourcePath() + "/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz";

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

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

  void queryFileOnAnotherRangeTakesThePriorsScale() {
    // Float images on [0, 250] and a query file on [5, 240]: the queries take the prior's map.
    std::vector<float> prior(12 * 16), queries(6 * 16);
    for (size_t i = 0; i < prior.size(); ++i) prior[i] = float(i * 47 % 251);
    for (size_t i = 0; i < queries.size(); ++i) queries[i] = 5.0f + float(i * 31 % 236);
    const Dataset data = loadDataset(writeNpy("prior.npy", prior, {12, 4, 4}));
    HeldOutRequest request;
    request.queriesFrom = writeNpy("queries.npy", queries, {6, 4, 4});
    const HeldOutQueries held = chooseHeldOutQueries(data, data.source, request);
    for (size_t i = 0; i < queries.size(); ++i)
      QCOMPARE(held.queries.values[i], float(queries[i] * (2.0 / 250.0) - 1.0));
  }

  void queriesThatArePriorRowsAreRefusedByName() {
    // --queries-from the prior file itself: every row shared (the "0 ± 0 upper bound").
    const Dataset data = loadDataset(train);
    HeldOutRequest request;
    request.queriesFrom = train;
    const QString all = refusal([&] { chooseHeldOutQueries(data, train, request); });
    const QString count = QString::number(data.size());
    QVERIFY2(all.startsWith(QString::fromStdString(train)) &&
                 all.contains("shares " + count + " of its " + count + " rows with the prior " +
                              QString::fromStdString(train)),
             qPrintable(all));

    // Five of ten rows copied from the prior: counted, in memory and with the prior streamed.
    std::vector<float> rows(20 * 6), mixed;
    for (size_t i = 0; i < rows.size(); ++i) rows[i] = std::sin(0.7f * float(i));
    mixed.assign(rows.begin() + 15 * 6, rows.end());
    for (int i = 0; i < 5 * 6; ++i) mixed.push_back(3.0f + float(i));
    const std::string priorFile = writeNpy("rows.npy", rows, {20, 6});
    request.queriesFrom = writeNpy("mixed.npy", mixed, {10, 6});
    const Dataset prior = loadDataset(priorFile);
    const QString inMemory = refusal([&] { chooseHeldOutQueries(prior, priorFile, request); });
    QVERIFY2(inMemory.contains("mixed.npy") && inMemory.contains("rows.npy") &&
                 inMemory.contains("shares 5 of its 10 rows"),
             qPrintable(inMemory));
    const std::unique_ptr<PriorRows> streamed = openStreamedPrior(priorFile);
    const QString fromDisk =
        refusal([&] { loadHeldOutQueryFile(request.queriesFrom, request, *streamed); });
    QCOMPARE(fromDisk, inMemory);
  }

  // ±1 data drawn independently repeats itself: a held-out file of fresh draws shares rows with
  // the prior about as often as the prior repeats its own rows. Such a file is accepted, and its
  // description says how many rows it shares; copies beyond that rate are refused.
  void independentDiscreteDrawsMayShareRows() {
    std::mt19937 rng(5);
    std::bernoulli_distribution coin(0.5);
    auto draws = [&](int64_t rows, int64_t dim) {
      std::vector<float> v(static_cast<size_t>(rows * dim));
      for (float& x : v) x = coin(rng) ? 1.0f : -1.0f;
      return v;
    };
    const std::vector<float> priorRows = draws(400, 6);  // 64 patterns: most rows repeat
    const std::string priorFile = writeNpy("pm1-prior.npy", priorRows, {400, 6});
    HeldOutRequest request;
    request.queriesFrom = writeNpy("pm1-fresh.npy", draws(100, 6), {100, 6});
    const Dataset prior = loadDataset(priorFile);
    const HeldOutQueries held = chooseHeldOutQueries(prior, priorFile, request);
    QCOMPARE(held.queries.size(), int64_t{100});
    QVERIFY2(QString::fromStdString(held.description)
                 .contains("also occur in the prior, as "
                           "independent draws would"),
             held.description.c_str());

    // 20 dimensions: 10⁶ patterns, no repeats; a file of the prior's own rows is refused.
    const std::vector<float> wide = draws(300, 20);
    const std::string wideFile = writeNpy("pm1-wide.npy", wide, {300, 20});
    request.queriesFrom = writeNpy(
        "pm1-copies.npy", std::vector<float>(wide.begin(), wide.begin() + 40 * 20), {40, 20});
    const QString copied =
        refusal([&] { chooseHeldOutQueries(loadDataset(wideFile), wideFile, request); });
    QVERIFY2(copied.contains("shares 40 of its 40 rows") &&
                 copied.contains("more than independent draws would"),
             qPrintable(copied));
  }

  // The report decides whether a dataset gets a bracket by the same count the split then holds
  // out: 35–39 samples at the default 10 % round to 4 held-out points, enough for the bound's
  // two halves, so the report brackets them as `diagnose` does (they once got only the
  // empirical profile, from a check of 3.5 ≥ 4 before rounding).
  void reportAndSplitAgreeOnTheBracketMinimum() {
    HeldOutRequest request;
    request.lookForTestSplit = false;
    for (int64_t n = 20; n <= 50; ++n) {
      std::vector<float> values(static_cast<size_t>(n * 3));
      for (size_t i = 0; i < values.size(); ++i) values[i] = float(std::sin(0.7 * double(i)));
      const std::string file = writeNpy("rows-" + std::to_string(n) + ".npy", values, {n, 3});
      const Dataset data = loadDataset(file);
      const HeldOutQueries held = chooseHeldOutQueries(data, file, request);
      const bool bracketable = canBracket(request, file, data.split, data.size());
      QCOMPARE(bracketable, held.queries.size() >= 4);
      if (n >= 35 && n <= 39) QVERIFY2(bracketable, qPrintable(QString("n = %1").arg(n)));
      if (n < 35) QVERIFY2(!bracketable, qPrintable(QString("n = %1").arg(n)));
    }
    // A query file decides by itself (its own size is checked where it is read).
    request.queriesFrom = test;
    QVERIFY(canBracket(request, train, "", 10));
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
