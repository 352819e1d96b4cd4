#pragma once
// The profile files both faces open and save: our JSON (read back exactly) and a CSV table for
// spreadsheets. The faces come here rather than to the file format (io/profile_io.h), so a profile
// a face saves is the same file whichever face saved it.
#include <string>

#include "profile/profile.h"

namespace noisescope::pipeline {

// Reads a profile JSON; a file that is not one ends in an InputError naming the file.
Profile openProfileFile(const std::string& path);
// Writes the profile as JSON (atomically: the old file stays when writing fails).
void saveProfileFile(const std::string& path, const Profile& profile);
// Writes the profile as a CSV table, one row per σ, with its intervals.
void saveProfileCsvFile(const std::string& path, const Profile& profile);

}  // namespace noisescope::pipeline
