// Schedules know the kind of profile they follow (THEORY §10): an entropic schedule from an
// empirical profile carries a caveat naming the memorisation scale; from the population bounds
// or a checkpoint profile it carries none.
#include <QObject>
#include <QTest>

#include <cmath>
#include <cstdio>

#include "pipeline/schedules/caveats.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "profile/profile.h"
#include "util/log_grid.h"

using namespace noisescope;
using namespace noisescope::pipeline;

namespace {

// A smooth MMSE curve of the given kind; empirical profiles get posterior statistics that are
// one-hot (max weight 1) below σ = 0.5 and spread out above it.
Profile makeProfile(const std::string& kind) {
  Profile p;
  p.kind = kind;
  p.sigma = logSpacedGrid(0.002, 80.0, 24);
  p.dim = 10;
  p.datasetSize = 100;
  p.queries = kind == "gaussian" ? 0 : 64;
  MmseEstimate e;
  e.name = "test";
  for (double s : p.sigma) {
    e.mean.push_back(10.0 * s * s / (1.0 + s * s));
    e.standardError.push_back(0.0);
    e.ciLow.push_back(e.mean.back());
    e.ciHigh.push_back(e.mean.back());
  }
  p.estimates.push_back(e);
  p.rates = computeRates(p.sigma, p.primary());
  if (kind == "empirical" || kind == "held-out") {
    for (double s : p.sigma) {
      p.posterior.maxWeight.push_back(s < 0.5 ? 1.0 : 0.1);
      p.posterior.weightEntropy.push_back(s < 0.5 ? 0.0 : 2.0);
      p.posterior.effectiveSampleSize.push_back(s < 0.5 ? 1.0 : 10.0);
    }
  }
  return p;
}

BuiltSchedule build(const Profile& profile, const ScheduleRecipe& recipe) {
  RecipeContext context;
  context.profile = &profile;
  context.profileSource = profile.kind + ".json";
  return buildSchedule(recipe, schedule::LogSigmaGrid::uniform(0.002, 80.0, 128), context);
}

}  // namespace

class TestScheduleCaveats : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void memorisationScaleFromThePosterior() {
    const Profile p = makeProfile("empirical");
    double expected = 0.0;
    for (double s : p.sigma)
      if (s < 0.5) expected = s;
    QCOMPARE(memorisationSigma(p), expected);
    QCOMPARE(memorisationSigma(makeProfile("gaussian")), 0.0);  // no posterior statistics
  }

  void empiricalProfileCarriesTheCaveat() {
    const Profile p = makeProfile("empirical");
    char scale[32];
    std::snprintf(scale, sizeof scale, "sigma = %.3g", memorisationSigma(p));
    for (const ScheduleRecipe& recipe : {infoNoiseRecipe(), sqrtEntropyRecipe()}) {
      const BuiltSchedule built = build(p, recipe);
      QCOMPARE(built.caveats.size(), size_t{1});
      const std::string& caveat = built.caveats.front();
      QVERIFY2(caveat.find(scale) != std::string::npos, caveat.c_str());
      QVERIFY(caveat.find("memorises") != std::string::npos);
      QVERIFY(caveat.find("bound") != std::string::npos);
      QVERIFY(caveat.find("checkpoint") != std::string::npos);
      QCOMPARE(built.schedule.info.note("caveat", ""), caveat);
      QCOMPARE(built.parameters["caveats"][0].get<std::string>(), caveat);
      QCOMPARE(built.parameters["profile_kind"].get<std::string>(), std::string("empirical"));
    }
  }

  void populationAndCheckpointProfilesCarryNoneThePluginOne() {
    for (const char* kind :
         {"held-out", "held-out-wiener", "held-out-patch", "bound", "checkpoint"}) {
      const BuiltSchedule built = build(makeProfile(kind), infoNoiseRecipe());
      QVERIFY2(built.caveats.empty(), kind);
      QVERIFY(!built.parameters.contains("caveats"));
      QCOMPARE(built.schedule.info.note("caveat", "none"), std::string("none"));
      QCOMPARE(built.parameters["profile_kind"].get<std::string>(), std::string(kind));
    }
    // The plug-in Gaussian curve is an estimate, biased low: its schedules say so.
    const BuiltSchedule plugin = build(makeProfile("gaussian"), infoNoiseRecipe());
    QCOMPARE(plugin.caveats.size(), size_t(1));
    QVERIFY(plugin.caveats[0].find("biased low") != std::string::npos);
    QVERIFY(plugin.caveats[0].find("not a bound") != std::string::npos);
    // Non-entropic recipes do not follow a profile at all.
    QVERIFY(build(makeProfile("empirical"), presetRecipe("edm")).caveats.empty());
  }
};

QTEST_APPLESS_MAIN(TestScheduleCaveats)
#include "test_schedule_caveats.moc"
