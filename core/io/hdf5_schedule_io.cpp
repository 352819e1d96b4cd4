// Schedules in HDF5: the full noisescope.schedule/1 JSON in the root attribute "json" (the source
// of truth when reading), and its arrays as datasets for tools like h5py: log_sigma_edges,
// bin_masses, density, cdf (binned) or atoms_sigma, atoms_weight (atomic). Attribute "format".
#include <cstdio>
#include <filesystem>

#include "data/formats/hdf5_file.h"
#include "io/schedule_io.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope {

namespace {

void writeStringAttribute(hid_t object, const char* name, const std::string& value,
                          const std::string& path) {
  hdf5::Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), std::max<size_t>(1, value.size()));
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  hdf5::Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  hdf5::Handle attribute(
      H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute.valid() || H5Awrite(attribute.get(), type.get(), value.data()) < 0)
    throw InputError(path, std::string("cannot write HDF5 attribute ") + name);
}

void writeArray(hid_t file, const char* name, const std::vector<double>& values,
                const std::string& path) {
  const hsize_t size = values.size();
  hdf5::Handle space(H5Screate_simple(1, &size, nullptr), H5Sclose);
  // No modification times in the object headers: the same schedule gives the same bytes, so a
  // reader (and the fault tests) can tell the old file from the new one by content.
  hdf5::Handle creation(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (!creation.valid() || H5Pset_obj_track_times(creation.get(), 0) < 0)
    throw InputError(path, std::string("cannot set up HDF5 dataset ") + name);
  hdf5::Handle dataset(
      H5Dcreate2(file, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, creation.get(), H5P_DEFAULT),
      H5Dclose);
  if (!dataset.valid() ||
      H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    throw InputError(path, std::string("cannot write HDF5 dataset ") + name);
}

}  // namespace

void writeScheduleHdf5(const std::string& path, const schedule::Schedule& s,
                       const nlohmann::json& provenance) {
  hdf5::QuietErrors quiet;
  const nlohmann::json j = scheduleToJson(s, provenance);
  // The file is built in memory (HDF5's core driver, no backing store) and its image written by
  // the one atomic writer: a full disk or a failing write then leaves the old file or the new
  // one, never a torn one, and the error names the system error like every other writer.
  hdf5::Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!access.valid() || H5Pset_fapl_core(access.get(), 1 << 16, 0) < 0)
    throw InputError(path, "cannot set up an in-memory HDF5 file");
  std::string image;
  {
    // The root group's header without times too (the file creation list is a group's).
    hdf5::Handle creation(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
    if (!creation.valid() || H5Pset_obj_track_times(creation.get(), 0) < 0)
      throw InputError(path, "cannot set up the HDF5 file");
    hdf5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, creation.get(), access.get()),
                      H5Fclose);
    if (!file.valid()) throw InputError(path, "cannot create the HDF5 file");
    writeStringAttribute(file.get(), "format", kScheduleFormat, path);
    writeStringAttribute(file.get(), "json", j.dump(), path);
    if (s.isAtomic()) {
      std::vector<double> sigma, weight;
      for (const auto& a : s.atoms()) {
        sigma.push_back(a.sigma);
        weight.push_back(a.weight);
      }
      writeArray(file.get(), "atoms_sigma", sigma, path);
      writeArray(file.get(), "atoms_weight", weight, path);
    } else {
      for (const char* name : {"log_sigma_edges", "bin_masses", "density", "cdf", "sigma_centers",
                               "loss_weight_values", "allocation"})
        writeArray(file.get(), name, j.at(name).get<std::vector<double>>(), path);
    }
    if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0)
      throw InputError(path, "cannot finish the HDF5 file in memory");
    const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
    if (size <= 0) throw InputError(path, "cannot take the HDF5 file's image");
    image.resize(static_cast<size_t>(size));
    if (H5Fget_file_image(file.get(), image.data(), image.size()) != size)
      throw InputError(path, "cannot take the HDF5 file's image");
  }
  writeFileAtomically(path, image);
}

schedule::Schedule readScheduleHdf5(const std::string& path) {
  hdf5::QuietErrors quiet;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw InputError(path, "cannot open the file (it does not exist or is not a regular file)");
  const hdf5::Handle file = hdf5::openForReading(path);
  if (H5Aexists(file.get(), "json") <= 0)
    throw InputError(path, "no 'json' attribute: not a noisescope.schedule/1 HDF5 file");
  hdf5::Handle attribute(H5Aopen(file.get(), "json", H5P_DEFAULT), H5Aclose);
  hdf5::Handle type(H5Aget_type(attribute.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) > 0)
    throw InputError(path, "the 'json' attribute is not a fixed-length string");
  const size_t size = H5Tget_size(type.get());
  if (size == 0 || size > (size_t(1) << 30))
    throw InputError(path, "the 'json' attribute has a bad size");
  std::string text(size, '\0');
  if (H5Aread(attribute.get(), type.get(), text.data()) < 0)
    throw InputError(path, "cannot read 'json'");
  while (!text.empty() && text.back() == '\0') text.pop_back();
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw InputError(path, "the 'json' attribute is not valid JSON");
  return scheduleFromJson(j, path);
}

}  // namespace noisescope
