#pragma once
// HDF5 files through the HDF5 C API: list the numeric datasets, and read one as a Dataset with
// the same layout and scaling rules as .npy (array_layout.h). Integer and float element types are
// converted to float by HDF5 itself. Only built when NOISESCOPE_WITH_HDF5 is on.
#include <string>

#include "data/dataset.h"
#include "data/layout/scale_reference.h"
#include "data/load.h"
#include "util/progress.h"

namespace noisescope {

// datasetPath "" picks the only numeric dataset; with several, InputError lists them.
// `scaleLike`: the scale to read onto (data/layout/scale_reference.h); null: the file's own rules.
Dataset readHdf5(const std::string& path, const std::string& datasetPath,
                 const Progress& progress = {}, const ScaleReference* scaleLike = nullptr);

}  // namespace noisescope
