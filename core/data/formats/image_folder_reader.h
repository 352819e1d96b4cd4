#pragma once
// A folder of PNG and JPEG files (not its subfolders), in name order, all resized to one size:
// area averaging when shrinking, bilinear when enlarging. Grey or RGB per ImageFolderOptions;
// values in [−1, 1]. Other files in the folder are ignored.
#include <string>

#include "data/dataset.h"
#include "data/load.h"
#include "util/progress.h"

namespace noisescope {

Dataset readImageFolder(const std::string& folder, const ImageFolderOptions& options = {},
                        const Progress& progress = {});

// The PNG / JPEG files directly inside the folder, sorted by name (full paths).
std::vector<std::string> listImageFiles(const std::string& folder);

}  // namespace noisescope
