#include "data/formats/zip_archive.h"

#ifdef NOISESCOPE_WITH_ZIP
#include <zip.h>
#endif

#include "data/formats/input_file.h"
#include "util/error.h"

namespace noisescope::data_detail {

#ifdef NOISESCOPE_WITH_ZIP

bool zipSupported() {
  return true;
}

namespace {
std::string zipErrorText(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}
}  // namespace

ZipArchive::ZipArchive(const std::string& path) : path_(path) {
  checkedFileSize(path);
  int code = 0;
  // ZIP_CHECKCONS: the central directory must agree with the local headers.
  archive_ = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!archive_) throw InputError(path, "is not a readable ZIP archive: " + zipErrorText(code));
  const zip_int64_t count = zip_get_num_entries(archive_, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(archive_, static_cast<zip_uint64_t>(i), 0, &stat) != 0 ||
        !(stat.valid & ZIP_STAT_NAME) || !(stat.valid & ZIP_STAT_SIZE)) {
      const std::string why = zip_strerror(archive_);
      zip_discard(archive_);
      throw InputError(path, "has an unreadable entry " + std::to_string(i) + ": " + why);
    }
    const std::string name = stat.name;
    if (!name.empty() && name.back() == '/') continue;  // a folder entry
    members_.push_back({name, stat.size, i});
  }
}

ZipArchive::~ZipArchive() {
  if (archive_) zip_discard(archive_);
}

std::string ZipArchive::read(const Member& member, uint64_t limit) const {
  const std::string where = path_ + ": member '" + member.name + "'";
  if (member.size > limit)
    throw InputError(where, "declares " + formatBytes(member.size) +
                                " uncompressed, more than the " + formatBytes(limit) +
                                " a member of this kind may hold");
  checkAllocation(where, member.size, "the member");
  zip_file_t* file = zip_fopen_index(archive_, static_cast<zip_uint64_t>(member.index), 0);
  if (!file) throw InputError(where, std::string("cannot be opened: ") + zip_strerror(archive_));
  std::string bytes(member.size, '\0');
  const zip_int64_t got = member.size ? zip_fread(file, bytes.data(), member.size) : 0;
  // One byte more than declared must not be there either.
  char extra = 0;
  const zip_int64_t more = got >= 0 ? zip_fread(file, &extra, 1) : 0;
  const std::string why = got < 0 || more < 0 ? zip_file_strerror(file) : "";
  zip_fclose(file);
  if (got < 0 || more < 0) throw InputError(where, "is corrupt: " + why);
  if (static_cast<uint64_t>(got) != member.size || more != 0)
    throw InputError(where, "does not decompress to the " + std::to_string(member.size) +
                                " bytes it declares (corrupt or truncated archive)");
  return bytes;
}

#else

bool zipSupported() {
  return false;
}

ZipArchive::ZipArchive(const std::string& path) : path_(path) {
  throw InputError(path,
                   "is a ZIP archive, but this build of NoiseScope has no ZIP support "
                   "(built with NOISESCOPE_WITH_ZIP=OFF)");
}
ZipArchive::~ZipArchive() = default;
std::string ZipArchive::read(const Member&, uint64_t) const {
  return {};
}

#endif

}  // namespace noisescope::data_detail
