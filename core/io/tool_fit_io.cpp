#include "io/tool_fit_io.h"

#include <cstdio>

#include "util/atomic_file.h"

namespace noisescope::io {

using schedule::TrainerFamilyFit;

std::vector<std::pair<std::string, std::vector<double>>> knobValues(const TrainerFamilyFit& fit) {
  std::vector<std::pair<std::string, std::vector<double>>> knobs;
  for (const auto& [name, value] : fit.parameters) {
    const auto bracket = name.find('[');
    const std::string knob = name.substr(0, bracket);
    if (bracket != std::string::npos && !knobs.empty() && knobs.back().first == knob)
      knobs.back().second.push_back(value);
    else
      knobs.push_back({knob, {value}});
  }
  return knobs;
}

std::string knobText(const TrainerFamilyFit& fit, const char* format, const char* assign,
                     const char* separator) {
  std::string text;
  for (const auto& [name, values] : knobValues(fit)) {
    text += (text.empty() ? "" : separator) + name + assign;
    char v[64];
    std::snprintf(v, sizeof v, format, values.front());
    text += values.size() == 1 ? std::string(v) : "[" + std::to_string(values.size()) + " knots]";
  }
  return text;
}

nlohmann::json toJson(const TrainerFamilyFit& fit) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : fit.parameters) {
    const auto bracket = name.find('[');
    if (bracket == std::string::npos)
      params[name] = value;
    else
      params[name.substr(0, bracket)].push_back(value);  // a list-valued knob, in order
  }
  return {{"family", fit.family},        {"params", params}, {"kl", fit.kl},
          {"kl_reverse", fit.klReverse}, {"tv", fit.tv},     {"snippet", fit.snippet}};
}

nlohmann::json toJson(const ToolFit& fit) {
  nlohmann::json fits = nlohmann::json::array();
  for (const auto& f : fit.fits) fits.push_back(toJson(f));
  nlohmann::json out = {
      {"tool", fit.tool}, {"model", fit.model}, {"coordinate", fit.coordinate}, {"fits", fits}};
  if (!fit.latentScale.empty()) out["latent_scale"] = fit.latentScale;
  return out;
}

std::string formatToolFit(const ToolFit& fit) {
  char line[512];
  std::string out = fit.tool + " training " + fit.model + " (" + fit.modelNote + ")\n";
  if (!fit.latentScale.empty()) out += "latent scale: " + fit.latentScale + "\n";
  std::snprintf(line, sizeof line,
                "%s: draws in %s (%s), loss in %s; knobs go in %s\n"
                "reachable sigma: %.4g .. %.4g (%.1f %% of the target's phi lies there)\n",
                fit.tool.c_str(), fit.coordinate.c_str(), fit.discretisation.c_str(),
                fit.lossSpace.c_str(), fit.knob.c_str(), fit.sigmaMin, fit.sigmaMax,
                100.0 * fit.targetMassReachable);
  out += line;
  std::snprintf(line, sizeof line, "%-24s %10s %10s %8s  parameters\n", "family", "KL(t||f)",
                "KL(f||t)", "TV");
  out += line;
  for (const auto& f : fit.fits) {
    const std::string params = knobText(f, "%.4g", "=", " ");
    std::snprintf(line, sizeof line, "%-24s %10.4f %10.4f %8.4f  %s\n", f.family.c_str(), f.kl,
                  f.klReverse, f.tv, params.empty() ? "(no knob)" : params.c_str());
    out += line;
  }
  out += "\n";
  for (const auto& f : fit.fits) {
    out += "# " + f.family + " (" + f.note + ")\n" + f.snippet + "\n\n";
  }
  return out;
}

void writeToolFit(const std::string& path, const ToolFit& fit) {
  const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  writeFileAtomically(path, json ? toJson(fit).dump(2) + "\n" : formatToolFit(fit));
}

std::string formatCurrentFit(const CurrentFit& fit) {
  char line[512];
  std::string out = fit.settingsPath + " (" + fit.settingsFormat + ")\n" + fit.tool + " training " +
                    fit.model + " (" + fit.modelSource + ") with " + fit.family;
  const std::string knobs = knobText(fit.current);
  out += knobs.empty() ? "\n" : ": " + knobs + "\n";
  for (const auto& k : fit.assumedDefaults)
    out += "  " + k + " is not in the file: the tool's default is assumed\n";
  std::snprintf(line, sizeof line,
                "as set:          KL(t||f) %.4f  KL(f||t) %.4f  TV %.4f\n"
                "best in family:  KL(t||f) %.4f  KL(f||t) %.4f  TV %.4f\n",
                fit.current.kl, fit.current.klReverse, fit.current.tv, fit.bestInFamily.kl,
                fit.bestInFamily.klReverse, fit.bestInFamily.tv);
  out += line;
  if (fit.changes.empty()) {
    out += "the knobs are already at this family's best fit\n";
  } else {
    out += "smallest change (knobs of " + fit.family + " only):\n";
    for (const auto& c : fit.changes) out += "  " + c.key + ": " + c.from + " -> " + c.to + "\n";
    out += "\n" + fit.bestInFamily.snippet + "\n";
  }
  if (fit.bestOverall.family != fit.family && fit.bestOverall.kl < fit.bestInFamily.kl - 0.01) {
    std::snprintf(line, sizeof line,
                  "\nthe tool's best family for this target is %s (KL %.4f, TV %.4f):\n",
                  fit.bestOverall.family.c_str(), fit.bestOverall.kl, fit.bestOverall.tv);
    out += line + fit.bestOverall.snippet + "\n";
  }
  if (!fit.unreadKeys.empty()) {
    const std::size_t n = fit.unreadKeys.size();
    out += "\nnot read (" + std::to_string(n) + (n == 1 ? " key" : " keys") +
           " that no modelled draw or loss weighting of " + fit.tool + " sets): ";
    for (std::size_t i = 0; i < fit.unreadKeys.size() && i < 12; ++i)
      out += (i ? ", " : "") + fit.unreadKeys[i];
    out += fit.unreadKeys.size() > 12 ? ", …\n" : "\n";
  }
  return out;
}

nlohmann::json toJson(const CurrentFit& fit) {
  nlohmann::json changes = nlohmann::json::array();
  for (const auto& c : fit.changes)
    changes.push_back({{"key", c.key}, {"from", c.from}, {"to", c.to}});
  return {{"tool", fit.tool},
          {"model", fit.model},
          {"model_source", fit.modelSource},
          {"settings", fit.settingsPath},
          {"format", fit.settingsFormat},
          {"family", fit.family},
          {"assumed_defaults", fit.assumedDefaults},
          {"unread_keys", fit.unreadKeys},
          {"current", toJson(fit.current)},
          {"best_in_family", toJson(fit.bestInFamily)},
          {"best_overall", toJson(fit.bestOverall)},
          {"changes", changes}};
}

}  // namespace noisescope::io
