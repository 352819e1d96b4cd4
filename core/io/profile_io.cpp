#include "io/profile_io.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "io/text_table.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/file_names.h"

namespace noisescope {

namespace {

using nlohmann::json;

std::vector<double> scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out(v);
  for (double& x : out) x *= factor;
  return out;
}

json estimateToJson(const MmseEstimate& e, int64_t dim) {
  const double perDim = 1.0 / static_cast<double>(dim);
  json out = {
      {"name", e.name},
      {"description", e.description},
      {"mean", e.mean},
      {"standard_error", e.standardError},
      {"ci95_low", e.ciLow},
      {"ci95_high", e.ciHigh},
      {"per_dimension",
       {{"mean", scaled(e.mean, perDim)},
        {"standard_error", scaled(e.standardError, perDim)},
        {"ci95_low", scaled(e.ciLow, perDim)},
        {"ci95_high", scaled(e.ciHigh, perDim)}}},
  };
  if (!e.interval.empty()) out["interval"] = e.interval;
  if (!e.upper95.empty()) {
    out["upper95"] = e.upper95;
    out["per_dimension"]["upper95"] = scaled(e.upper95, perDim);
  }
  return out;
}

// Field access that names the field and the file in every complaint.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw InputError(source_, "field '" + field + "' " + problem);
  }

  const json& member(const json& object, const std::string& key, const std::string& path) const {
    if (!object.is_object()) fail(path, "is not an object");
    auto it = object.find(key);
    if (it == object.end()) fail(join(path, key), "is missing");
    return *it;
  }

  std::string text(const json& object, const std::string& key, const std::string& path) const {
    const json& v = member(object, key, path);
    if (!v.is_string()) fail(join(path, key), "is not a string");
    return v.get<std::string>();
  }

  int64_t count(const json& object, const std::string& key, const std::string& path) const {
    const json& v = member(object, key, path);
    if (!v.is_number_integer() || v.get<int64_t>() < 0)
      fail(join(path, key), "is not a non-negative integer");
    return v.get<int64_t>();
  }

  double number(const json& object, const std::string& key, const std::string& path) const {
    const json& v = member(object, key, path);
    if (!v.is_number() || !std::isfinite(v.get<double>()))
      fail(join(path, key), "is not a finite number");
    return v.get<double>();
  }

  std::vector<double> series(const json& object, const std::string& key, const std::string& path,
                             size_t expected) const {
    const json& v = member(object, key, path);
    const std::string name = join(path, key);
    if (!v.is_array()) fail(name, "is not an array");
    if (v.size() != expected)
      fail(name, "has " + std::to_string(v.size()) + " values, expected " +
                     std::to_string(expected) + " (one per sigma)");
    std::vector<double> out;
    out.reserve(expected);
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
        fail(name + "[" + std::to_string(i) + "]", "is not a finite number");
      out.push_back(v[i].get<double>());
    }
    return out;
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

 private:
  std::string source_;
};

}  // namespace

json profileToJson(const Profile& profile) {
  json out;
  out["format"] = kProfileFormat;
  out["kind"] = profile.kind;
  out["provenance"] = profile.provenance;
  out["dimension"] = profile.dim;
  out["dataset_size"] = profile.datasetSize;
  out["queries"] = profile.queries;
  if (profile.sigmaData > 0.0) out["sigma_data"] = profile.sigmaData;
  std::vector<double> logSigma, lambda;
  for (double s : profile.sigma) {
    logSigma.push_back(std::log(s));
    lambda.push_back(-2.0 * std::log(s));
  }
  out["grid"] = {{"coordinate", "sigma"},
                 {"spacing", "uniform in log sigma"},
                 {"sigma", profile.sigma},
                 {"log_sigma", logSigma},
                 {"lambda", lambda}};
  json estimates = json::array();
  for (const auto& e : profile.estimates) estimates.push_back(estimateToJson(e, profile.dim));
  out["mmse"] = {{"summed_over", "all D dimensions (per_dimension: divided by D)"},
                 {"interval", kMmseInterval},
                 {"primary", profile.primary().name},
                 {"estimators", estimates}};
  if (!profile.posterior.empty()) {
    out["posterior"] = {{"averaged_over", "queries"},
                        {"max_weight", profile.posterior.maxWeight},
                        {"weight_entropy_nats", profile.posterior.weightEntropy},
                        {"effective_sample_size", profile.posterior.effectiveSampleSize},
                        {"prune_log_ratio", profile.posterior.pruneLogRatio},
                        {"pruned_weight_bound", profile.posterior.prunedWeightBound}};
  }
  json rates = {{"from_estimator", profile.primary().name}};
  for (const auto& r : profile.rates) {
    rates[r.coordinate] = {
        {"formula", r.formula}, {"value", r.value}, {"standard_error", r.standardError}};
  }
  out["rates"] = rates;
  out["checks"] = {{"integral_rate_d_log_sigma", integrateRateOverLogSigma(profile)},
                   {"log_dataset_size", std::log(static_cast<double>(profile.datasetSize))}};
  return out;
}

Profile profileFromJson(const json& root, const std::string& source) {
  const Reader in(source);
  if (!root.is_object()) throw InputError(source, "not a NoiseScope profile (not a JSON object)");
  const auto format = root.find("format");
  if (format == root.end() || !format->is_string())
    throw InputError(source, "not a NoiseScope profile (no \"format\" field)");
  const std::string formatText = format->get<std::string>();
  if (formatText != kProfileFormat) {
    if (formatText.rfind("noisescope.profile/", 0) == 0)
      throw InputError(source, "profile format '" + formatText +
                                   "' is not supported by this version (reads " + kProfileFormat +
                                   ")");
    throw InputError(source, "not a NoiseScope profile (format is '" + formatText + "')");
  }

  Profile p;
  p.kind = in.text(root, "kind", "");
  if (!isProfileKind(p.kind))
    in.fail("kind", "must be one of " + profileKindList() + ", not '" + p.kind + "'");
  p.dim = in.count(root, "dimension", "");
  if (p.dim < 1) in.fail("dimension", "must be at least 1");
  p.datasetSize = in.count(root, "dataset_size", "");
  p.queries = in.count(root, "queries", "");
  // Optional: files written before profiles recorded σ_data have none.
  if (root.contains("sigma_data")) {
    p.sigmaData = in.number(root, "sigma_data", "");
    if (!(p.sigmaData > 0.0)) in.fail("sigma_data", "must be > 0");
  }
  const json& provenance = in.member(root, "provenance", "");
  if (!provenance.is_object()) in.fail("provenance", "is not an object");
  p.provenance = provenance;

  const json& grid = in.member(root, "grid", "");
  const json& sigma = in.member(grid, "sigma", "grid");
  if (!sigma.is_array() || sigma.size() < 2) in.fail("grid.sigma", "needs at least 2 values");
  p.sigma = in.series(grid, "sigma", "grid", sigma.size());
  for (size_t l = 0; l < p.sigma.size(); ++l) {
    if (!(p.sigma[l] > 0.0)) in.fail("grid.sigma[" + std::to_string(l) + "]", "is not positive");
    if (l > 0 && !(p.sigma[l] > p.sigma[l - 1])) in.fail("grid.sigma", "is not increasing");
  }
  const size_t levels = p.sigma.size();

  const json& mmse = in.member(root, "mmse", "");
  const std::string primary = in.text(mmse, "primary", "mmse");
  const json& estimators = in.member(mmse, "estimators", "mmse");
  if (!estimators.is_array() || estimators.empty())
    in.fail("mmse.estimators", "must be a non-empty array");
  for (size_t i = 0; i < estimators.size(); ++i) {
    const std::string path = "mmse.estimators[" + std::to_string(i) + "]";
    MmseEstimate e;
    e.name = in.text(estimators[i], "name", path);
    e.description = in.text(estimators[i], "description", path);
    e.mean = in.series(estimators[i], "mean", path, levels);
    e.standardError = in.series(estimators[i], "standard_error", path, levels);
    e.ciLow = in.series(estimators[i], "ci95_low", path, levels);
    e.ciHigh = in.series(estimators[i], "ci95_high", path, levels);
    if (estimators[i].contains("interval")) e.interval = in.text(estimators[i], "interval", path);
    if (estimators[i].contains("upper95"))
      e.upper95 = in.series(estimators[i], "upper95", path, levels);
    for (size_t l = 0; l < levels; ++l) {
      if (e.standardError[l] < 0.0)
        in.fail(path + ".standard_error[" + std::to_string(l) + "]", "is negative");
    }
    p.estimates.push_back(std::move(e));
  }
  if (p.estimates.front().name != primary)
    in.fail("mmse.primary", "must name the first estimator ('" + p.estimates.front().name + "')");

  const auto posterior = root.find("posterior");
  if (posterior != root.end()) {
    p.posterior.maxWeight = in.series(*posterior, "max_weight", "posterior", levels);
    p.posterior.weightEntropy = in.series(*posterior, "weight_entropy_nats", "posterior", levels);
    p.posterior.effectiveSampleSize =
        in.series(*posterior, "effective_sample_size", "posterior", levels);
    p.posterior.pruneLogRatio = in.number(*posterior, "prune_log_ratio", "posterior");
    p.posterior.prunedWeightBound = in.number(*posterior, "pruned_weight_bound", "posterior");
  } else if (p.kind == "empirical") {
    in.fail("posterior", "is missing (an empirical profile always has it)");
  }
  // Rates are derived data: recomputed from the primary estimate rather than trusted.
  p.rates = computeRates(p.sigma, p.primary());
  return p;
}

void writeProfile(const std::string& path, const Profile& profile) {
  writeFileAtomically(path, profileToJson(profile).dump(2) + "\n");
}

std::string profileToCsv(const Profile& profile) {
  std::ostringstream out;
  // Metadata lines first ("# key: value"), so that readProfile can read the table back.
  out << "# format: " << kProfileFormat << "\n# kind: " << profile.kind
      << "\n# dimension: " << profile.dim << "\n# dataset_size: " << profile.datasetSize
      << "\n# queries: " << profile.queries << "\n# primary: " << profile.primary().name << '\n';
  char meta[32];
  if (profile.sigmaData > 0.0) {
    std::snprintf(meta, sizeof meta, "%.17g", profile.sigmaData);
    out << "# sigma_data: " << meta << '\n';
  }
  if (!profile.posterior.empty()) {
    std::snprintf(meta, sizeof meta, "%.17g", profile.posterior.pruneLogRatio);
    out << "# prune_log_ratio: " << meta << '\n';
    std::snprintf(meta, sizeof meta, "%.17g", profile.posterior.prunedWeightBound);
    out << "# pruned_weight_bound: " << meta << '\n';
  }
  out << "sigma,log_sigma,lambda";
  for (const auto& e : profile.estimates) {
    for (const char* column :
         {"mmse", "mmse_se", "mmse_ci95_low", "mmse_ci95_high", "mmse_per_dim", "mmse_per_dim_se"})
      out << ',' << e.name << '_' << column;
  }
  for (const auto& r : profile.rates)
    out << ",rate_" << r.coordinate << ",rate_" << r.coordinate << "_se";
  const bool posterior = !profile.posterior.empty();
  if (posterior) out << ",max_weight,weight_entropy_nats,effective_sample_size";
  out << '\n';
  const double perDim = 1.0 / static_cast<double>(profile.dim);
  char buffer[32];
  auto put = [&](double v) {
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    out << ',' << buffer;
  };
  for (size_t l = 0; l < profile.sigma.size(); ++l) {
    const double s = profile.sigma[l];
    std::snprintf(buffer, sizeof buffer, "%.17g", s);
    out << buffer;
    put(std::log(s));
    put(-2.0 * std::log(s));
    for (const auto& e : profile.estimates) {
      put(e.mean[l]);
      put(e.standardError[l]);
      put(e.ciLow[l]);
      put(e.ciHigh[l]);
      put(e.mean[l] * perDim);
      put(e.standardError[l] * perDim);
    }
    for (const auto& r : profile.rates) {
      put(r.value[l]);
      put(r.standardError[l]);
    }
    if (posterior) {
      put(profile.posterior.maxWeight[l]);
      put(profile.posterior.weightEntropy[l]);
      put(profile.posterior.effectiveSampleSize[l]);
    }
    out << '\n';
  }
  return out.str();
}

void writeProfileCsv(const std::string& path, const Profile& profile) {
  writeFileAtomically(path, profileToCsv(profile));
}

namespace {

using io_internal::CsvTable;

// σ strictly increasing and positive, MMSE finite and ≥ 0: what every profile must satisfy.
void checkLevels(const std::vector<double>& sigma, const MmseEstimate& primary,
                 const std::string& source) {
  if (sigma.size() < 2) throw InputError(source, "a profile needs at least 2 σ levels");
  for (size_t l = 0; l < sigma.size(); ++l) {
    const std::string row = " (level " + std::to_string(l + 1) + ")";
    if (!(sigma[l] > 0.0)) throw InputError(source, "sigma must be > 0" + row);
    if (l > 0 && !(sigma[l] > sigma[l - 1]))
      throw InputError(source, "sigma must be strictly ascending" + row);
    if (!(primary.mean[l] >= 0.0)) throw InputError(source, "mmse must be ≥ 0" + row);
  }
}

int64_t metaCount(const CsvTable& t, const std::string& key, int64_t fallback,
                  const std::string& source) {
  const std::string text = t.metaValue(key, "");
  if (text.empty()) return fallback;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || v < 0) throw InputError(source, "metadata " + key + " is not a count");
  return v;
}

double metaNumber(const CsvTable& t, const std::string& key, double fallback,
                  const std::string& source) {
  const std::string text = t.metaValue(key, "");
  if (text.empty()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v))
    throw InputError(source, "metadata " + key + " is not a number");
  return v;
}

// An estimate from its columns: NAME (the mean; required), and NAME_se, NAME_ci95_low,
// NAME_ci95_high when present (else a zero standard error, the interval at the mean).
MmseEstimate estimateFromColumns(const CsvTable& t, const std::string& name,
                                 const std::string& mean, const std::string& source) {
  MmseEstimate e;
  e.name = name;
  e.description = "read from " + fileName(source);
  e.mean = t.values(io_internal::requireColumn(t, mean, source));
  auto optional = [&](const std::string& column, const std::vector<double>& fallback) {
    const int c = t.column(column);
    return c < 0 ? fallback : t.values(c);
  };
  e.standardError = optional(mean + "_se", std::vector<double>(e.mean.size(), 0.0));
  e.ciLow = optional(mean + "_ci95_low", e.mean);
  e.ciHigh = optional(mean + "_ci95_high", e.mean);
  for (double se : e.standardError)
    if (se < 0.0) throw InputError(source, "column " + mean + "_se holds a negative value");
  return e;
}

Profile profileFromCsv(const std::string& content, const std::string& source) {
  const CsvTable t = io_internal::parseCsv(content, source);
  const std::string format = t.metaValue("format", kProfileFormat);
  if (format != kProfileFormat)
    throw InputError(source, "format is '" + format + "', not " + kProfileFormat);
  Profile p;
  p.sigma = t.values(io_internal::requireColumn(t, "sigma", source));
  if (t.column("mmse") >= 0) {
    // A minimal table: sigma, mmse (and optionally mmse_se, mmse_ci95_low, mmse_ci95_high).
    p.kind = "table";
    p.estimates.push_back(estimateFromColumns(t, "table", "mmse", source));
  } else {
    // profileToCsv's layout: one <estimator>_mmse column group per estimator, primary first.
    p.kind = t.metaValue("kind", "table");
    const std::string suffix = "_mmse";
    for (const std::string& column : t.columns)
      if (column.size() > suffix.size() && endsWith(column, suffix))
        p.estimates.push_back(estimateFromColumns(
            t, column.substr(0, column.size() - suffix.size()), column, source));
    if (p.estimates.empty())
      throw InputError(source,
                       "missing column 'mmse' (or <estimator>_mmse, as profileToCsv writes)");
    const std::string primary = t.metaValue("primary", p.estimates.front().name);
    if (p.estimates.front().name != primary)
      throw InputError(source, "metadata primary names '" + primary +
                                   "' but the first estimator is '" + p.estimates.front().name +
                                   "'");
  }
  if (!isProfileKind(p.kind))
    throw InputError(source, "metadata kind must be one of " + profileKindList());
  checkLevels(p.sigma, p.primary(), source);
  p.dim = metaCount(t, "dimension", 1, source);
  if (p.dim < 1) throw InputError(source, "metadata dimension must be at least 1");
  p.datasetSize = metaCount(t, "dataset_size", 0, source);
  p.queries = metaCount(t, "queries", 0, source);
  p.sigmaData = metaNumber(t, "sigma_data", 0.0, source);
  if (p.sigmaData < 0.0) throw InputError(source, "metadata sigma_data must be > 0");
  if (t.column("max_weight") >= 0) {
    p.posterior.maxWeight = t.values(t.column("max_weight"));
    p.posterior.weightEntropy =
        t.values(io_internal::requireColumn(t, "weight_entropy_nats", source));
    p.posterior.effectiveSampleSize =
        t.values(io_internal::requireColumn(t, "effective_sample_size", source));
    p.posterior.pruneLogRatio = metaNumber(t, "prune_log_ratio", 0.0, source);
    p.posterior.prunedWeightBound = metaNumber(t, "pruned_weight_bound", 0.0, source);
  }
  p.provenance = {{"read_from", source}};
  p.rates = computeRates(p.sigma, p.primary());
  return p;
}

// A JSON object without "format" but with sigma and mmse arrays: the minimal table.
Profile profileFromJsonTable(const json& root, const std::string& source) {
  const Reader in(source);
  Profile p;
  p.kind = "table";
  const json& sigma = in.member(root, "sigma", "");
  if (!sigma.is_array()) in.fail("sigma", "is not an array");
  p.sigma = in.series(root, "sigma", "", sigma.size());
  MmseEstimate e;
  e.name = "table";
  e.description = "read from " + fileName(source);
  e.mean = in.series(root, "mmse", "", p.sigma.size());
  e.standardError.assign(e.mean.size(), 0.0);
  e.ciLow = e.mean;
  e.ciHigh = e.mean;
  p.estimates.push_back(std::move(e));
  checkLevels(p.sigma, p.primary(), source);
  p.dim = 1;
  if (root.contains("sigma_data")) p.sigmaData = in.number(root, "sigma_data", "");
  p.provenance = {{"read_from", source}};
  p.rates = computeRates(p.sigma, p.primary());
  return p;
}

}  // namespace

Profile readProfile(const std::string& path) {
  const std::string content = io_internal::readTextFile(path);
  if (hasExtension(path, ".csv")) return profileFromCsv(content, path);
  const json root = json::parse(content, nullptr, false);
  if (root.is_discarded())
    throw InputError(path, "not valid JSON (expected " + std::string(kProfileFormat) +
                               " JSON, or a .csv table with sigma and mmse columns)");
  if (root.is_object() && !root.contains("format") && root.contains("sigma") &&
      root.contains("mmse") && root.at("mmse").is_array())
    return profileFromJsonTable(root, path);
  return profileFromJson(root, path);
}

}  // namespace noisescope
