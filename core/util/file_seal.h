#pragma once
// A length-and-checksum footer for files whose own format cannot tell a cut or damaged copy from a
// whole one before it is parsed (native training checkpoints). A writer seals the bytes; a reader
// checks the seal first and parses only what it vouches for, so a file cut short by a full disk
// or a crash of an older version is recognised and never loaded.
//
// The footer is 32 ASCII bytes at the very end: "NSSEAL01", the payload's length as 16 hex digits
// and its CRC-32 (IEEE 802.3, the zip polynomial) as 8 hex digits.
#include <cstdint>
#include <string>
#include <string_view>

namespace noisescope {

inline constexpr size_t kSealBytes = 32;

// CRC-32 of `bytes` (the same value zlib's crc32 gives).
uint32_t crc32(std::string_view bytes);

// `payload` followed by its footer.
std::string sealBytes(std::string payload);

struct Unsealed {
  enum class State {
    Sealed,    // footer present and matching: `payload` is the whole file minus the footer
    Unsealed,  // no footer at all (a file from before seals): `payload` is the whole file
    Damaged,   // a footer that does not match, or bytes missing: `problem` says which
  };
  State state = State::Damaged;
  std::string_view payload;
  std::string problem;
};

// Checks the footer of `file` (its whole contents). The payload views into `file`.
Unsealed unsealBytes(std::string_view file);

}  // namespace noisescope
