#include "io/provenance.h"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <ctime>

#include "data/dataset.h"

namespace noisescope {

std::string utcTimestamp() {
  // SOURCE_DATE_EPOCH (reproducible-builds.org), when set to a number, is the time every file
  // records: the same inputs then give byte-identical files.
  std::time_t now = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) {
    char* end = nullptr;
    const long long seconds = std::strtoll(epoch, &end, 10);
    if (end != epoch && *end == '\0' && seconds >= 0) now = static_cast<std::time_t>(seconds);
  }
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

namespace {

std::string hostName() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

}  // namespace

nlohmann::json makeProvenance(const std::string& producer, const nlohmann::json& parameters) {
  nlohmann::json out;
  out["producer"] = producer;
  out["version"] = NOISESCOPE_VERSION;
  out["time_utc"] = utcTimestamp();
  out["host"] = hostName();
  out["parameters"] = parameters;
  return out;
}

nlohmann::json describeDataset(const Dataset& dataset) {
  nlohmann::json out;
  out["name"] = dataset.name;
  out["source"] = dataset.source;
  out["split"] = dataset.split;
  out["size"] = dataset.size();
  out["dimension"] = dataset.dim();
  out["sample_shape"] = dataset.sampleShape;
  out["kind"] = toString(dataset.kind);
  out["source_dtype"] = dataset.sourceDtype;
  out["scaling"] = dataset.scaling;
  if (dataset.latentCache)
    out["latents"] = {
        {"normalised_for",
         dataset.latentsFor.empty() ? nlohmann::json(nullptr) : nlohmann::json(dataset.latentsFor)},
        {"transform", dataset.latentTransform}};
  return out;
}

}  // namespace noisescope
