#pragma once
// NumPy .npy files (format versions 1, 2 and 3): little-endian uint8, float32 or float64 in C
// order. The first axis is N; array_layout.h says how the rest becomes a sample.
#include <string>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope {

Dataset readNpy(const std::string& path, const Progress& progress = {});

// True when the bytes start with the .npy magic string.
bool hasNpyMagic(const unsigned char* bytes, size_t size);

}  // namespace noisescope
