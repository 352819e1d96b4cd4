// The report's README.md words (io/report_markdown.h): numbers at three digits with ∞ and "–",
// a dataset's facts, the held-out row and band only for a bracket, every compared schedule and
// caveat, and the trainer table, charts and snippets of the tools that have a fit.
#include <QObject>
#include <QTest>

#include <cmath>
#include <limits>
#include <sstream>

#include "io/report_markdown.h"

using namespace noisescope;
using namespace noisescope::io;

namespace {

ReportDatasetFacts facts(bool bracketed) {
  schedule::ScheduleMetrics edm, info;
  edm.label = "edm";
  edm.massInBand = std::nan("");
  info.label = "infonoise";
  info.klToReference = std::numeric_limits<double>::infinity();
  info.totalVariation = 0.12345;
  return {"00-sample",
          {"sample", "sample.idx.gz", 2000, "1×28×28", "image", "[-1, 1]"},
          {-1, 1, -0.4262, 0.6612, 8.214, 0.4},
          {bracketed ? "bound" : "empirical", "selected_held_out_risk", 24, 48, 7, bracketed,
           "a seeded 10 % of the data (200 points)"},
          {0, 0.5, 5},
          {edm, info},
          {32, "Karras ρ=7", 1.5, 3},
          {"the profile memorises below σ = 0.4"}};
}

std::string section(const ReportDatasetFacts& f) {
  std::ostringstream md;
  writeReportDatasetSection(md, f);
  return md.str();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

class TestReportMarkdown : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void numbersAsTheReportPrintsThem() {
    QCOMPARE(reportNumber(0.123456), std::string("0.123"));
    QCOMPARE(reportNumber(12345.0), std::string("1.23e+04"));
    QCOMPARE(reportNumber(std::numeric_limits<double>::infinity()), std::string("∞"));
    QCOMPARE(reportNumber(-std::numeric_limits<double>::infinity()), std::string("−∞"));
    QCOMPARE(reportNumber(std::nan("")), std::string("–"));
  }

  void datasetSectionStatesItsFacts() {
    const std::string md = section(facts(true));
    QVERIFY(md.rfind("## sample\n\n", 0) == 0);
    QVERIFY(has(md, "| N, shape | 2000, 1×28×28 (image) |"));
    QVERIFY(has(md, "| values | [-1, 1], range [-1, 1], mean -0.426 |"));
    QVERIFY(
        has(md, "| profile | bound (selected_held_out_risk), 24 levels × 48 queries, seed 7 |"));
    QVERIFY(has(md, "| held-out points | a seeded 10 % of the data (200 points) |"));
    QVERIFY(has(md, "σ = 0, 0.5, 5 (top to bottom"));
    QVERIFY(has(md, "![MMSE](00-sample-mmse.png) ![rate](00-sample-rate.png)"));
    QVERIFY(has(md, "Student-t 95 % interval over the held-out points"));
    QVERIFY(has(md, "| edm | 0 | 0 | – |"));
    QVERIFY(has(md, "| infonoise | ∞ | 0.123 |"));
    QVERIFY(has(md, "32 inference σ-steps `00-sample-infonoise.sigma-steps.json`"));
    QVERIFY(has(md, "Karras ρ=7 (largest step ×1.5, limit ×3)"));
    QVERIFY(has(md, "> **Caveat.** the profile memorises below σ = 0.4\n"));
  }

  void anEmpiricalProfileHasNoHeldOutRow() {
    const std::string md = section(facts(false));
    QVERIFY(!has(md, "held-out points"));
    QVERIFY(!has(md, "Student-t"));
    QVERIFY(has(md, "a 95 % interval over the Monte Carlo queries"));
  }

  void trainerSectionListsToolsWithAFit() {
    ToolFit fitted;
    fitted.tool = "diffusers";
    fitted.model = "flux";
    fitted.coordinate = "flow-t";
    fitted.knob = "the script's flags";
    fitted.targetMassReachable = 0.5;
    schedule::TrainerFamilyFit best;
    best.family = "logit_normal";
    best.parameters = {{"logit_mean", 0.25}};
    best.kl = 0.01;
    best.snippet = "--logit_mean=0.25";
    fitted.fits = {best};
    ToolFit empty;
    empty.tool = "nothing-fitted";
    std::ostringstream out;
    writeReportTrainerSection(out, "s.schedule.json", {fitted, empty},
                              {{"flow-t", "00-trainers-flow-t.png"}}, 1024, 768);
    const std::string md = out.str();
    QVERIFY(has(md, "fitted with each trainer's own sampling families"));
    QVERIFY(has(md, "at 1024×768 px"));
    QVERIFY(has(md, "`noisescope-cli fit s.schedule.json --for TOOL`"));
    QVERIFY(
        has(md, "| diffusers | `flux` | `flow-t` | `logit_normal` | logit_mean = 0.25 | 0.01 |"));
    QVERIFY(has(md, "| 50 % |"));
    QVERIFY(has(md, "![trainers, flow-t](00-trainers-flow-t.png)\n"));
    QVERIFY(has(
        md, "**diffusers** (`logit_normal`; the script's flags):\n\n```\n--logit_mean=0.25\n```"));
    QVERIFY(!has(md, "nothing-fitted"));
  }
};

QTEST_GUILESS_MAIN(TestReportMarkdown)
#include "test_report_markdown.moc"
