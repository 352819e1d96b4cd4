#include "data/formats/hdf5_reader.h"

#include <algorithm>
#include <cstring>

#include "data/formats/hdf5_file.h"
#include "data/formats/input_file.h"
#include "data/layout/array_layout.h"
#include "data/layout/hdf5_array.h"
#include "util/error.h"

namespace noisescope {

using namespace data_detail;

namespace {

std::string describeType(hid_t type) {
  const H5T_class_t typeClass = H5Tget_class(type);
  const size_t bytes = H5Tget_size(type);
  if (typeClass == H5T_INTEGER) {
    const bool isSigned = H5Tget_sign(type) == H5T_SGN_2;
    return std::string(isSigned ? "int" : "uint") + std::to_string(bytes * 8);
  }
  if (typeClass == H5T_FLOAT) return "float" + std::to_string(bytes * 8);
  return {};
}

hdf5::Handle openFile(const std::string& path) {
  checkedFileSize(path);
  return hdf5::openForReading(path);
}

struct VisitState {
  std::vector<Hdf5DatasetInfo> found;
};

herr_t visitLink(hid_t group, const char* name, const H5L_info_t* info, void* opaque) {
  if (info->type != H5L_TYPE_HARD) return 0;
  hdf5::Handle object(H5Oopen(group, name, H5P_DEFAULT), H5Oclose);
  if (!object.valid() || H5Iget_type(object.get()) != H5I_DATASET) return 0;
  hdf5::Handle type(H5Dget_type(object.get()), H5Tclose);
  hdf5::Handle space(H5Dget_space(object.get()), H5Sclose);
  if (!type.valid() || !space.valid()) return 0;
  const std::string dtype = describeType(type.get());
  if (dtype.empty()) return 0;
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) return 0;
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  Hdf5DatasetInfo entry;
  entry.path = std::string("/") + name;
  entry.dtype = dtype;
  for (hsize_t d : dims) entry.shape.push_back(static_cast<int64_t>(d));
  static_cast<VisitState*>(opaque)->found.push_back(std::move(entry));
  return 0;
}

std::vector<Hdf5DatasetInfo> listDatasets(const std::string& path, hid_t file) {
  VisitState state;
  if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, visitLink, &state) < 0)
    throw InputError(path, "cannot list its contents (corrupt HDF5 file?)");
  return state.found;
}

std::string describeList(const std::vector<Hdf5DatasetInfo>& datasets) {
  std::string text;
  for (const Hdf5DatasetInfo& d : datasets) {
    if (!text.empty()) text += ", ";
    text += d.path + " " + d.dtype + formatShape(d.shape);
  }
  return text;
}

}  // namespace

std::vector<Hdf5DatasetInfo> listHdf5Datasets(const std::string& path) {
  hdf5::QuietErrors quiet;
  hdf5::Handle file = openFile(path);
  return listDatasets(path, file.get());
}

struct Hdf5Array::Impl {
  hdf5::Handle file{-1, H5Fclose};
  hdf5::Handle dataset{-1, H5Dclose};
  hdf5::Handle fileSpace{-1, H5Sclose};
};

Hdf5Array::Hdf5Array(const std::string& path, const std::string& datasetPath)
    : impl_(std::make_unique<Impl>()), path_(path) {
  hdf5::QuietErrors quiet;
  hdf5::Handle file = openFile(path);
  const std::vector<Hdf5DatasetInfo> datasets = listDatasets(path, file.get());
  if (datasets.empty()) throw InputError(path, "holds no numeric dataset");

  std::string chosen = datasetPath;
  if (chosen.empty()) {
    if (datasets.size() > 1)
      throw InputError(path, "holds " + std::to_string(datasets.size()) +
                                 " datasets; choose one with --dataset: " + describeList(datasets));
    chosen = datasets.front().path;
  }
  if (chosen.front() != '/') chosen = "/" + chosen;
  const auto entry = std::find_if(datasets.begin(), datasets.end(),
                                  [&](const Hdf5DatasetInfo& d) { return d.path == chosen; });
  if (entry == datasets.end())
    throw InputError(
        path, "has no numeric dataset '" + chosen + "'; it holds: " + describeList(datasets));

  hdf5::Handle dataset(H5Dopen2(file.get(), chosen.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset.valid()) throw InputError(path, "cannot open dataset '" + chosen + "'");
  hdf5::Handle type(H5Dget_type(dataset.get()), H5Tclose);
  hdf5::Handle fileSpace(H5Dget_space(dataset.get()), H5Sclose);
  if (!type.valid() || !fileSpace.valid())
    throw InputError(path, "dataset '" + chosen + "' has an unreadable type or shape");
  shape_ = entry->shape;
  dtype_ = entry->dtype;
  chosen_ = chosen;
  where_ = path + ":" + chosen;
  if (shape_.empty()) throw InputError(where_, "is a scalar, not a set of samples");

  uint64_t count = 1;
  for (int64_t s : shape_) count = checkedMultiply(where_, count, static_cast<uint64_t>(s));
  if (count == 0) throw InputError(where_, "has shape " + formatShape(shape_) + ": no samples");
  // The header alone must not make us allocate: compare with what the file stores.
  const uint64_t stored = H5Dget_storage_size(dataset.get());
  const uint64_t declared = checkedMultiply(where_, count, H5Tget_size(type.get()));
  if (stored == 0)
    throw InputError(where_, "has shape " + formatShape(shape_) + " but no stored data");
  if (declared / 1100 > stored)
    throw InputError(where_, "declares " + formatBytes(declared) + " of data but stores only " +
                                 formatBytes(stored) + " (corrupt or mostly unwritten)");
  elements_ = count;
  rowElements_ = count / static_cast<uint64_t>(shape_[0]);
  impl_->file = std::move(file);
  impl_->dataset = std::move(dataset);
  impl_->fileSpace = std::move(fileSpace);
}

Hdf5Array::~Hdf5Array() = default;

void Hdf5Array::readRows(int64_t first, int64_t count, float* out) const {
  hdf5::QuietErrors quiet;
  const int rank = static_cast<int>(shape_.size());
  std::vector<hsize_t> start(rank, 0), extent(shape_.begin(), shape_.end());
  start[0] = static_cast<hsize_t>(first);
  extent[0] = static_cast<hsize_t>(count);
  hdf5::Handle memSpace(H5Screate_simple(rank, extent.data(), nullptr), H5Sclose);
  if (!memSpace.valid() ||
      H5Sselect_hyperslab(impl_->fileSpace.get(), H5S_SELECT_SET, start.data(), nullptr,
                          extent.data(), nullptr) < 0 ||
      H5Dread(impl_->dataset.get(), H5T_NATIVE_FLOAT, memSpace.get(), impl_->fileSpace.get(),
              H5P_DEFAULT, out) < 0)
    throw InputError(where_, "cannot be read from row " + std::to_string(first) +
                                 " (corrupt or truncated file)");
}

std::string Hdf5Array::split() const {
  if (chosen_.find("test") != std::string::npos) return "test";
  if (chosen_.find("train") != std::string::npos) return "train";
  return "all";
}

Dataset readHdf5(const std::string& path, const std::string& datasetPath, const Progress& progress,
                 const ScaleReference* scaleLike) {
  const Hdf5Array array(path, datasetPath);
  const std::vector<int64_t>& shape = array.shape();
  checkAllocation(array.where(), checkedMultiply(array.where(), array.elements(), sizeof(float)),
                  "the array");
  std::vector<float> values(array.elements());
  const uint64_t rowElements = array.rowElements();
  const uint64_t rowsPerChunk = std::max<uint64_t>(1, (uint64_t{1} << 20) / rowElements);
  for (uint64_t row = 0; row < static_cast<uint64_t>(shape[0]);) {
    progress.throwIfCancelled();
    const uint64_t rows = std::min<uint64_t>(rowsPerChunk, static_cast<uint64_t>(shape[0]) - row);
    array.readRows(static_cast<int64_t>(row), static_cast<int64_t>(rows),
                   values.data() + row * rowElements);
    row += rows;
    progress.report(static_cast<double>(row) / static_cast<double>(shape[0]), "reading HDF5");
  }

  Dataset result;
  result.name = displayName(path) + array.datasetPath();
  result.source = path;
  if (array.split() != "all") result.split = array.split();
  finishArrayDataset(result, array.where(), shape, array.dtype(), std::move(values), scaleLike);
  result.notes.push_back("HDF5 dataset " + array.datasetPath());
  result.validate();
  return result;
}

}  // namespace noisescope
