#include "train/schedule_files.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "util/error.h"

namespace noisescope::train {

using nlohmann::json;

void writeScheduleFile(const std::string& path, const schedule::Schedule& s,
                       const json& provenance) {
  json j;
  j["format"] = "noisescope.schedule/1";
  j["kind"] = s.info.kind;
  j["label"] = s.info.label;
  json params = json::object(), notes = json::object();
  for (const auto& [k, v] : s.info.parameters) params[k] = v;
  for (const auto& [k, v] : s.info.notes) notes[k] = v;
  j["parameters"] = params;
  j["notes"] = notes;
  j["truncated_mass"] = s.info.truncatedMass;
  j["sigma_min"] = s.sigmaMin();
  j["sigma_max"] = s.sigmaMax();
  j["loss_weight"] = {{"kind", s.lossWeight.name()},
                      {"sigma_data", s.lossWeight.sigmaData},
                      {"gamma", s.lossWeight.gamma}};
  if (s.isAtomic()) {
    json atoms = json::array();
    for (const auto& a : s.atoms()) atoms.push_back({{"sigma", a.sigma}, {"weight", a.weight}});
    j["atoms"] = atoms;
  } else {
    const auto& g = s.grid();
    std::vector<double> density(g.bins());
    for (int b = 0; b < g.bins(); ++b) density[b] = s.binMasses()[b] / g.width(b);
    j["coordinate"] = "log-sigma";
    j["log_sigma_edges"] = g.edges;
    j["bin_masses"] = s.binMasses();
    j["density"] = density;
    j["cdf"] = s.edgeCdf();
  }
  j["provenance"] = provenance;
  writeFileAtomically(path, j.dump(2) + "\n");
}

schedule::Schedule readScheduleFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the schedule file");
  std::ostringstream text;
  text << in.rdbuf();
  const json j = json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw InputError(path, "not a JSON object");
  if (j.value("format", "") != "noisescope.schedule/1")
    throw InputError(path, "format is not noisescope.schedule/1");
  try {
    schedule::Schedule s;
    if (j.contains("atoms")) {
      std::vector<schedule::Atom> atoms;
      for (const auto& a : j.at("atoms"))
        atoms.push_back({a.at("sigma").get<double>(), a.at("weight").get<double>()});
      s = schedule::Schedule::fromAtoms(atoms, j.at("sigma_min").get<double>(),
                                        j.at("sigma_max").get<double>());
    } else {
      schedule::LogSigmaGrid grid;
      grid.edges = j.at("log_sigma_edges").get<std::vector<double>>();
      grid.validate(path);
      const auto masses = j.at("bin_masses").get<std::vector<double>>();
      if (masses.size() != size_t(grid.bins()))
        throw InputError(path, "bin_masses must have one entry per bin");
      for (double m : masses)
        if (!std::isfinite(m) || m < 0) throw InputError(path, "bin_masses holds a bad value");
      s = schedule::Schedule::fromBinMasses(grid, masses);
    }
    s.info.kind = j.value("kind", "file");
    s.info.label = j.value("label", path);
    s.info.setNote("file", path);
    return s;
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path, std::string("malformed schedule: ") + e.what());
  }
}

}  // namespace noisescope::train
