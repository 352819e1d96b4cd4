#include "pipeline/schedules/compare_job.h"

#include "io/comparison_io.h"
#include "pipeline/defaults.h"
#include "render/chart.h"
#include "schedule/entropic.h"
#include "util/atomic_file.h"

namespace noisescope::pipeline {

schedule::Comparison compareSchedules(const ComparisonRequest& request) {
  schedule::ComparisonOptions options;
  options.grid = request.grid;
  options.reference = request.reference;
  schedule::RateProfile rates;
  if (request.profile) {
    rates = schedule::rateProfileFrom(*request.profile, request.profileSource);
    options.profile = &rates;
    options.bandGateC =
        request.bandGateC.value_or(defaults::comparisonBandGateC(request.profile->kind));
  }
  return schedule::compareSchedules(request.schedules, options);
}

void writeComparisonCsv(const std::string& path, const schedule::Comparison& comparison) {
  writeFileAtomically(path, schedule::comparisonToCsv(comparison));
}

void writeComparisonChart(const std::string& path, const ComparisonRequest& request,
                          const schedule::Comparison& comparison, schedule::Coordinate coordinate,
                          schedule::Curve curve) {
  const render::ChartSpec chart =
      render::scheduleChart(request.schedules, comparison.labels, request.grid, coordinate, curve,
                            comparison.bandLow, comparison.bandHigh);
  render::writeChart(path, chart);
}

}  // namespace noisescope::pipeline
