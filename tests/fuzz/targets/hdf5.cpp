// One HDF5 file through every reader that opens HDF5: the dataset list, the dataset reader (the
// only dataset, then each listed one by name) and the schedule reader.
#include <string>

#include "data/formats/hdf5_reader.h"
#include "data/load.h"
#include "io/schedule_io.h"
#include "targets.h"

namespace noisescope::fuzz {

Outcome hdf5(const uint8_t* data, size_t size) {
  const std::string path = writeScratchFile("fuzz.h5", data, size);
  std::vector<Hdf5DatasetInfo> listed;
  const Outcome outcome = acceptOrReject([&] { listed = listHdf5Datasets(path); });
  acceptOrReject([&] { readHdf5(path, ""); });
  for (size_t i = 0; i < listed.size() && i < 4; ++i)
    acceptOrReject([&] { readHdf5(path, listed[i].path); });
  acceptOrReject([&] { readScheduleHdf5(path); });
  return outcome;
}

}  // namespace noisescope::fuzz
