// summarizeEstimate's 95 % interval: the normal approximation, its lower end clipped at 0 (an
// MMSE is never negative), and the profile file saying how the interval was formed; a profile
// started on another's levels.
#include <QObject>
#include <QTest>

#include <cmath>

#include "io/profile_io.h"
#include "profile/profile.h"

using namespace noisescope;

class TestProfileSummary : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void intervalIsClippedAtZero() {
    // Level 0: one query in 100 sees an error (the small-σ regime), so mean − 1.96·se < 0.
    // Level 1: every query sees about the same error, so the interval is the plain one.
    const int64_t queries = 100;
    std::vector<double> values(2 * queries, 0.0);
    values[7] = 5.0;
    for (int64_t q = 0; q < queries; ++q) values[queries + q] = 2.0 + 0.01 * double(q % 10);
    const MmseEstimate e = summarizeEstimate("direct", "test", values, 2, queries);
    QCOMPARE(e.mean[0], 0.05);
    const double se0 = e.standardError[0];
    QVERIFY(e.mean[0] - kNormal95 * se0 < 0.0);  // the unclipped end would be negative
    QCOMPARE(e.ciLow[0], 0.0);
    QCOMPARE(e.ciHigh[0], e.mean[0] + kNormal95 * se0);
    const double se1 = e.standardError[1];
    QVERIFY(se1 > 0.0);
    QCOMPARE(e.ciLow[1], e.mean[1] - kNormal95 * se1);
    QCOMPARE(e.ciHigh[1], e.mean[1] + kNormal95 * se1);
    for (size_t l = 0; l < 2; ++l) QVERIFY(e.ciLow[l] >= 0.0 && e.ciLow[l] <= e.mean[l]);
  }

  // A curve computed on another's levels keeps their facts and nothing of the curve.
  void sameLevelsKeepTheFactsOnly() {
    Profile grid;
    grid.kind = "held-out";
    grid.sigma = {0.01, 1.0, 80.0};
    grid.dim = 784;
    grid.datasetSize = 1800;
    grid.queries = 48;
    grid.sigmaData = 0.62;
    grid.estimates.push_back(summarizeEstimate("direct", "test", {1, 2, 3}, 3, 1));
    grid.provenance["producer"] = "test";
    const Profile bound = grid.onSameLevels("bound");
    QCOMPARE(bound.kind, std::string("bound"));
    QCOMPARE(bound.sigma, grid.sigma);
    QCOMPARE(bound.dim, grid.dim);
    QCOMPARE(bound.datasetSize, grid.datasetSize);
    QCOMPARE(bound.queries, grid.queries);
    QCOMPARE(bound.sigmaData, grid.sigmaData);
    QVERIFY(bound.estimates.empty() && bound.rates.empty() && bound.provenance.empty());
  }

  void profileFileDescribesTheInterval() {
    Profile p;
    p.kind = "empirical";
    p.sigma = {0.01, 1.0};
    p.dim = 2;
    p.datasetSize = 10;
    p.queries = 3;
    p.estimates.push_back(summarizeEstimate("rao_blackwell", "test", {0, 0, 3, 1, 2, 3}, 2, 3));
    p.rates = computeRates(p.sigma, p.primary());
    const nlohmann::json j = profileToJson(p);
    QCOMPARE(j.at("mmse").at("interval").get<std::string>(), std::string(kMmseInterval));
    QVERIFY(std::string(kMmseInterval).find("clipped at 0") != std::string::npos);
    // Per dimension the interval is the total one divided by D, so it stays ≥ 0 too.
    const auto& low = j.at("mmse").at("estimators").at(0).at("per_dimension").at("ci95_low");
    QCOMPARE(low.at(0).get<double>(), 0.0);
  }
};

QTEST_APPLESS_MAIN(TestProfileSummary)
#include "test_profile_summary.moc"
