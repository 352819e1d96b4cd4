#pragma once
// CIFAR-10 and CIFAR-100 binary batches. CIFAR-10 (data_batch_N.bin, test_batch.bin): records of
// 1 label byte + 3×32×32 pixel bytes. CIFAR-100 (train.bin, test.bin): 2 label bytes (coarse,
// fine; the fine label is kept) + 3×32×32. A folder holding the batches reads them all, in order.
// Images become 3×32×32 in [−1, 1].
#include <string>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope {

enum class CifarVariant { Cifar10, Cifar100 };

// Reads one batch file, or a folder: every data_batch_*.bin (train split) of a CIFAR-10 folder,
// or train.bin of a CIFAR-100 folder. The variant is told by the file name, then by which record
// size divides the file size.
Dataset readCifar(const std::string& path, const Progress& progress = {});

// True when the name (or, for a folder, its contents) looks like CIFAR binary batches.
bool looksLikeCifar(const std::string& path);

}  // namespace noisescope
