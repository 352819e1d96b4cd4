// Schedules in HDF5: the full noisescope.schedule/1 JSON in the root attribute "json" (the source
// of truth when reading), and its arrays as datasets for tools like h5py: log_sigma_edges,
// bin_masses, density, cdf (binned) or atoms_sigma, atoms_weight (atomic). Attribute "format".
#include <hdf5.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>

#include "io/schedule_io.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope {

namespace {

using Handle = std::unique_ptr<void, std::function<void(void*)>>;
Handle own(hid_t id, herr_t (*close)(hid_t)) {
  return Handle(reinterpret_cast<void*>(static_cast<intptr_t>(id)),
                [close](void* p) { close(static_cast<hid_t>(reinterpret_cast<intptr_t>(p))); });
}
hid_t id(const Handle& h) {
  return static_cast<hid_t>(reinterpret_cast<intptr_t>(h.get()));
}

// HDF5 prints its own error stack by default; our errors say what went wrong instead.
struct QuietErrors {
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &function, &data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, function, data); }
  H5E_auto2_t function = nullptr;
  void* data = nullptr;
};

void writeStringAttribute(hid_t object, const char* name, const std::string& value,
                          const std::string& path) {
  auto type = own(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(id(type), std::max<size_t>(1, value.size()));
  H5Tset_cset(id(type), H5T_CSET_UTF8);
  auto space = own(H5Screate(H5S_SCALAR), H5Sclose);
  auto attribute =
      own(H5Acreate2(object, name, id(type), id(space), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (id(attribute) < 0 || H5Awrite(id(attribute), id(type), value.data()) < 0)
    throw InputError(path, std::string("cannot write HDF5 attribute ") + name);
}

void writeArray(hid_t file, const char* name, const std::vector<double>& values,
                const std::string& path) {
  const hsize_t size = values.size();
  auto space = own(H5Screate_simple(1, &size, nullptr), H5Sclose);
  // No modification times in the object headers: the same schedule gives the same bytes, so a
  // reader (and the fault tests) can tell the old file from the new one by content.
  auto creation = own(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (id(creation) < 0 || H5Pset_obj_track_times(id(creation), 0) < 0)
    throw InputError(path, std::string("cannot set up HDF5 dataset ") + name);
  auto dataset =
      own(H5Dcreate2(file, name, H5T_IEEE_F64LE, id(space), H5P_DEFAULT, id(creation), H5P_DEFAULT),
          H5Dclose);
  if (id(dataset) < 0 ||
      H5Dwrite(id(dataset), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    throw InputError(path, std::string("cannot write HDF5 dataset ") + name);
}

}  // namespace

void writeScheduleHdf5(const std::string& path, const schedule::Schedule& s,
                       const nlohmann::json& provenance) {
  QuietErrors quiet;
  const nlohmann::json j = scheduleToJson(s, provenance);
  // The file is built in memory (HDF5's core driver, no backing store) and its image written by
  // the one atomic writer: a full disk or a failing write then leaves the old file or the new
  // one, never a torn one, and the error names the system error like every other writer.
  auto access = own(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (id(access) < 0 || H5Pset_fapl_core(id(access), 1 << 16, 0) < 0)
    throw InputError(path, "cannot set up an in-memory HDF5 file");
  std::string image;
  {
    // The root group's header without times too (the file creation list is a group's).
    auto creation = own(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
    if (id(creation) < 0 || H5Pset_obj_track_times(id(creation), 0) < 0)
      throw InputError(path, "cannot set up the HDF5 file");
    auto file = own(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, id(creation), id(access)), H5Fclose);
    if (id(file) < 0) throw InputError(path, "cannot create the HDF5 file");
    writeStringAttribute(id(file), "format", kScheduleFormat, path);
    writeStringAttribute(id(file), "json", j.dump(), path);
    if (s.isAtomic()) {
      std::vector<double> sigma, weight;
      for (const auto& a : s.atoms()) {
        sigma.push_back(a.sigma);
        weight.push_back(a.weight);
      }
      writeArray(id(file), "atoms_sigma", sigma, path);
      writeArray(id(file), "atoms_weight", weight, path);
    } else {
      for (const char* name : {"log_sigma_edges", "bin_masses", "density", "cdf", "sigma_centers",
                               "loss_weight_values", "allocation"})
        writeArray(id(file), name, j.at(name).get<std::vector<double>>(), path);
    }
    if (H5Fflush(id(file), H5F_SCOPE_GLOBAL) < 0)
      throw InputError(path, "cannot finish the HDF5 file in memory");
    const ssize_t size = H5Fget_file_image(id(file), nullptr, 0);
    if (size <= 0) throw InputError(path, "cannot take the HDF5 file's image");
    image.resize(static_cast<size_t>(size));
    if (H5Fget_file_image(id(file), image.data(), image.size()) != size)
      throw InputError(path, "cannot take the HDF5 file's image");
  }
  writeFileAtomically(path, image);
}

schedule::Schedule readScheduleHdf5(const std::string& path) {
  QuietErrors quiet;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw InputError(path, "cannot open the file (it does not exist or is not a regular file)");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError(path, "not an HDF5 file");
  auto file = own(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (id(file) < 0) throw InputError(path, "cannot open the HDF5 file");
  if (H5Aexists(id(file), "json") <= 0)
    throw InputError(path, "no 'json' attribute: not a noisescope.schedule/1 HDF5 file");
  auto attribute = own(H5Aopen(id(file), "json", H5P_DEFAULT), H5Aclose);
  auto type = own(H5Aget_type(id(attribute)), H5Tclose);
  if (H5Tget_class(id(type)) != H5T_STRING || H5Tis_variable_str(id(type)) > 0)
    throw InputError(path, "the 'json' attribute is not a fixed-length string");
  const size_t size = H5Tget_size(id(type));
  if (size == 0 || size > (size_t(1) << 30))
    throw InputError(path, "the 'json' attribute has a bad size");
  std::string text(size, '\0');
  if (H5Aread(id(attribute), id(type), text.data()) < 0)
    throw InputError(path, "cannot read 'json'");
  while (!text.empty() && text.back() == '\0') text.pop_back();
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw InputError(path, "the 'json' attribute is not valid JSON");
  return scheduleFromJson(j, path);
}

}  // namespace noisescope
