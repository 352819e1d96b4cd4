#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// NumPy .npz files (numpy.savez / savez_compressed): a ZIP archive of .npy members, one per
// array, named after its key. sd-scripts caches one image's latents in one (library/
// train_util.py, save_latents_to_disk; strategy_base.py for the multi-resolution keys).
#include <cstdint>
#include <string>
#include <vector>

namespace noisescope::data_detail {

struct NpzArray {
  std::string key;  // the member name without ".npy"
  std::vector<int64_t> shape;
  std::string dtype;  // "uint8", "float32", "float64"
  std::vector<float> values;
};

// Every array whose key `wanted` accepts (all when empty), read whole. InputError naming the file
// (and the member) for a broken archive, a member that is not a valid .npy, or a member larger
// than the machine holds.
std::vector<NpzArray> readNpz(const std::string& path,
                              bool (*wanted)(const std::string& key) = nullptr);
// The keys of the archive, without reading any array.
std::vector<std::string> npzKeys(const std::string& path);

}  // namespace noisescope::data_detail
