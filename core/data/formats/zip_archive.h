#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// A ZIP archive read through libzip (.npz files, EDM/EDM2 dataset ZIPs): its members listed, and
// one member's bytes read whole after its declared size has been checked. Every failure is an
// InputError naming the archive (and the member).
#include <cstdint>
#include <string>
#include <vector>

struct zip;

namespace noisescope::data_detail {

class ZipArchive {
 public:
  struct Member {
    std::string name;
    uint64_t size = 0;  // uncompressed, as the archive declares it
    int64_t index = 0;
  };

  explicit ZipArchive(const std::string& path);
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  const std::string& path() const { return path_; }
  // Files only (folders left out), in the archive's order.
  const std::vector<Member>& members() const { return members_; }
  // The member's bytes; InputError when it is larger than `limit`, than the machine can hold, or
  // when it does not decompress to exactly its declared size (corrupt, truncated, CRC mismatch).
  std::string read(const Member& member, uint64_t limit) const;

 private:
  std::string path_;
  ::zip* archive_ = nullptr;
  std::vector<Member> members_;
};

// True when this build reads ZIP archives (NOISESCOPE_WITH_ZIP).
bool zipSupported();

}  // namespace noisescope::data_detail
