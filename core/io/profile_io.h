#pragma once
// Reading and writing noise-level profiles: versioned JSON ("noisescope.profile/1", written
// atomically) and a CSV table for spreadsheets. The JSON reader checks every field and answers a
// malformed file with an InputError that names the file and the field.
#include <nlohmann/json.hpp>

#include <string>

#include "profile/profile.h"

namespace noisescope {

inline constexpr const char* kProfileFormat = "noisescope.profile/1";

nlohmann::json profileToJson(const Profile& profile);
// `source` names the file (or other origin) in error messages.
Profile profileFromJson(const nlohmann::json& json, const std::string& source);

void writeProfile(const std::string& path, const Profile& profile);
Profile readProfile(const std::string& path);

// One row per σ: grid coordinates, every estimate (total and per dimension) with its standard
// error and interval, the three rates, and the posterior statistics when there are any.
std::string profileToCsv(const Profile& profile);
void writeProfileCsv(const std::string& path, const Profile& profile);

}  // namespace noisescope
