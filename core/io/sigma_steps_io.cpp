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

void checkSteps(const std::vector<double>& sigma, const std::string& source, bool strict) {
  if (sigma.size() < 2) throw InputError(source, "needs at least 2 σ steps");
  for (size_t k = 0; k < sigma.size(); ++k) {
    if (!(sigma[k] > 0.0) || !std::isfinite(sigma[k]))
      throw InputError(source, "σ step " + std::to_string(k + 1) + " is not a finite number > 0");
    if (k > 0 && (strict ? !(sigma[k] > sigma[k - 1]) : sigma[k] < sigma[k - 1]))
      throw InputError(source, std::string("σ steps are not ") + (strict ? "strictly " : "") +
                                   "ascending (step " + std::to_string(k + 1) + ")");
  }
}

std::string textField(const json& j, const char* key, const std::string& source) {
  if (!j.contains(key) || !j.at(key).is_string())
    throw InputError(source, std::string("field '") + key + "' is missing or not a string");
  return j.at(key).get<std::string>();
}

double numberField(const json& j, const char* key, const std::string& source) {
  if (!j.contains(key) || !j.at(key).is_number() || !std::isfinite(j.at(key).get<double>()))
    throw InputError(source, std::string("field '") + key + "' is missing or not a number");
  return j.at(key).get<double>();
}

std::vector<double> numbers(const json& j, const char* key, const std::string& source,
                            const std::string& where) {
  if (!j.contains(key) || !j.at(key).is_array())
    throw InputError(source, "field '" + where + key + "' is missing or not an array");
  std::vector<double> out;
  for (const json& v : j.at(key)) {
    if (!v.is_number()) throw InputError(source, "field '" + where + key + "' holds a non-number");
    out.push_back(v.get<double>());
  }
  return out;
}

const json& object(const json& j, const char* key, const std::string& source) {
  if (!j.contains(key) || !j.at(key).is_object())
    throw InputError(source, std::string("field '") + key + "' is missing or not an object");
  return j.at(key);
}

void requireSize(const std::vector<double>& v, size_t n, const std::string& field,
                 const std::string& source) {
  if (v.size() != n)
    throw InputError(source, "field '" + field + "' has " + std::to_string(v.size()) +
                                 " values, not " + std::to_string(n));
}

// The levels in sampling order with the final 0: what k-diffusion and diffusers take.
std::vector<double> descendingWithZero(const std::vector<double>& ascending) {
  std::vector<double> out(ascending.rbegin(), ascending.rend());
  out.push_back(0.0);
  return out;
}

std::string pythonList(const std::vector<double>& v) {
  std::string out = "[";
  char buffer[32];
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buffer, sizeof buffer, "%.17g", v[i]);
    out += (i ? ", " : "") + std::string(buffer);
  }
  return out + "]";
}

// A Python string literal: JSON's escaping is valid Python.
std::string pythonText(const std::string& s) {
  return json(s).dump();
}

}  // namespace

json sigmaStepsToJson(const SigmaSteps& steps, const json& provenance) {
  checkSteps(steps.sigma, "σ steps", true);
  const size_t n = steps.sigma.size();
  const schedule::GridExports& e = steps.exports;
  const std::vector<double> kdiffusion =
      e.kdiffusionSigmas.empty() ? descendingWithZero(steps.sigma) : e.kdiffusionSigmas;
  json out = {{"format", kSigmaStepsFormat},
              {"grid", steps.grid},
              {"label", steps.label},
              {"rule", steps.rule},
              {"source", steps.source},
              {"schedule", steps.schedule},
              {"steps", n},
              {"sigma", steps.sigma},
              {"step_ratio",
               {{"largest", steps.largestRatio},
                {"limit", steps.ratioLimit},
                {"margin", steps.ratioMargin},
                {"rule",
                 "limit = margin x the largest sigma_i/sigma_(i+1) of Karras rho=7 with the same N "
                 "and ends"}}},
              {"warnings", steps.warnings},
              {"k_diffusion", {{"sigmas", kdiffusion}}},
              {"diffusers",
               {{"sigmas", e.diffusersSigmas.empty() ? kdiffusion : e.diffusersSigmas},
                {"timesteps", e.diffusersTimesteps},
                {"timesteps_table", e.timestepsTable},
                {"flow_sigmas", e.flowSigmas},
                {"flow_timesteps", e.flowTimesteps}}},
              {"provenance", provenance}};
  if (!steps.notes.empty()) out["notes"] = steps.notes;
  if (!steps.samplingRate.is_null()) out["sampling_rate"] = steps.samplingRate;
  return out;
}

json samplingRateJson(const schedule::SamplingRate& rate) {
  json levels = json::array();
  for (size_t i = 0; i < rate.sigma.size(); ++i)
    levels.push_back({{"sigma", rate.sigma[i]},
                      {"mmse", rate.mmse[i]},
                      {"upper", rate.upper[i]},
                      {"lower", rate.lower.empty() ? json(nullptr) : json(rate.lower[i])},
                      {"source", schedule::toString(rate.source[i])},
                      {"why", rate.why[i]}});
  return {{"rule", "THEORY §6, a rate fit for sampling"},
          {"dimension", rate.dim},
          {"plus_minus_one", rate.plusMinusOne},
          {"gate_c", rate.gateC},
          {"extension_below", rate.extensionBelow()},
          {"extension_above", rate.extensionAbove()},
          {"levels", levels}};
}

SigmaSteps sigmaStepsFromJson(const json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source, "not a σ-steps file (not a JSON object)");
  const std::string format = textField(j, "format", source);
  if (format != kSigmaStepsFormat && format != kSigmaStepsFormatV1)
    throw InputError(source, "format is '" + format + "', not " + kSigmaStepsFormat + " (or " +
                                 kSigmaStepsFormatV1 + ")");
  const bool v1 = format == kSigmaStepsFormatV1;
  SigmaSteps out;
  out.schedule = textField(j, "schedule", source);
  if (v1) {
    out.curve = textField(j, "curve", source);
    if (out.curve != "phi" && out.curve != "rho")
      throw InputError(source, "field 'curve' must be phi or rho, not '" + out.curve + "'");
  }
  out.sigma = numbers(j, "sigma", source, "");
  checkSteps(out.sigma, source, !v1);
  if (!j.contains("steps") || !j.at("steps").is_number_integer() ||
      j.at("steps").get<int64_t>() != static_cast<int64_t>(out.sigma.size()))
    throw InputError(source, "field 'steps' is missing or differs from the number of σ values (" +
                                 std::to_string(out.sigma.size()) + ")");
  if (v1) {
    out.rule = std::string("quantiles k/(N-1) over log sigma of ") + curveDescription(out.curve);
    return out;
  }
  out.grid = textField(j, "grid", source);
  out.label = textField(j, "label", source);
  out.rule = textField(j, "rule", source);
  out.source = textField(j, "source", source);
  const json& ratio = object(j, "step_ratio", source);
  out.largestRatio = numberField(ratio, "largest", source);
  out.ratioLimit = numberField(ratio, "limit", source);
  out.ratioMargin = numberField(ratio, "margin", source);
  if (!j.contains("warnings") || !j.at("warnings").is_array())
    throw InputError(source, "field 'warnings' is missing or not an array");
  for (const json& w : j.at("warnings")) {
    if (!w.is_string()) throw InputError(source, "field 'warnings' holds a non-string");
    out.warnings.push_back(w.get<std::string>());
  }
  // The exports must be the same levels: a file edited in one place and not the other is refused.
  const size_t n = out.sigma.size();
  const std::vector<double> expected = descendingWithZero(out.sigma);
  schedule::GridExports& e = out.exports;
  e.kdiffusionSigmas = numbers(object(j, "k_diffusion", source), "sigmas", source, "k_diffusion.");
  const json& d = object(j, "diffusers", source);
  e.diffusersSigmas = numbers(d, "sigmas", source, "diffusers.");
  if (e.kdiffusionSigmas != expected)
    throw InputError(source, "field 'k_diffusion.sigmas' is not 'sigma' descending with a final 0");
  if (e.diffusersSigmas != expected)
    throw InputError(source, "field 'diffusers.sigmas' is not 'sigma' descending with a final 0");
  e.diffusersTimesteps = numbers(d, "timesteps", source, "diffusers.");
  e.flowSigmas = numbers(d, "flow_sigmas", source, "diffusers.");
  e.flowTimesteps = numbers(d, "flow_timesteps", source, "diffusers.");
  requireSize(e.diffusersTimesteps, n, "diffusers.timesteps", source);
  requireSize(e.flowSigmas, n, "diffusers.flow_sigmas", source);
  requireSize(e.flowTimesteps, n, "diffusers.flow_timesteps", source);
  e.timestepsTable = textField(d, "timesteps_table", source);
  if (j.contains("notes")) {
    if (!j.at("notes").is_array()) throw InputError(source, "field 'notes' is not an array");
    for (const json& note : j.at("notes")) {
      if (!note.is_string()) throw InputError(source, "field 'notes' holds a non-string");
      out.notes.push_back(note.get<std::string>());
    }
  }
  if (j.contains("sampling_rate")) {
    if (!j.at("sampling_rate").is_object())
      throw InputError(source, "field 'sampling_rate' is not an object");
    out.samplingRate = j.at("sampling_rate");
  }
  return out;
}

std::string sigmaStepsToPython(const SigmaSteps& steps) {
  const std::vector<double> kdiffusion = steps.exports.kdiffusionSigmas.empty()
                                             ? descendingWithZero(steps.sigma)
                                             : steps.exports.kdiffusionSigmas;
  std::string py = "# " + std::string(kSigmaStepsFormat) + ": " + steps.label +
                   ", N = " + std::to_string(steps.sigma.size()) + " levels (noisescope)\n";
  py += "grid = " + pythonText(steps.grid) + "\n";
  py += "rule = " + pythonText(steps.rule) + "\n";
  py += "warnings = [";
  for (size_t i = 0; i < steps.warnings.size(); ++i)
    py += (i ? ", " : "") + pythonText(steps.warnings[i]);
  py += "]\n\n";
  py += "# k-diffusion: sigmas = torch.tensor(kdiffusion_sigmas); sample_heun(model, x, sigmas)\n";
  py += "kdiffusion_sigmas = " + pythonList(kdiffusion) + "\n\n";
  py +=
      "# diffusers EulerDiscreteScheduler: set_timesteps(sigmas=diffusers_sigmas); the\n"
      "# timesteps it derives from them (" +
      steps.exports.timestepsTable + "):\n";
  py += "diffusers_sigmas = " + pythonList(kdiffusion) + "\n";
  py += "diffusers_timesteps = " + pythonList(steps.exports.diffusersTimesteps) + "\n\n";
  py +=
      "# diffusers FlowMatchEulerDiscreteScheduler(shift=1.0): set_timesteps(sigmas=flow_sigmas);\n"
      "# it shifts sigmas= itself, so its shift must be 1 for these levels.\n";
  py += "flow_sigmas = " + pythonList(steps.exports.flowSigmas) + "\n";
  py += "flow_timesteps = " + pythonList(steps.exports.flowTimesteps) + "\n";
  return py;
}

void writeSigmaSteps(const std::string& path, const SigmaSteps& steps, const json& provenance) {
  checkSteps(steps.sigma, path, true);
  if (hasExtension(path, ".json")) {
    writeFileAtomically(path, sigmaStepsToJson(steps, provenance).dump(2) + "\n");
    return;
  }
  if (hasExtension(path, ".py")) {
    writeFileAtomically(path, sigmaStepsToPython(steps));
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
  if (hasExtension(path, ".py"))
    throw InputError(path, "a .py σ-steps file is written for Python; read the .json or .txt form");
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
  checkSteps(out.sigma, path, false);
  return out;
}

}  // namespace noisescope
