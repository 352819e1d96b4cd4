// The auto grid and the sampling rate through the pipeline every face calls
// (pipeline/sampling/sampling_grids.h, sigma_steps.h): a bracket's files found from any one of
// them, the rate built from them, the grid chosen and why, and all of it in the σ-steps file.
// Without a profile auto is Karras ρ = 7; the named specs that need a rate say so.
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "diagnostic/bracket.h"
#include "io/profile_io.h"
#include "io/sigma_steps_io.h"
#include "pipeline/sampling/sampling_grids.h"
#include "pipeline/sampling/sigma_steps.h"
#include "schedule/sampling_rate.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::pipeline;

namespace {

// 32 random ±1 patterns in D = 16, 120 draws: half prior, half held out, so some are unseen.
Bracket plusMinusOneBracket() {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> bit(0, 1), pick(0, 31);
  std::vector<float> patterns(32 * 16);
  for (auto& v : patterns) v = bit(rng) ? 1.0f : -1.0f;
  Dataset prior, held;
  for (Dataset* d : {&prior, &held}) {
    d->kind = SampleKind::Vector;
    d->sampleShape = {16};
    d->scaling = "{-1,+1}";
  }
  for (int i = 0; i < 120; ++i) {
    const int k = pick(rng);
    auto& into = (i % 2 == 0 ? prior : held).values;
    into.insert(into.end(), patterns.begin() + k * 16, patterns.begin() + (k + 1) * 16);
  }
  DiagnosticOptions o;
  o.levels = 24;
  o.sigmaMin = 0.01;
  o.queries = 128;
  o.device = "cpu";
  BracketOptions b;
  b.withPatch = false;
  return computeBracket(prior, held, o, b);
}

}  // namespace

class TestSamplingGridAuto : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void autoFromABracketsFiles();
  void withoutAProfile();
};

void TestSamplingGridAuto::autoFromABracketsFiles() {
  QTemporaryDir dir;
  const Bracket b = plusMinusOneBracket();
  const std::string stem = dir.filePath("p").toStdString();
  writeProfile(stem + ".empirical.json", b.empirical);
  writeProfile(stem + ".held-out.json", b.heldOut);
  writeProfile(stem + ".bound.json", b.bound);
  // Any one file (or the --out name) finds the bracket.
  for (const std::string& one : {stem + ".json", stem + ".bound.json", stem + ".empirical.json"})
    QCOMPARE(bracketProfileFiles(one).size(), size_t(3));

  GridSources sources;
  sources.profile = &b.bound;
  sources.profileSource = stem + ".bound.json";
  const SamplingGridResult r = samplingGrid("auto", 8, sources);
  QVERIFY(r.rate.has_value());
  QVERIFY(r.rate->plusMinusOne);
  QVERIFY(!r.rate->lower.empty());  // the empirical sibling was read
  const auto choice = schedule::chooseAutoGrid(*r.rate, 0.002, 80.0);
  QCOMPARE(r.sigma[7], choice.sigmaMin);
  QCOMPARE(r.sigma[0], 80.0);
  QCOMPARE(r.canonical, std::string("auto?sigma_min=0.002&sigma_max=80"));
  QVERIFY(r.label.rfind("auto: ", 0) == 0);
  int reads = 0;
  bool said = false;
  for (const auto& note : r.notes) {
    reads += note.rfind("sampling rate reads ", 0) == 0 ? 1 : 0;
    said = said || note.rfind("auto: ", 0) == 0;
  }
  QCOMPARE(reads, 3);
  QVERIFY(said);

  // The σ-steps file carries the notes and the rate per level, and reads them back.
  const SigmaSteps steps = sigmaSteps(r, "a schedule");
  const std::string file = dir.filePath("steps.json").toStdString();
  writeSigmaSteps(file, steps);
  const SigmaSteps back = readSigmaSteps(file);
  QCOMPARE(back.notes, r.notes);
  QCOMPARE(back.samplingRate["levels"].size(), r.rate->sigma.size());
  QCOMPARE(back.sigma.front(), choice.sigmaMin);

  // The grids that read the rate take it from the same files; a plain grid reads nothing.
  QVERIFY(samplingGrid("karras-profile", 8, sources).rate.has_value());
  QCOMPARE(samplingGrid("karras-profile", 8, sources).sigma[7], choice.sigmaMin);
  QVERIFY(!samplingGrid("karras?rho=7", 8, sources).rate.has_value());
  QVERIFY(samplingGrid("karras?rho=7", 8, sources).notes.empty());
}

void TestSamplingGridAuto::withoutAProfile() {
  const SamplingGridResult a = samplingGrid("auto", 8);
  QCOMPARE(a.sigma, samplingGrid("karras?rho=7", 8).sigma);
  QVERIFY(!a.rate.has_value());
  QVERIFY(!a.notes.empty());
  QVERIFY(a.notes.back().find("Karras") != std::string::npos);
  for (const char* spec : {"gated", "balanced", "rescaled", "karras-profile"})
    QVERIFY_THROWS_EXCEPTION(InputError, samplingGrid(spec, 8));
}

QTEST_APPLESS_MAIN(TestSamplingGridAuto)
#include "test_sampling_grid_auto.moc"
