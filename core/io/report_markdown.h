#pragma once
// The report folder's README.md (pipeline/report.h writes the folder): the introduction, one
// section per dataset with its facts, pictures and the schedules' comparison, and the trainer
// section with each tool's best family. Words and tables only: every number is computed by the
// pipeline and handed in. Torch-free.
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "io/tool_fit_io.h"
#include "schedule/compare.h"

namespace noisescope::io {

// A number as the report prints it: 3 significant digits, "∞" / "−∞", "–" for not a number.
std::string reportNumber(double v);

// What one dataset's section states, up to the trainer section.
struct ReportDatasetFacts {
  std::string stem;  // the file-name prefix of its pictures and files
  struct Data {
    std::string name, source;
    int64_t size = 0;
    std::string shape, kind, scaling;
  } data;
  struct Values {
    double min = 0.0, max = 0.0, mean = 0.0;
    double sigmaData = 0.0;  // measured
    double nearestNeighbourMedian = 0.0;
    double memorisationSigma = 0.0;  // where the posterior's largest weight falls below ½
  } values;
  // The profile the schedules follow.
  struct ProfileUsed {
    std::string kind, estimate;
    int levels = 0;
    int64_t queries = 0;
    uint64_t seed = 0;
    bool bracketed = false;     // a bracket with held-out points (else the empirical profile alone)
    std::string heldOutPoints;  // the bracket's held-out set, in words
  } profile;
  std::vector<double> ladderSigmas;
  std::vector<schedule::ScheduleMetrics> comparison;  // against EDM
  // The exported inference σ-steps: how many, the grid's label, its largest step ratio and limit.
  struct Steps {
    int count = 0;
    std::string label;
    double largestRatio = 0.0, ratioLimit = 0.0;
  } steps;
  std::vector<std::string> caveats;
};

// "# NoiseScope report", what it holds, who made it and when, and what the curves mean.
void writeReportIntroduction(std::ostream& md, const std::string& producer);
void writeReportDatasetSection(std::ostream& md, const ReportDatasetFacts& facts);

// "Use it in your trainer": the schedule file `source` fitted by every tool (`fits`, each fitted at
// width × height px for the resolution-dependent shifts), a table of each tool's best family, the
// charts drawn (coordinate name, picture file) and the snippets.
struct ReportTrainerCharts {
  std::string coordinate, picture;
};
void writeReportTrainerSection(std::ostream& md, const std::string& source,
                               const std::vector<ToolFit>& fits,
                               const std::vector<ReportTrainerCharts>& charts, int width,
                               int height);

}  // namespace noisescope::io
