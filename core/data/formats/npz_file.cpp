#include "data/formats/npz_file.h"

#include "data/formats/input_file.h"
#include "data/formats/zip_archive.h"
#include "data/layout/npy_array.h"
#include "util/error.h"

namespace noisescope::data_detail {

namespace {
// A member larger than this is not a latent cache entry (sd-scripts' are a few hundred KB).
constexpr uint64_t kMaxMember = uint64_t{4} << 30;

std::string keyOf(const std::string& member) {
  return endsWith(member, ".npy") ? member.substr(0, member.size() - 4) : member;
}
}  // namespace

std::vector<std::string> npzKeys(const std::string& path) {
  const ZipArchive archive(path);
  std::vector<std::string> keys;
  for (const auto& m : archive.members()) keys.push_back(keyOf(m.name));
  return keys;
}

std::vector<NpzArray> readNpz(const std::string& path, bool (*wanted)(const std::string&)) {
  const ZipArchive archive(path);
  if (archive.members().empty()) throw InputError(path, "is an .npz archive with no arrays");
  std::vector<NpzArray> arrays;
  for (const auto& member : archive.members()) {
    const std::string key = keyOf(member.name);
    if (wanted && !wanted(key)) continue;
    if (!endsWith(member.name, ".npy"))
      throw InputError(path, "holds '" + member.name + "', which is not a .npy member");
    const std::string where = path + ": array '" + key + "'";
    const std::string bytes = archive.read(member, kMaxMember);
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const NpyArrayInfo info = parseNpyArrayInfo(data, bytes.size(), where);
    checkAllocation(where, checkedMultiply(where, info.elements, sizeof(float)), "the array");
    NpzArray array;
    array.key = key;
    array.shape = info.shape;
    array.dtype = info.dtype;
    array.values.resize(info.elements);
    decodeNpyElements(info, where, data + info.dataOffset, info.elements, 0, array.values.data());
    arrays.push_back(std::move(array));
  }
  return arrays;
}

}  // namespace noisescope::data_detail
