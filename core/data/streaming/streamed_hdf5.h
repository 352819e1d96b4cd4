#pragma once
// Internal to noisescope_data: the HDF5 streamed prior of data/streaming/prior_rows.h, which exists
// only in builds with HDF5 support (NOISESCOPE_WITH_HDF5); without it, opening one says so.
#include <memory>
#include <string>

#include "data/streaming/prior_rows.h"
#include "util/progress.h"

namespace noisescope::data_detail {

bool streamedHdf5Available();
std::unique_ptr<PriorRows> openStreamedHdf5(const std::string& path, const std::string& datasetPath,
                                            const Progress& progress);

}  // namespace noisescope::data_detail
