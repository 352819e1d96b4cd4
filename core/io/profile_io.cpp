#include "io/profile_io.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope {

namespace {

using nlohmann::json;

constexpr std::uintmax_t kMaxProfileBytes = std::uintmax_t{256} << 20;

std::vector<double> scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out(v);
  for (double& x : out) x *= factor;
  return out;
}

json estimateToJson(const MmseEstimate& e, int64_t dim) {
  const double perDim = 1.0 / static_cast<double>(dim);
  return {
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
                 {"interval", "normal approximation, mean +- 1.96 standard errors"},
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
  if (p.kind != "empirical" && p.kind != "checkpoint")
    in.fail("kind", "must be 'empirical' or 'checkpoint', not '" + p.kind + "'");
  p.dim = in.count(root, "dimension", "");
  if (p.dim < 1) in.fail("dimension", "must be at least 1");
  p.datasetSize = in.count(root, "dataset_size", "");
  p.queries = in.count(root, "queries", "");
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

Profile readProfile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path, "cannot open the profile file (missing or unreadable)");
  file.seekg(0, std::ios::end);
  const std::streamoff size = file.tellg();
  if (size < 0) throw InputError(path, "cannot read the profile file");
  if (static_cast<std::uintmax_t>(size) > kMaxProfileBytes)
    throw InputError(path, "too large for a profile (" + std::to_string(size) + " bytes)");
  file.seekg(0, std::ios::beg);
  std::string bytes(static_cast<size_t>(size), '\0');
  if (!file.read(bytes.data(), size)) throw InputError(path, "cannot read the profile file");
  json root;
  try {
    root = json::parse(bytes);
  } catch (const json::parse_error& e) {
    throw InputError(path, std::string("not valid JSON: ") + e.what());
  }
  return profileFromJson(root, path);
}

std::string profileToCsv(const Profile& profile) {
  std::ostringstream out;
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

}  // namespace noisescope
