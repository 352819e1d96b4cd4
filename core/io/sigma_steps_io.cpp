#include "io/sigma_steps_io.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "io/text_table.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/file_names.h"

namespace noisescope {

using nlohmann::json;

namespace {

const char* curveDescription(const std::string& curve) {
  return curve == "rho" ? "the entropic allocation rho (rate times gate) of the schedule's profile"
                        : "the effective allocation phi = pi * w of the schedule";
}

void checkSteps(const std::vector<double>& sigma, const std::string& source) {
  if (sigma.size() < 2) throw InputError(source, "needs at least 2 σ steps");
  for (size_t k = 0; k < sigma.size(); ++k) {
    if (!(sigma[k] > 0.0) || !std::isfinite(sigma[k]))
      throw InputError(source, "σ step " + std::to_string(k + 1) + " is not a finite number > 0");
    if (k > 0 && sigma[k] < sigma[k - 1])
      throw InputError(source, "σ steps are not ascending (step " + std::to_string(k + 1) + ")");
  }
}

std::string textField(const json& j, const char* key, const std::string& source) {
  if (!j.contains(key) || !j.at(key).is_string())
    throw InputError(source, std::string("field '") + key + "' is missing or not a string");
  return j.at(key).get<std::string>();
}

}  // namespace

json sigmaStepsToJson(const SigmaSteps& steps, const json& provenance) {
  return {
      {"format", kSigmaStepsFormat},
      {"schedule", steps.schedule},
      {"curve", steps.curve},
      {"rule", std::string("sigma_k = u^-1(k/(N-1)), k = 0..N-1, u the CDF over log sigma of ") +
                   curveDescription(steps.curve) + "; ascending"},
      {"steps", steps.sigma.size()},
      {"sigma", steps.sigma},
      {"provenance", provenance}};
}

SigmaSteps sigmaStepsFromJson(const json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source, "not a σ-steps file (not a JSON object)");
  const std::string format = textField(j, "format", source);
  if (format != kSigmaStepsFormat)
    throw InputError(source, "format is '" + format + "', not " + kSigmaStepsFormat);
  SigmaSteps out;
  out.schedule = textField(j, "schedule", source);
  out.curve = textField(j, "curve", source);
  if (out.curve != "phi" && out.curve != "rho")
    throw InputError(source, "field 'curve' must be phi or rho, not '" + out.curve + "'");
  if (!j.contains("sigma") || !j.at("sigma").is_array())
    throw InputError(source, "field 'sigma' is missing or not an array");
  for (const json& v : j.at("sigma")) {
    if (!v.is_number()) throw InputError(source, "field 'sigma' holds a non-number");
    out.sigma.push_back(v.get<double>());
  }
  checkSteps(out.sigma, source);
  if (!j.contains("steps") || !j.at("steps").is_number_integer() ||
      j.at("steps").get<int64_t>() != static_cast<int64_t>(out.sigma.size()))
    throw InputError(source, "field 'steps' is missing or differs from the number of σ values (" +
                                 std::to_string(out.sigma.size()) + ")");
  return out;
}

void writeSigmaSteps(const std::string& path, const SigmaSteps& steps, const json& provenance) {
  checkSteps(steps.sigma, path);
  if (hasExtension(path, ".json")) {
    writeFileAtomically(path, sigmaStepsToJson(steps, provenance).dump(2) + "\n");
    return;
  }
  std::string text;
  char buffer[32];
  for (double v : steps.sigma) {
    std::snprintf(buffer, sizeof buffer, "%.17g\n", v);
    text += buffer;
  }
  writeFileAtomically(path, text);
}

SigmaSteps readSigmaSteps(const std::string& path) {
  const std::string content = io_internal::readTextFile(path);
  if (hasExtension(path, ".json") || io_internal::looksLikeJson(content))
    return sigmaStepsFromJson(io_internal::parseJson(content, path), path);
  SigmaSteps out;
  std::istringstream in(content);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    char* end = nullptr;
    const double v = std::strtod(line.c_str(), &end);
    if (end == line.c_str() ||
        line.find_first_not_of(" \t", end - line.c_str()) != std::string::npos)
      throw InputError(path, "line " + std::to_string(number) + ": '" + line +
                                 "' is not a number (one σ per line)");
    out.sigma.push_back(v);
  }
  checkSteps(out.sigma, path);
  return out;
}

}  // namespace noisescope
