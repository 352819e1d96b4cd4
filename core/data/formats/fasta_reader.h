#pragma once
// FASTA files (multi-record, line-wrapped, any case, optionally gzip-compressed) and plain
// sequence text, cut into one-hot DNA windows: shape {L, 4}, bases in the order A, C, G, T,
// +1 for the base and −1 in the other three channels. Windows never cross a record boundary.
#include <string>

#include "data/dataset.h"
#include "data/load.h"
#include "util/progress.h"

namespace noisescope {

Dataset readFasta(const std::string& path, const FastaOptions& options = {},
                  const Progress& progress = {});

// True for the usual FASTA / sequence file names (.fa, .fasta, .fna, .seq, … optionally .gz).
bool hasFastaExtension(const std::string& path);

}  // namespace noisescope
