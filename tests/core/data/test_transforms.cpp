// Transforms: scaling to [−1, 1], binarizing, seeded subsets and splits, and what they record.
#include <QObject>
#include <QTest>

#include <algorithm>
#include <set>

#include "data/transforms.h"
#include "fixtures.h"
#include "util/seeded_split.h"

using namespace noisescope;

namespace {
// N samples of dimension 2 whose first coordinate is the row index; labels = row % 3.
Dataset indexed(int64_t n) {
  Dataset d;
  d.name = "indexed";
  d.source = "memory";
  d.sampleShape = {2};
  for (int64_t i = 0; i < n; ++i) {
    d.values.push_back(static_cast<float>(i));
    d.values.push_back(0.5f);
    d.labels.push_back(static_cast<int32_t>(i % 3));
  }
  return d;
}
}  // namespace

class TestTransforms : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void scaleRawUint8UsesTheTypeRange() {
    Dataset d;
    d.sourceDtype = "uint8";
    d.sampleShape = {3};
    d.values = {0, 51, 255};
    const Dataset s = scaleToSymmetricUnit(d);
    QCOMPARE(s.values, (std::vector<float>{-1.0f, -0.6f, 1.0f}));
    QCOMPARE(s.scaling, std::string("[-1,1]"));
    QCOMPARE(s.transforms.size(), size_t{1});
  }

  void scaleFloatUsesObservedRange() {
    Dataset d;
    d.sourceDtype = "float32";
    d.sampleShape = {2};
    d.values = {2, 4, 6, 10};
    QCOMPARE(scaleToSymmetricUnit(d).values, (std::vector<float>{-1.0f, -0.5f, 0.0f, 1.0f}));
    d.values = {3, 3};
    QCOMPARE(scaleToSymmetricUnit(d).values, (std::vector<float>{0.0f, 0.0f}));
    Dataset scaled = d;
    scaled.scaling = "[-1,1]";
    scaled.values = {0.25f, -0.5f};
    QCOMPARE(scaleToSymmetricUnit(scaled).values, scaled.values);  // already scaled: unchanged
  }

  void binarizeThreshold() {
    Dataset d;
    d.scaling = "[-1,1]";
    d.sampleShape = {4};
    d.values = {-0.9f, 0.0f, 0.1f, 0.9f};
    const Dataset b = binarize(d);
    QCOMPARE(b.values, (std::vector<float>{-1, -1, 1, 1}));
    QCOMPARE(b.scaling, std::string("{-1,+1}"));
    QCOMPARE(binarize(d, 0.5f).values, (std::vector<float>{-1, -1, -1, 1}));
  }

  void plusMinusOneValuesAreRecognisedAsBinaryData() {
    Dataset d;
    d.scaling = "[-1,1]";
    d.sampleShape = {4};
    d.values = {-1, 1, 1, -1};
    const Dataset binary = recognisePlusMinusOne(d);
    QCOMPARE(binary.scaling, std::string("{-1,+1}"));
    QCOMPARE(binary.values, d.values);
    QCOMPARE(binary.transforms.size(), size_t{1});
    // A third value, one value only, or data not yet on [−1, 1]: unchanged.
    for (const std::vector<float>& values :
         {std::vector<float>{-1, 1, 0.5f, -1}, std::vector<float>{1, 1, 1, 1}}) {
      d.values = values;
      QCOMPARE(recognisePlusMinusOne(d).scaling, std::string("[-1,1]"));
    }
    d.values = {-1, 1, 1, -1};
    d.scaling = "raw";
    QCOMPARE(recognisePlusMinusOne(d).scaling, std::string("raw"));
  }

  void randomSubsetIsSeededAndDistinct() {
    const Dataset d = indexed(100);
    const Dataset a = randomSubset(d, 30, 9), b = randomSubset(d, 30, 9),
                  c = randomSubset(d, 30, 10);
    QCOMPARE(a.values, b.values);
    QVERIFY(a.values != c.values);
    QCOMPARE(a.size(), int64_t{30});
    std::set<int> rows;
    for (int64_t i = 0; i < a.size(); ++i) {
      const int row = static_cast<int>(a.sample(i)[0]);
      rows.insert(row);
      QCOMPARE(a.labels[i], row % 3);  // labels follow their rows
    }
    QCOMPARE(rows.size(), size_t{30});
    // The subset is the first rows of the one seeded permutation, in its order.
    std::vector<int64_t> first = seededPermutation(100, 9);
    first.resize(30);
    QCOMPARE(a.values, selectRows(d, first).values);
    const Dataset all = randomSubset(d, 1000, 1);
    QCOMPARE(all.size(), int64_t{100});
    QVERIFY(all.values != d.values);  // a shuffled copy
    QCOMPARE(all.transforms.size(), size_t{1});
    EXPECT_INPUT_ERROR(randomSubset(d, 0, 1), "subset");
  }

  void trainTestSplitPartitions() {
    const Dataset d = indexed(50);
    const auto [train, test] = trainTestSplit(d, 0.2, 3);
    QCOMPARE(test.size(), int64_t{10});
    QCOMPARE(train.size(), int64_t{40});
    QCOMPARE(train.split, std::string("train"));
    QCOMPARE(test.split, std::string("test"));
    std::set<int> rows;
    for (const Dataset* part : {&train, &test})
      for (int64_t i = 0; i < part->size(); ++i) rows.insert(static_cast<int>(part->sample(i)[0]));
    QCOMPARE(rows.size(), size_t{50});
    const auto again = trainTestSplit(d, 0.2, 3);
    QCOMPARE(again.second.values, test.values);
    // The parts are the engine's one seeded split (util/seeded_split.h), row for row.
    const RowSplit split = seededSplit(50, 10, 3);
    QCOMPARE(test.values, selectRows(d, split.held).values);
    QCOMPARE(train.values, selectRows(d, split.kept).values);
    EXPECT_INPUT_ERROR(trainTestSplit(d, 0.0, 1), "fraction");
    EXPECT_INPUT_ERROR(trainTestSplit(d, 1.0, 1), "fraction");
    EXPECT_INPUT_ERROR(trainTestSplit(indexed(1), 0.5, 1), "memory");
  }
};

QTEST_APPLESS_MAIN(TestTransforms)
#include "test_transforms.moc"
