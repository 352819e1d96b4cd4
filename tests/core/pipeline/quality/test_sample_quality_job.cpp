// The quality wing: samples scored against held-out data. DNA needs no feature network (the k-mer
// spectra's Jensen–Shannon divergence), so the job is checked end to end here: a fresh draw of the
// same law scores near zero, a collapsed sampler far from it, and a request that names neither
// samples nor a checkpoint (or both) is refused with the setting it lacks.
#include <QObject>
#include <QTest>

#include <cmath>
#include <random>

#include "pipeline/quality/sample_quality_job.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::pipeline;

namespace {

// `count` one-hot ±1 sequences of length 64; bases drawn with P(A) = pA and the rest equal.
Dataset dna(int64_t count, uint32_t seed, double pA) {
  constexpr int64_t length = 64;
  Dataset d;
  d.name = "dna";
  d.source = "written by the test";
  d.kind = SampleKind::Sequence;
  d.sampleShape = {length, 4};
  d.scaling = "one-hot ±1";
  d.values.assign(count * length * 4, -1.0f);
  std::mt19937 rng(seed);
  std::discrete_distribution<int> base({pA, (1 - pA) / 3, (1 - pA) / 3, (1 - pA) / 3});
  for (int64_t i = 0; i < count * length; ++i) d.values[i * 4 + base(rng)] = 1.0f;
  d.validate();
  return d;
}

}  // namespace

class TestSampleQualityJob : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sameLawScoresNearZeroACollapsedOneFar() {
    const Dataset reference = dna(300, 1, 0.25);
    const Dataset sameLaw = dna(300, 2, 0.25);
    const Dataset collapsed = dna(300, 3, 0.9);
    const ScoreOutcome near = scoreAgainstHeldOut(reference, &sameLaw, {});
    const ScoreOutcome far = scoreAgainstHeldOut(reference, &collapsed, {});
    QCOMPARE(near.samples, int64_t{300});
    QCOMPARE(near.reference, int64_t{300});
    QVERIFY(std::isnan(near.fd));  // no feature network was given
    QVERIFY(near.featureNetwork.empty());
    QCOMPARE(int(near.kmerJsPerK.size()), 6);
    QVERIFY(std::isfinite(near.kmerJs) && near.kmerJs >= 0.0);
    QVERIFY2(far.kmerJs > 10 * near.kmerJs,
             qPrintable(QString("same law %1, collapsed %2").arg(near.kmerJs).arg(far.kmerJs)));
    // k = 1 alone already sees the base composition: 0.9 against 0.25 for A.
    QVERIFY(far.kmerJsPerK.front() > 0.1);
    QVERIFY(near.kmerJsPerK.front() < 0.01);
  }

  void neitherOrBothSourcesAreRefused() {
    const Dataset reference = dna(20, 1, 0.25);
    try {
      scoreAgainstHeldOut(reference, nullptr, {});
      QFAIL("scored without samples or a checkpoint");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("quality score"), e.what());
    }
    ScoreRequest both;
    both.checkpoint = "some-run";
    QVERIFY_THROWS_EXCEPTION(InputError, scoreAgainstHeldOut(reference, &reference, both));
  }

  void aMissingFeatureNetworkIsNamed() {
    QVERIFY_THROWS_EXCEPTION(InputError, readFeatureNetworkSummary("/nonexistent/net.features.pt"));
    try {
      readFeatureNetworkSummary("/nonexistent/net.features.pt");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("/nonexistent/net.features.pt"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestSampleQualityJob)
#include "test_sample_quality_job.moc"
