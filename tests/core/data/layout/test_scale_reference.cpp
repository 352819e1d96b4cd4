// Another file of the same data (held-out queries, a test set) read onto its prior's scale
// (data/layout/scale_reference.h): the prior's map from values on disk, not one chosen from the
// file's own range; a file that cannot be on one scale with the prior is refused, naming both
// ranges.
#include <QTest>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>

#include "data/layout/scale_reference.h"
#include "data/load.h"
#include "data/streaming/prior_rows.h"
#include "fixtures.h"

using namespace noisescope;

namespace {

// n grey 4×4 images of floats in [lo, hi], with lo and hi both taken.
std::vector<float> imagesIn(int64_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  std::vector<float> v(static_cast<size_t>(n * 16));
  for (float& x : v) x = uniform(rng);
  v.front() = lo;
  v.back() = hi;
  return v;
}

std::string message(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

}  // namespace

class TestScaleReference : public fixtures::ScratchTest {
  Q_OBJECT

  std::string writeNpy(const std::string& name, const std::vector<float>& values,
                       const std::vector<int64_t>& shape) {
    fixtures::writeBytes(path(name), fixtures::npyBytes("<f4", shape, fixtures::rawBytes(values)));
    return path(name);
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void testSplitTakesThePriorsMapNotItsOwnRange() {
    // Float images on [0, 250] and a test split on [5, 240]: read by its own range the split
    // would be stretched to [−1, 1]; on the prior's scale a pixel value means the same in both.
    const std::vector<float> priorValues = imagesIn(20, 0.0f, 250.0f, 1);
    const std::vector<float> testValues = imagesIn(8, 5.0f, 240.0f, 2);
    const Dataset prior = loadDataset(writeNpy("train.npy", priorValues, {20, 4, 4}));
    const std::string testFile = writeNpy("test.npy", testValues, {8, 4, 4});
    const Dataset own = loadDataset(testFile);
    const Dataset onScale = loadDatasetOnScale(testFile, scaleReferenceOf(prior));
    const double scale = 2.0 / 250.0, offset = -1.0;  // the prior's map of [0, 250] to [−1, 1]
    for (size_t i = 0; i < testValues.size(); ++i)
      EXPECT_SAME_FLOAT(onScale.values[i], static_cast<float>(testValues[i] * scale + offset));
    QVERIFY(own.values.front() == -1.0f && onScale.values.front() > -0.97f);  // 5 is not black
    QCOMPARE(onScale.scaling, prior.scaling);
    QCOMPARE(onScale.sourceMin, 5.0);  // what the file itself holds is still reported
    QVERIFY(std::any_of(onScale.notes.begin(), onScale.notes.end(), [&](const std::string& n) {
      return n.find("scaled like " + prior.source) != std::string::npos;
    }));
#ifdef NOISESCOPE_WITH_HDF5
    fixtures::writeHdf5(path("test.h5"), "/test/images", {8, 4, 4}, fixtures::hdf5Float(),
                        testValues.data());
    const Dataset fromHdf5 = loadDatasetOnScale(path("test.h5"), scaleReferenceOf(prior));
    QVERIFY(fromHdf5.values == onScale.values);
#endif
  }

  void aStreamedPriorsDescriptionIsAReferenceToo() {
    // A uint8 prior streamed without a range scan, and float queries on 0..255: the byte map.
    std::vector<uint8_t> bytes(10 * 16);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 % 256);
    fixtures::writeBytes(path("u8.npy"),
                         fixtures::npyBytes("|u1", {10, 16}, fixtures::rawBytes(bytes)));
    const std::unique_ptr<PriorRows> prior = openStreamedPrior(path("u8.npy"));
    QVERIFY(!prior->description().sourceRangeKnown);
    std::vector<float> queries(4 * 16);
    for (size_t i = 0; i < queries.size(); ++i) queries[i] = static_cast<float>(i * 4 % 256);
    const Dataset onScale = loadDatasetOnScale(writeNpy("q.npy", queries, {4, 16}),
                                               scaleReferenceOf(prior->description()));
    for (size_t i = 0; i < queries.size(); ++i)
      EXPECT_SAME_FLOAT(onScale.values[i], fixtures::symmetric(queries[i]));
  }

  void filesOnAnotherScaleAreRefusedNamingBothRanges() {
    // A prior stored in [0, 1] and a "test split" stored in [0, 255]: not one scale.
    const Dataset prior = loadDataset(writeNpy("unit.npy", imagesIn(6, 0.0f, 1.0f, 3), {6, 4, 4}));
    const std::string bytesFile = writeNpy("bytes.npy", imagesIn(6, 0.0f, 255.0f, 4), {6, 4, 4});
    const std::string wide =
        message([&] { loadDatasetOnScale(bytesFile, scaleReferenceOf(prior)); });
    QVERIFY2(
        wide.find("bytes.npy") != std::string::npos && wide.find("unit.npy") != std::string::npos &&
            wide.find("[0, 255]") != std::string::npos && wide.find("[0, 1]") != std::string::npos,
        wide.c_str());
    // The other way round: values that span a sliver of the prior's range.
    const Dataset bytePrior = loadDataset(bytesFile);
    const std::string narrow =
        message([&] { loadDatasetOnScale(path("unit.npy"), scaleReferenceOf(bytePrior)); });
    QVERIFY2(narrow.find("unit.npy") != std::string::npos &&
                 narrow.find("not on one scale") != std::string::npos,
             narrow.c_str());
  }

  void rawPointsAndOneHotKeepTheirOwnMeaning() {
    // Points are raw in every file; one-hot sequences are ±1 whether stored 0/1 or ±1.
    const Dataset prior = loadDataset(writeNpy("p.npy", {0, 1, 2, 3, 4, 5}, {3, 2}));
    const std::vector<float> far = {-40, 7, 90, 3};
    QVERIFY(loadDatasetOnScale(writeNpy("far.npy", far, {2, 2}), scaleReferenceOf(prior)).values ==
            far);
    const std::vector<float> zeroOne = {1, 0, 0, 0, 0, 0, 1, 0};
    const std::vector<float> signedOne = {1, -1, -1, -1, -1, -1, 1, -1};
    const Dataset dna = loadDataset(writeNpy("dna01.npy", zeroOne, {1, 2, 4}));
    const Dataset other =
        loadDatasetOnScale(writeNpy("dnapm.npy", signedOne, {1, 2, 4}), scaleReferenceOf(dna));
    QVERIFY(other.values == dna.values);
  }
};

QTEST_GUILESS_MAIN(TestScaleReference)
#include "test_scale_reference.moc"
