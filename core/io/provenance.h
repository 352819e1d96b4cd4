#pragma once
// What produced a file: every file NoiseScope writes carries this block so that a number can be
// traced back to the program version, the machine, the time and the parameters behind it.
#include <nlohmann/json.hpp>

#include <string>

namespace noisescope {

struct Dataset;

// {"producer", "version" (NOISESCOPE_VERSION), "time_utc" (ISO 8601), "host", "parameters"}.
// `producer` names the command or function, e.g. "noisescope-cli diagnose".
nlohmann::json makeProvenance(const std::string& producer,
                              const nlohmann::json& parameters = nlohmann::json::object());

// The facts about a dataset a reader of an exported file needs: name, source, split, N, D, shape,
// kind, dtype on disk and the scaling of the values; for a latent cache, "latents": whose noise
// scale the values were put on ("normalised_for", null when as cached) and how ("transform").
nlohmann::json describeDataset(const Dataset& dataset);

// Current time in UTC as "YYYY-MM-DDTHH:MM:SSZ"; SOURCE_DATE_EPOCH (seconds), when set, instead.
std::string utcTimestamp();

}  // namespace noisescope
