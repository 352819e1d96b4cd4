#include "io/provenance.h"

#include <unistd.h>

#include <array>
#include <ctime>

#include "data/dataset.h"

namespace noisescope {

std::string utcTimestamp() {
  const std::time_t now = std::time(nullptr);
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
  return out;
}

}  // namespace noisescope
