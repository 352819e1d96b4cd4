#pragma once
// The headless report: the workbench's main job, dataset by dataset, written to a folder that a
// machine without a display can show. For every dataset it writes
//   - a sample ladder across σ (what the Dataset tab shows),
//   - the diagnostic bracket (pipeline/diagnose/bracket_job.h: the empirical profile, the held-out
//   members
//     and the population bound; JSON + CSV each) and the MMSE and rate charts with 95 % bands
//     (the Diagnostic tab's default run); a set too small to hold out four points gets the
//     empirical profile alone,
//   - the schedules built from the bound (InfoNoise, √-entropy) next to EDM and log-uniform, on
//     the effective allocation φ ∝ π·w, and their comparison table (the Schedules tab),
//   - one exported schedule file and its inference σ-steps (the Schedules tab's exports),
//   - "use it in your trainer": that schedule's φ fitted with each trainer's own families
//     (pipeline/schedules/fit_for_tool.h, as the Export for… dialog), with charts, a table and
//     snippets.
// Every number comes from the same core functions the GUI calls (pipeline::runBracket,
// pipeline::buildSchedule, compareSchedules, the io writers); README.md's words are
// io/report_markdown.h's.
#include <string>
#include <vector>

#include "data/load.h"
#include "diagnostic/diagnostic_options.h"
#include "pipeline/defaults.h"
#include "util/progress.h"

namespace noisescope::pipeline {

struct ReportRequest {
  std::vector<std::string> datasets;  // paths or synthetic:… specs
  LoadOptions load;                   // shared loading options (its progress is ignored)
  std::string outDir = "report";
  std::string producer = "noisescope-cli report";
  int samplesPerRow = 8;
  std::vector<double> ladderSigmas = {0.0, 0.05, 0.2, 0.5, 1.0, 2.0, 5.0};
  // The diagnostic: sized so that the bundled sample data profiles in seconds on two cores.
  DiagnosticOptions profile = quickProfileOptions();
  int scheduleBins = defaults::kBins;  // log-σ bins of the schedules and of the comparison
  int sigmaSteps = 32;                 // steps of the exported inference σ-steps

  static DiagnosticOptions quickProfileOptions();
};

struct ReportDataset {
  std::string name;
  std::string stem;                // file-name prefix of this dataset's files
  std::vector<std::string> files;  // written, relative to the report folder
};

struct ReportResult {
  std::string folder;  // absolute
  std::vector<ReportDataset> datasets;
};

// The request both faces make: the report of `datasets` (paths or synthetic:… specs) read with
// `load` (its progress dropped: the job reports its own) into `outDir`, by `producer`, with
// `settings`' ladder, diagnostic, bins and σ-steps (its other fields are replaced). The CLI passes
// what its flags set; the workbench's "Write report folder…" the defaults, for its loaded dataset.
ReportRequest reportRequest(const std::vector<std::string>& datasets, const LoadOptions& load,
                            const std::string& outDir, const std::string& producer,
                            ReportRequest settings = {});

// Throws InputError (naming the dataset or the folder) on bad input; writes nothing for a
// dataset that fails to load, and stops there.
ReportResult writeReport(const ReportRequest& request, const Progress& progress = {});

}  // namespace noisescope::pipeline
