#pragma once
// Comparing schedules as one job: the Schedules panel's table and `noisescope-cli compare` ask
// for a comparison here, so both gate the informative band by the same rule (defaults.h) and
// read a profile's rate the same way.
#include <optional>
#include <string>
#include <vector>

#include "profile/profile.h"
#include "schedule/allocation.h"  // Curve
#include "schedule/compare.h"
#include "schedule/coordinates.h"  // Coordinate
#include "schedule/schedule.h"

namespace noisescope::pipeline {

struct ComparisonRequest {
  std::vector<schedule::Schedule> schedules;  // each labelled by its info.label
  schedule::LogSigmaGrid grid;
  int reference = 0;                 // index of the schedule the divergences are measured against
  const Profile* profile = nullptr;  // optional: adds the informative band and low-rate columns
  std::string profileSource;         // names the profile in errors
  std::optional<double> bandGateC;   // the band's gate c; unset: comparisonBandGateC(kind)
};

// The comparison of the request's schedules on its grid (schedule/compare.h). InputError when
// there is no schedule, the reference is out of range, or the profile has no usable rate (naming
// profileSource).
schedule::Comparison compareSchedules(const ComparisonRequest& request);

// The comparison as the CSV both faces write (the text table is io/comparison_io.h
// formatComparisonTable).
void writeComparisonCsv(const std::string& path, const schedule::Comparison& comparison);

// The compared schedules' `curve` in `coordinate` as a chart with the informative band shaded
// (render/chart.h), written as SVG or PNG by the path's extension.
void writeComparisonChart(const std::string& path, const ComparisonRequest& request,
                          const schedule::Comparison& comparison, schedule::Coordinate coordinate,
                          schedule::Curve curve);

}  // namespace noisescope::pipeline
