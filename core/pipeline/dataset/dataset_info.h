#pragma once
// The "open a dataset" and "info" actions of both faces (issue 19): a loaded dataset's statistics
// with the workbench's defaults (nearest-neighbour queries and their seed), and its description as
// `noisescope-cli info --json` prints it. The GUI's Statistics box, `info` and the report ask here,
// so one file shows the same numbers in all three.
#include <nlohmann/json_fwd.hpp>

#include <cstdint>

#include "data/dataset.h"
#include "data/statistics.h"
#include "pipeline/defaults.h"
#include "util/progress.h"

namespace noisescope::pipeline {

struct DatasetInfoRequest {
  int64_t neighbourQueries = defaults::kNeighbourQueries;  // 0: no nearest-neighbour estimate
  uint64_t seed = defaults::kNeighbourSeed;                // which rows are the queries
};

DatasetStatistics datasetStatistics(const Dataset& dataset, const DatasetInfoRequest& request = {},
                                    const Progress& progress = {});

// What the dataset is (name, source, shape, scaling, notes) and its statistics, as one object.
nlohmann::json datasetInfoJson(const Dataset& dataset, const DatasetStatistics& statistics);

}  // namespace noisescope::pipeline
