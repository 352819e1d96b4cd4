#pragma once
// PNG encoding of rendered images, for reports and chart files written without a GUI.
#include <string>

#include "render/sample_image.h"

namespace noisescope {

std::string encodePng(const RgbImage& image);
// Writes atomically; throws InputError naming the path on failure.
void writePng(const std::string& path, const RgbImage& image);

}  // namespace noisescope
