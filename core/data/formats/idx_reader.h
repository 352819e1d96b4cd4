#pragma once
// IDX files (MNIST, Fashion-MNIST), raw or gzip-compressed. An images file
// "…-images-idx3-ubyte[.gz]" picks up the labels file "…-labels-idx1-ubyte[.gz]" next to it when
// that exists and has one label per image. Images become 1×H×W in [−1, 1].
#include <string>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope {

Dataset readIdx(const std::string& path, const Progress& progress = {});

// True when the bytes start like an uncompressed IDX file (0, 0, type, rank 1..4).
bool hasIdxMagic(const unsigned char* bytes, size_t size);

// The labels file that belongs to an images file, or "" when the name does not follow the
// "-images-idx3-ubyte" scheme or no such file exists.
std::string findIdxLabelsFile(const std::string& imagesPath);

}  // namespace noisescope
