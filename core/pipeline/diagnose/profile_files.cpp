#include "pipeline/profile_files.h"

#include "io/profile_io.h"

namespace noisescope::pipeline {

Profile openProfileFile(const std::string& path) {
  return readProfile(path);
}

void saveProfileFile(const std::string& path, const Profile& profile) {
  writeProfile(path, profile);
}

void saveProfileCsvFile(const std::string& path, const Profile& profile) {
  writeProfileCsv(path, profile);
}

}  // namespace noisescope::pipeline
