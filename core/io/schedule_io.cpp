#include "io/schedule_io.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/profile_io.h"
#include "io/text_table.h"
#include "schedule/allocation.h"
#include "schedule/families.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/file_names.h"

namespace noisescope {

using nlohmann::json;
using namespace schedule;
using namespace io_internal;

namespace {

std::vector<double> numberArray(const json& j, const char* field, const std::string& source) {
  if (!j.contains(field)) throw InputError(source, std::string("missing field '") + field + "'");
  const json& a = j.at(field);
  if (!a.is_array()) throw InputError(source, std::string("field '") + field + "' is not an array");
  std::vector<double> out;
  out.reserve(a.size());
  for (const auto& v : a) {
    if (!v.is_number())
      throw InputError(source, std::string("field '") + field + "' holds a non-number");
    out.push_back(v.get<double>());
    if (!std::isfinite(out.back()))
      throw InputError(source, std::string("field '") + field + "' holds a non-finite number");
  }
  return out;
}

double number(const json& j, const char* field, const std::string& source) {
  if (!j.contains(field)) throw InputError(source, std::string("missing field '") + field + "'");
  if (!j.at(field).is_number())
    throw InputError(source, std::string("field '") + field + "' is not a number");
  return j.at(field).get<double>();
}

std::string text(const json& j, const char* field, const std::string& fallback) {
  if (!j.contains(field)) return fallback;
  if (!j.at(field).is_string())
    throw InputError("schedule", std::string(field) + " is not a string");
  return j.at(field).get<std::string>();
}

json lossWeightJson(const LossWeight& w) {
  return {
      {"kind", w.name()}, {"label", w.label()}, {"sigma_data", w.sigmaData}, {"gamma", w.gamma}};
}

LossWeight lossWeightFromJson(const json& j, const std::string& source) {
  LossWeight w;
  if (!j.is_object()) throw InputError(source, "loss_weight is not an object");
  if (!j.contains("kind") || !j.at("kind").is_string())
    throw InputError(source, "loss_weight.kind is missing");
  w.kind = lossWeightKindFromString(j.at("kind").get<std::string>(), source + ": loss_weight.kind");
  if (j.contains("sigma_data")) w.sigmaData = number(j, "sigma_data", source + ": loss_weight");
  if (j.contains("gamma")) w.gamma = number(j, "gamma", source + ": loss_weight");
  if (!(w.sigmaData > 0.0) || !(w.gamma > 0.0))
    throw InputError(source, "loss_weight.sigma_data and gamma must be > 0");
  return w;
}

void readInfo(const json& j, Schedule& s, const std::string& source) {
  s.info.kind = text(j, "kind", "file");
  s.info.label = text(j, "label", s.info.kind);
  if (j.contains("parameters")) {
    if (!j.at("parameters").is_object()) throw InputError(source, "parameters is not an object");
    for (const auto& [key, value] : j.at("parameters").items()) {
      if (!value.is_number()) throw InputError(source, "parameter '" + key + "' is not a number");
      s.info.setParameter(key, value.get<double>());
    }
  }
  if (j.contains("notes")) {
    if (!j.at("notes").is_object()) throw InputError(source, "notes is not an object");
    for (const auto& [key, value] : j.at("notes").items()) {
      if (!value.is_string()) throw InputError(source, "note '" + key + "' is not a string");
      s.info.setNote(key, value.get<std::string>());
    }
  }
  if (j.contains("truncated_mass")) {
    s.info.truncatedMass = number(j, "truncated_mass", source);
    if (s.info.truncatedMass < 0.0 || s.info.truncatedMass > 1.0)
      throw InputError(source, "truncated_mass must lie in [0, 1]");
  }
  if (j.contains("loss_weight")) s.lossWeight = lossWeightFromJson(j.at("loss_weight"), source);
}

}  // namespace

// ------------------------------------------------------------------------------------------ JSON

json scheduleToJson(const Schedule& s, const json& provenance) {
  json j;
  j["format"] = kScheduleFormat;
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
  j["loss_weight"] = lossWeightJson(s.lossWeight);
  const Schedule phi = effectiveAllocation(s);
  if (s.isAtomic()) {
    json atoms = json::array();
    std::vector<double> cdf, weights, allocation;
    for (std::size_t k = 0; k < s.atoms().size(); ++k) {
      const Atom& a = s.atoms()[k];
      atoms.push_back({{"sigma", a.sigma}, {"weight", a.weight}});
      cdf.push_back(s.cdfSigma(a.sigma));
      weights.push_back(s.lossWeight.at(a.sigma, a.weight));
      allocation.push_back(phi.atoms()[k].weight);
    }
    j["atoms"] = atoms;
    j["cdf"] = cdf;
    j["loss_weight_values"] = weights;
    j["allocation_weights"] = allocation;
  } else {
    const LogSigmaGrid& g = s.grid();
    const std::vector<double> density = g.densities(s.binMasses()),
                              allocation = g.densities(phi.binMasses()), centers = g.sigmaCenters();
    std::vector<double> sigmaEdges, weights;
    for (int b = 0; b < g.bins(); ++b) weights.push_back(s.lossWeight.at(centers[b], density[b]));
    for (double e : g.edges) sigmaEdges.push_back(std::exp(e));
    j["coordinate"] = "log-sigma";
    j["density_note"] = "piecewise constant per bin, per unit log σ; p_σ = p_ℓ/σ, p_λ = p_ℓ/2";
    j["log_sigma_edges"] = g.edges;
    j["sigma_edges"] = sigmaEdges;
    j["sigma_centers"] = centers;
    j["bin_masses"] = s.binMasses();
    j["density"] = density;
    j["cdf"] = s.edgeCdf();
    j["loss_weight_values"] = weights;
    j["allocation"] = allocation;
  }
  j["provenance"] = provenance;
  return j;
}

Schedule scheduleFromJson(const json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source, "not a JSON object");
  if (!j.contains("format") || !j.at("format").is_string())
    throw InputError(source, "missing 'format' (expected \"noisescope.schedule/1\")");
  const std::string format = j.at("format").get<std::string>();
  if (format != kScheduleFormat) {
    if (format.rfind("noisescope.schedule/", 0) == 0)
      throw InputError(source, "format " + format + " is not supported by this version (reads " +
                                   kScheduleFormat + ")");
    throw InputError(source,
                     "format is '" + format + "', not a schedule (" + kScheduleFormat + ")");
  }
  const bool atomic = j.contains("atoms");
  const bool binned = j.contains("log_sigma_edges");
  if (atomic == binned)
    throw InputError(source, "a schedule needs exactly one of 'atoms' or 'log_sigma_edges'");
  Schedule s;
  if (atomic) {
    const json& a = j.at("atoms");
    if (!a.is_array() || a.empty()) throw InputError(source, "'atoms' must be a non-empty array");
    std::vector<Atom> atoms;
    for (const auto& item : a) {
      if (!item.is_object())
        throw InputError(source, "every atom must be an object {sigma, weight}");
      atoms.push_back(
          {number(item, "sigma", source + ": atoms"), number(item, "weight", source + ": atoms")});
    }
    const double lo = number(j, "sigma_min", source), hi = number(j, "sigma_max", source);
    try {
      s = Schedule::fromAtoms(std::move(atoms), lo, hi);
    } catch (const InputError& e) {
      throw InputError(source, e.problem());
    }
  } else {
    LogSigmaGrid grid;
    grid.edges = numberArray(j, "log_sigma_edges", source);
    if (grid.edges.size() > 10000001) throw InputError(source, "more than 1e7 bins");
    grid.validate(source + ": log_sigma_edges");
    std::vector<double> masses;
    if (j.contains("bin_masses")) {
      masses = numberArray(j, "bin_masses", source);
    } else {
      const std::vector<double> density = numberArray(j, "density", source);
      if (density.size() != static_cast<std::size_t>(grid.bins()))
        throw InputError(source, "'density' needs one value per bin");
      for (int b = 0; b < grid.bins(); ++b) masses.push_back(density[b] * grid.width(b));
    }
    if (masses.size() != static_cast<std::size_t>(grid.bins()))
      throw InputError(source, "'bin_masses' has " + std::to_string(masses.size()) +
                                   " values for " + std::to_string(grid.bins()) + " bins");
    for (double m : masses)
      if (m < 0.0) throw InputError(source, "'bin_masses' holds a negative value");
    try {
      s = Schedule::fromBinMasses(grid, masses);
    } catch (const InputError& e) {
      throw InputError(source, e.problem());
    }
    if (j.contains("coordinate") && text(j, "coordinate", "") != "log-sigma")
      throw InputError(source,
                       "binned densities are stored per unit log σ ('coordinate' must be "
                       "\"log-sigma\")");
    if (j.contains("cdf")) {
      const std::vector<double> cdf = numberArray(j, "cdf", source);
      if (cdf.size() != s.edgeCdf().size())
        throw InputError(source, "'cdf' needs one value per bin edge");
      for (std::size_t i = 0; i < cdf.size(); ++i)
        if (std::abs(cdf[i] - s.edgeCdf()[i]) > 1e-6)
          throw InputError(source,
                           "'cdf' does not match 'bin_masses' at edge " + std::to_string(i));
    }
  }
  readInfo(j, s, source);
  s.info.setNote("file", source);
  return s;
}

// ------------------------------------------------------------------------------------------- CSV

std::string scheduleToCsv(const Schedule& s) {
  std::ostringstream out;
  out.precision(17);
  out << "# format: " << kScheduleFormat << "\n# kind: " << s.info.kind
      << "\n# label: " << s.info.label << "\n# loss_weight: " << s.lossWeight.name()
      << "\n# sigma_data: " << s.lossWeight.sigmaData << "\n# gamma: " << s.lossWeight.gamma
      << "\n# truncated_mass: " << s.info.truncatedMass << "\n# sigma_min: " << s.sigmaMin()
      << "\n# sigma_max: " << s.sigmaMax() << "\n";
  for (const auto& [key, value] : s.info.parameters)
    out << "# parameter." << key << ": " << value << "\n";
  for (const auto& [key, value] : s.info.notes)
    if (value.find('\n') == std::string::npos) out << "# note." << key << ": " << value << "\n";
  const Schedule phi = effectiveAllocation(s);
  if (s.isAtomic()) {
    out << "sigma,log_sigma,weight,cdf,loss_weight,allocation\n";
    for (std::size_t k = 0; k < s.atoms().size(); ++k) {
      const Atom& a = s.atoms()[k];
      out << a.sigma << ',' << std::log(a.sigma) << ',' << a.weight << ',' << s.cdfSigma(a.sigma)
          << ',' << s.lossWeight.at(a.sigma, a.weight) << ',' << phi.atoms()[k].weight << '\n';
    }
    return out.str();
  }
  const LogSigmaGrid& g = s.grid();
  out << "log_sigma_lo,log_sigma_hi,sigma_lo,sigma_hi,sigma_center,mass,density_log_sigma,"
         "density_sigma,density_lambda,cdf_hi,loss_weight,allocation_log_sigma\n";
  const std::vector<double> density = g.densities(s.binMasses()),
                            allocation = g.densities(phi.binMasses());
  for (int b = 0; b < g.bins(); ++b) {
    const double center = std::exp(g.center(b));
    const double p = density[b];
    out << g.edges[b] << ',' << g.edges[b + 1] << ',' << std::exp(g.edges[b]) << ','
        << std::exp(g.edges[b + 1]) << ',' << center << ',' << s.binMasses()[b] << ',' << p << ','
        << p / center << ',' << p / 2 << ',' << s.edgeCdf()[b + 1] << ','
        << s.lossWeight.at(center, p) << ',' << allocation[b] << '\n';
  }
  return out.str();
}

Schedule scheduleFromCsv(const std::string& content, const std::string& source) {
  const CsvTable t = parseCsv(content, source);
  const std::string format = t.metaValue("format", kScheduleFormat);
  if (format != kScheduleFormat)
    throw InputError(source, "format is '" + format + "', not " + kScheduleFormat);
  Schedule s;
  try {
    if (t.column("log_sigma_lo") >= 0) {
      const std::vector<double> lo = t.values(requireColumn(t, "log_sigma_lo", source));
      const std::vector<double> hi = t.values(requireColumn(t, "log_sigma_hi", source));
      const std::vector<double> mass = t.values(requireColumn(t, "mass", source));
      LogSigmaGrid grid;
      grid.edges = lo;
      grid.edges.push_back(hi.back());
      for (std::size_t i = 0; i + 1 < lo.size(); ++i)
        if (std::abs(hi[i] - lo[i + 1]) > 1e-12 * (1.0 + std::abs(hi[i])))
          throw InputError(source, "bins are not contiguous at row " + std::to_string(i + 1));
      s = Schedule::fromBinMasses(grid, mass);
    } else if (t.column("sigma") >= 0 && t.column("weight") >= 0) {
      const std::vector<double> sigma = t.values(t.column("sigma")),
                                weight = t.values(t.column("weight"));
      std::vector<Atom> atoms;
      for (std::size_t i = 0; i < sigma.size(); ++i) atoms.push_back({sigma[i], weight[i]});
      const double lo = std::strtod(t.metaValue("sigma_min", "0").c_str(), nullptr);
      const double hi = std::strtod(t.metaValue("sigma_max", "0").c_str(), nullptr);
      s = Schedule::fromAtoms(atoms, lo > 0 ? lo : *std::min_element(sigma.begin(), sigma.end()),
                              hi > 0 ? hi : *std::max_element(sigma.begin(), sigma.end()));
    } else {
      throw InputError(source,
                       "expected columns log_sigma_lo, log_sigma_hi, mass (binned) or "
                       "sigma, weight (atomic)");
    }
  } catch (const InputError& e) {
    throw InputError(source, e.problem());
  }
  s.info.kind = t.metaValue("kind", "file");
  s.info.label = t.metaValue("label", s.info.kind);
  s.lossWeight.kind = lossWeightKindFromString(t.metaValue("loss_weight", "uniform"), source);
  s.lossWeight.sigmaData = std::strtod(t.metaValue("sigma_data", "0.5").c_str(), nullptr);
  s.lossWeight.gamma = std::strtod(t.metaValue("gamma", "5").c_str(), nullptr);
  if (!(s.lossWeight.sigmaData > 0.0) || !(s.lossWeight.gamma > 0.0))
    throw InputError(source, "sigma_data and gamma must be > 0");
  s.info.truncatedMass =
      std::clamp(std::strtod(t.metaValue("truncated_mass", "0").c_str(), nullptr), 0.0, 1.0);
  for (const auto& [key, value] : t.meta) {
    if (key.rfind("parameter.", 0) == 0) {
      char* end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || end != value.c_str() + value.size())
        throw InputError(source, "metadata " + key + " is not a number");
      s.info.setParameter(key.substr(10), v);
    } else if (key.rfind("note.", 0) == 0) {
      s.info.setNote(key.substr(5), value);
    }
  }
  s.info.setNote("file", source);
  return s;
}

// ------------------------------------------------------------------------------------ dispatch

ScheduleFileType scheduleFileType(const std::string& path) {
  if (hasExtension(path, ".json")) return ScheduleFileType::Json;
  if (hasExtension(path, ".csv")) return ScheduleFileType::Csv;
  if (hasAnyExtension(path, {".h5", ".hdf5"})) return ScheduleFileType::Hdf5;
  throw InputError(
      path, "unknown schedule file type '" + fileName(path) + "' (use .json, .csv, .h5 or .hdf5)");
}

void writeSchedule(const std::string& path, const Schedule& s, const json& provenance) {
  switch (scheduleFileType(path)) {
    case ScheduleFileType::Json:
      writeFileAtomically(path, scheduleToJson(s, provenance).dump(2) + "\n");
      break;
    case ScheduleFileType::Csv:
      writeFileAtomically(path, scheduleToCsv(s));
      break;
    case ScheduleFileType::Hdf5:
      writeScheduleHdf5(path, s, provenance);
      break;
  }
}

Schedule readSchedule(const std::string& path) {
  if (hasAnyExtension(path, {".h5", ".hdf5"})) return readScheduleHdf5(path);
  const std::string content = readTextFile(path);
  if (hasExtension(path, ".csv") && !looksLikeJson(content)) return scheduleFromCsv(content, path);
  if (!looksLikeJson(content))
    throw InputError(path,
                     "not a schedule file (expected noisescope.schedule/1 JSON, CSV or HDF5)");
  return scheduleFromJson(parseJson(content, path), path);
}

// ---------------------------------------------------------------------------------- tables

Schedule readTableSchedule(const std::string& path, const LogSigmaGrid& grid,
                           Coordinate coordinate) {
  const std::string content = readTextFile(path);
  std::vector<double> sigma, density;
  if (looksLikeJson(content)) {
    const json j = parseJson(content, path);
    sigma = numberArray(j, "sigma", path);
    density = numberArray(j, "density", path);
    if (j.contains("coordinate"))
      coordinate = coordinateFromString(text(j, "coordinate", ""), path);
  } else {
    const CsvTable t = parseCsv(content, path);
    sigma = t.values(requireColumn(t, "sigma", path));
    int c = t.column("density");
    for (Coordinate candidate : {Coordinate::Sigma, Coordinate::LogSigma, Coordinate::Lambda,
                                 Coordinate::VpTime, Coordinate::FlowTime}) {
      const std::string name = std::string("density_") + toString(candidate);
      if (c < 0 && t.column(name) >= 0) {
        c = t.column(name);
        coordinate = candidate;
      }
    }
    if (c < 0) throw InputError(path, "missing column 'density' (or density_<coordinate>)");
    density = t.values(c);
  }
  Schedule s = makeTableSchedule(sigma, density, coordinate, grid, path);
  return s;
}

#ifndef NOISESCOPE_WITH_HDF5
void writeScheduleHdf5(const std::string& path, const Schedule&, const json&) {
  throw InputError(path, "this build has no HDF5 support (NOISESCOPE_WITH_HDF5 is off)");
}
Schedule readScheduleHdf5(const std::string& path) {
  throw InputError(path, "this build has no HDF5 support (NOISESCOPE_WITH_HDF5 is off)");
}
#endif

void writeCurvesCsv(const std::string& path, const schedule::CurveTable& table) {
  std::ostringstream out;
  out.precision(12);
  const std::string c = schedule::toString(table.coordinate);
  out << "# densities are per unit " << c << "; phi is normalised on this grid\n";
  out << "sigma," << c << ",pi,w,phi,cdf,phi_cdf\n";
  for (std::size_t i = 0; i < table.sigma.size(); ++i)
    out << table.sigma[i] << ',' << table.coordinateValue[i] << ',' << table.sampling[i] << ','
        << table.weight[i] << ',' << table.allocation[i] << ',' << table.cdf[i] << ','
        << table.allocationCdf[i] << '\n';
  writeFileAtomically(path, out.str());
}

}  // namespace noisescope
