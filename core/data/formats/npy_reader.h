#pragma once
// NumPy .npy files (format versions 1, 2 and 3): little-endian uint8, float32 or float64 in C
// order. The first axis is N; array_layout.h says how the rest becomes a sample.
#include <string>

#include "data/dataset.h"
#include "data/layout/scale_reference.h"
#include "util/progress.h"

namespace noisescope {

// `scaleLike`: the scale to read onto (data/layout/scale_reference.h); null: the file's own rules.
Dataset readNpy(const std::string& path, const Progress& progress = {},
                const ScaleReference* scaleLike = nullptr);

// True when the bytes start with the .npy magic string.
bool hasNpyMagic(const unsigned char* bytes, size_t size);

}  // namespace noisescope
