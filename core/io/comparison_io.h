#pragma once
// A schedule comparison (schedule/compare.h) as text: the terminal's table and the CSV file.
#include <string>

#include "schedule/compare.h"

namespace noisescope::schedule {

// A fixed-width text table (one row per schedule) for a terminal.
std::string formatComparisonTable(const Comparison& comparison);
// The same as CSV (header + rows; inf and nan spelled out).
std::string comparisonToCsv(const Comparison& comparison);

}  // namespace noisescope::schedule
