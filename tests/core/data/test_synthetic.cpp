// Synthetic sets: every kind has the structure it claims (the random source itself is tested in
// tests/core/util), the same seed gives the same set, and specs parse strictly.
#include <QObject>
#include <QTest>

#include <cmath>
#include <set>

#include "data/synthetic.h"
#include "fixtures.h"

using namespace noisescope;

class TestSynthetic : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sameSeedSameSetOtherSeedOtherSet() {
    SyntheticSpec spec;
    spec.kind = "gaussian";
    spec.count = 100;
    spec.dimension = 5;
    const Dataset a = makeSynthetic(spec), b = makeSynthetic(spec);
    QCOMPARE(a.values, b.values);
    spec.seed = 2;
    QVERIFY(makeSynthetic(spec).values != a.values);
    QCOMPARE(std::string(toString(a.kind)), std::string("vector"));
    QCOMPARE(a.source, std::string("synthetic:gaussian?n=100&d=5&scale=1&noise=0&seed=1"));
  }

  void diracMixtureHasAtMostKAtoms() {
    const Dataset d =
        makeSynthetic(parseSyntheticSpec("synthetic:dirac-mixture?n=500&d=3&k=4&scale=2"));
    QCOMPARE(d.size(), int64_t{500});
    std::set<std::vector<float>> atoms;
    for (int64_t i = 0; i < d.size(); ++i) {
      atoms.insert(std::vector<float>(d.sample(i), d.sample(i) + 3));
      QVERIFY(d.labels[i] >= 0 && d.labels[i] < 4);
      for (int j = 0; j < 3; ++j) QVERIFY(std::abs(d.sample(i)[j]) <= 2.0f);
    }
    QCOMPARE(atoms.size(), size_t{4});
    // Samples with the same label are the same atom.
    for (int64_t i = 1; i < d.size(); ++i)
      if (d.labels[i] == d.labels[0])
        QCOMPARE(std::vector<float>(d.sample(i), d.sample(i) + 3),
                 std::vector<float>(d.sample(0), d.sample(0) + 3));
  }

  void gaussianScale() {
    const Dataset d =
        makeSynthetic(parseSyntheticSpec("synthetic:gaussian?n=20000&d=2&scale=3&seed=5"));
    double squares = 0;
    for (float v : d.values) squares += double(v) * v;
    QVERIFY(std::abs(std::sqrt(squares / d.values.size()) - 3.0) < 0.05);
  }

  void circleAndMoonsAndRoll() {
    const Dataset circle = makeSynthetic(parseSyntheticSpec("synthetic:circle?n=300&scale=2"));
    for (int64_t i = 0; i < circle.size(); ++i)
      QVERIFY(std::abs(std::hypot(circle.sample(i)[0], circle.sample(i)[1]) - 2.0) < 1e-5);
    QCOMPARE(std::string(toString(circle.kind)), std::string("points"));

    const Dataset moons = makeSynthetic(parseSyntheticSpec("synthetic:two-moons?n=400"));
    int upper = 0;
    for (int64_t i = 0; i < moons.size(); ++i) {
      const double x = moons.sample(i)[0] + 0.5, y = moons.sample(i)[1] + 0.25;
      // Upper moon: on the unit circle around (0, 0); lower: around (1, 0.5).
      if (moons.labels[i] == 0) {
        ++upper;
        QVERIFY(std::abs(std::hypot(x, y) - 1.0) < 1e-5 && y >= -1e-6);
      } else {
        QVERIFY(std::abs(std::hypot(x - 1.0, y - 0.5) - 1.0) < 1e-5 && y <= 0.5 + 1e-6);
      }
    }
    QCOMPARE(upper, 200);

    const Dataset roll = makeSynthetic(parseSyntheticSpec("synthetic:swiss-roll?n=300&noise=0"));
    for (int64_t i = 0; i < roll.size(); ++i) {
      const double r = std::hypot(roll.sample(i)[0], roll.sample(i)[1]);
      QVERIFY(r >= 1.0 / 3.0 - 1e-5 && r <= 1.0 + 1e-5);
    }
  }

  void hypercubeAndNoise() {
    const Dataset cube = makeSynthetic(parseSyntheticSpec("synthetic:hypercube?n=1000&d=8"));
    QCOMPARE(cube.scaling, std::string("{-1,+1}"));
    int plus = 0;
    for (float v : cube.values) {
      QVERIFY(v == 1.0f || v == -1.0f);
      plus += v > 0;
    }
    QVERIFY(std::abs(plus - 4000) < 250);
    const Dataset noisy =
        makeSynthetic(parseSyntheticSpec("synthetic:hypercube?n=1000&d=8&noise=0.1"));
    QCOMPARE(noisy.scaling, std::string("raw"));
    QVERIFY(noisy.values != cube.values);
  }

  void specRoundTrip() {
    const SyntheticSpec spec =
        parseSyntheticSpec("synthetic:dirac-mixture?seed=42&k=3&scale=0.1&d=4&n=17&noise=0.25");
    QCOMPARE(spec.kind, std::string("dirac-mixture"));
    QCOMPARE(spec.count, int64_t{17});
    QCOMPARE(spec.dimension, int64_t{4});
    QCOMPARE(spec.components, int64_t{3});
    QCOMPARE(spec.scale, 0.1);
    QCOMPARE(spec.noise, 0.25);
    QCOMPARE(spec.seed, uint64_t{42});
    const std::string text = formatSyntheticSpec(spec);
    QCOMPARE(text,
             std::string("synthetic:dirac-mixture?n=17&d=4&k=3&scale=0.1&noise=0.25&seed=42"));
    const SyntheticSpec again = parseSyntheticSpec(text);
    QCOMPARE(makeSynthetic(again).values, makeSynthetic(spec).values);
    QCOMPARE(parseSyntheticSpec("synthetic:circle").count, int64_t{2000});
  }

  void badSpecs() {
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:spiral?n=3"), "spiral");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?m=3"), "'m'");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?n=abc"), "n=abc");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?n=0"), "synthetic:gaussian?n=0");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?n=5&n=6"), "twice");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:circle?d=3"), "2-D");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?scale=-1"), "scale");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?noise=nan"), "noise");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?seed=-4"), "seed");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?novalue"), "novalue");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("gaussian?n=3"), "gaussian?n=3");
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:gaussian?n=100000000&d=10000000"), "memory");
    // Few samples but a huge mixture: the atoms (k·d doubles) are checked too, not left to
    // std::bad_alloc (found by reading the fuzz harness's coverage).
    EXPECT_INPUT_ERROR(parseSyntheticSpec("synthetic:dirac-mixture?n=1&d=65536&k=100000000"),
                       "atoms");
    SyntheticSpec spec;
    spec.kind = "circle";
    spec.dimension = 3;
    EXPECT_INPUT_ERROR(makeSynthetic(spec), "circle");
  }
};

QTEST_APPLESS_MAIN(TestSynthetic)
#include "test_synthetic.moc"
