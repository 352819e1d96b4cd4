// bench_hdf5_read: what the read-only file driver (data/formats/hdf5_file.h, no metadata
// accumulator, no sieve buffer) costs against libhdf5's default driver, in the same run on the
// same files (RESULTS.md, "HDF5 through the read-only driver"):
//   - bulk: a 60 000 x 784 float32 dataset, contiguous and chunked (1 000 rows a chunk), read
//     whole by one H5Dread;
//   - metadata: 2 000 small datasets in 40 groups, each opened with its type and shape by an
//     H5Lvisit walk.
// The same calls run through both drivers; only how the file was opened differs.
// Each case runs 5 times, alternating; the best wall time of each is compared.
#include <hdf5.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "data/formats/hdf5_file.h"
#include "data/formats/hdf5_reader.h"

namespace {

using Clock = std::chrono::steady_clock;

void writeBulk(const std::string& path, bool chunked, int64_t rows, int64_t columns) {
  std::vector<float> values(static_cast<size_t>(rows * columns));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 251) / 251.0f;
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(columns)};
  const hid_t space = H5Screate_simple(2, dims, nullptr);
  const hid_t creation = H5Pcreate(H5P_DATASET_CREATE);
  if (chunked) {
    const hsize_t chunk[2] = {1000, static_cast<hsize_t>(columns)};
    H5Pset_chunk(creation, 2, chunk);
  }
  const hid_t dataset =
      H5Dcreate2(file, "/x", H5T_IEEE_F32LE, space, H5P_DEFAULT, creation, H5P_DEFAULT);
  H5Dwrite(dataset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(dataset);
  H5Pclose(creation);
  H5Sclose(space);
  H5Fclose(file);
}

void writeManySmall(const std::string& path, int groups, int perGroup) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[1] = {4};
  const float values[4] = {1, 2, 3, 4};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  for (int g = 0; g < groups; ++g) {
    const hid_t group =
        H5Gcreate2(file, ("/g" + std::to_string(g)).c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int d = 0; d < perGroup; ++d) {
      const hid_t dataset = H5Dcreate2(group, ("d" + std::to_string(d)).c_str(), H5T_IEEE_F32LE,
                                       space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      H5Dwrite(dataset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
      H5Dclose(dataset);
    }
    H5Gclose(group);
  }
  H5Sclose(space);
  H5Fclose(file);
}

// A file opened the way our readers open it, or the way a user's own C code would.
hid_t openFile(const std::string& path, bool ours) {
  if (!ours) return H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  noisescope::hdf5::Handle file = noisescope::hdf5::openForReading(path);
  return H5Freopen(file.get());  // a second identifier that outlives the handle
}

// The whole dataset in one H5Dread.
void readWhole(const std::string& path, bool ours) {
  const hid_t file = openFile(path, ours);
  const hid_t dataset = H5Dopen2(file, "/x", H5P_DEFAULT);
  const hid_t space = H5Dget_space(dataset);
  const hssize_t count = H5Sget_simple_extent_npoints(space);
  std::vector<float> values(static_cast<size_t>(count));
  if (H5Dread(dataset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    std::fprintf(stderr, "%s: read failed\n", path.c_str());
  H5Sclose(space);
  H5Dclose(dataset);
  H5Fclose(file);
}

herr_t countDataset(hid_t group, const char* name, const H5L_info_t*, void* count) {
  const hid_t object = H5Oopen(group, name, H5P_DEFAULT);
  if (object >= 0 && H5Iget_type(object) == H5I_DATASET) {
    const hid_t type = H5Dget_type(object), space = H5Dget_space(object);
    ++*static_cast<int*>(count);
    H5Tclose(type);
    H5Sclose(space);
  }
  if (object >= 0) H5Oclose(object);
  return 0;
}

// Every dataset of every group opened, with its type and shape: the walk listHdf5Datasets makes.
void walkAll(const std::string& path, bool ours) {
  const hid_t file = openFile(path, ours);
  int count = 0;
  H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, countDataset, &count);
  H5Fclose(file);
}

double seconds(const std::function<void()>& work) {
  const auto start = Clock::now();
  work();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void compare(const char* label, const std::function<void()>& ours,
             const std::function<void()>& reference) {
  double bestOurs = 1e300, bestReference = 1e300;
  for (int run = 0; run < 5; ++run) {
    bestReference = std::min(bestReference, seconds(reference));
    bestOurs = std::min(bestOurs, seconds(ours));
  }
  std::printf("%-34s ours %8.4f s   default driver %8.4f s   ratio %.2f\n", label, bestOurs,
              bestReference, bestOurs / bestReference);
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const fs::path folder =
      argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / "noisescope_bench_hdf5";
  fs::create_directories(folder);
  const std::string contiguous = (folder / "contiguous.h5").string();
  const std::string chunked = (folder / "chunked.h5").string();
  const std::string many = (folder / "many.h5").string();
  writeBulk(contiguous, false, 60000, 784);
  writeBulk(chunked, true, 60000, 784);
  writeManySmall(many, 40, 50);

  for (const auto& [label, path] : {std::pair{"whole read, contiguous (188 MB)", contiguous},
                                    std::pair{"whole read, chunked (188 MB)", chunked}})
    compare(
        label, [&] { readWhole(path, true); }, [&] { readWhole(path, false); });
  compare(
      "walk 2 000 datasets in 40 groups", [&] { walkAll(many, true); },
      [&] { walkAll(many, false); });
  // What a user waits for: the reader's whole load (1 MB hyperslabs, scaling, statistics).
  std::printf("%-34s %8.4f s\n", "readHdf5, contiguous (188 MB)",
              seconds([&] { noisescope::readHdf5(contiguous, "/x"); }));
  fs::remove_all(folder);
  return 0;
}
