#include "util/file_seal.h"

#include <array>
#include <cstdio>

namespace noisescope {

namespace {

constexpr std::string_view kMagic = "NSSEAL01";

std::array<uint32_t, 256> crcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

bool parseHex(std::string_view text, uint64_t& value) {
  value = 0;
  for (char c : text) {
    int digit;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if (c >= 'a' && c <= 'f')
      digit = c - 'a' + 10;
    else
      return false;
    value = (value << 4) | uint64_t(digit);
  }
  return true;
}

}  // namespace

uint32_t crc32(std::string_view bytes) {
  static const std::array<uint32_t, 256> table = crcTable();
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::string sealBytes(std::string payload) {
  char footer[kSealBytes + 1];
  std::snprintf(footer, sizeof footer, "%.*s%016llx%08x", int(kMagic.size()), kMagic.data(),
                static_cast<unsigned long long>(payload.size()),
                static_cast<unsigned>(crc32(payload)));
  payload.append(footer, kSealBytes);
  return payload;
}

Unsealed unsealBytes(std::string_view file) {
  Unsealed out;
  const size_t at = file.size() >= kSealBytes ? file.size() - kSealBytes : std::string_view::npos;
  if (at == std::string_view::npos || file.substr(at, kMagic.size()) != kMagic) {
    out.state = Unsealed::State::Unsealed;
    out.payload = file;
    return out;
  }
  uint64_t length = 0, crc = 0;
  if (!parseHex(file.substr(at + 8, 16), length) || !parseHex(file.substr(at + 24, 8), crc)) {
    out.problem = "its length-and-checksum footer is unreadable";
    return out;
  }
  if (length != at) {
    out.problem = "it holds " + std::to_string(at) + " bytes before its footer, which records " +
                  std::to_string(length) + " (cut short or spliced)";
    return out;
  }
  const std::string_view payload = file.substr(0, at);
  if (crc32(payload) != crc) {
    out.problem = "its checksum does not match its contents (damaged)";
    return out;
  }
  out.state = Unsealed::State::Sealed;
  out.payload = payload;
  return out;
}

}  // namespace noisescope
