// FASTA or plain sequence text, plain or gzip (the reader tells them apart by the magic number).
// The first three bytes choose the window (1–32 bases), the stride (1–8) and the policy for
// unknown letters, so that short inputs still make windows.
#include <string>

#include "data/formats/fasta_reader.h"
#include "targets.h"

namespace noisescope::fuzz {

Outcome fasta(const uint8_t* data, size_t size) {
  if (size < 3) return Outcome::Rejected;
  FastaOptions options;
  options.window = 1 + data[0] % 32;
  options.stride = 1 + data[1] % 8;
  options.unknownBases = data[2] & 1 ? FastaOptions::UnknownBases::AllNegative
                                     : FastaOptions::UnknownBases::SkipWindow;
  const std::string path = writeScratchFile("fuzz.fa", data + 3, size - 3);
  return acceptOrReject([&] { readFasta(path, options); });
}

}  // namespace noisescope::fuzz
