#pragma once
// Reading and writing noise-level profiles: versioned JSON ("noisescope.profile/1", written
// atomically) and a CSV table for spreadsheets, both read back by the one readProfile. Every reader
// checks every field and answers a malformed file with an InputError that names the file.
#include <nlohmann/json.hpp>

#include <string>

#include "profile/profile.h"

namespace noisescope {

inline constexpr const char* kProfileFormat = "noisescope.profile/1";

nlohmann::json profileToJson(const Profile& profile);
// `source` names the file (or other origin) in error messages.
Profile profileFromJson(const nlohmann::json& json, const std::string& source);

void writeProfile(const std::string& path, const Profile& profile);
// The one profile reader, by extension: ".csv" reads profileToCsv's table or a minimal table with
// columns sigma, mmse (optional mmse_se, mmse_ci95_low, mmse_ci95_high; kind "table"); anything
// else reads noisescope.profile/1 JSON, or a JSON table {"sigma": [...], "mmse": [...]}. σ must be
// > 0 and strictly ascending, MMSE ≥ 0, at least 2 levels; InputError naming the file otherwise.
Profile readProfile(const std::string& path);

// "# key: value" metadata (format, kind, dimension, dataset_size, queries, primary, sigma_data,
// posterior pruning), then one row per σ: grid coordinates, every estimate (total and per
// dimension) with its standard error and interval, the three rates, and the posterior statistics
// when there are any.
std::string profileToCsv(const Profile& profile);
void writeProfileCsv(const std::string& path, const Profile& profile);

}  // namespace noisescope
