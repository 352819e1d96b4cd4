#include "schedule/families.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "schedule/engine_defaults.h"
#include "util/error.h"
#include "util/math_constants.h"

namespace noisescope::schedule {

namespace {

double normalCdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}
double normalPdf(double z) {
  return std::exp(-0.5 * z * z) / std::sqrt(2.0 * kPi);
}

double get(const ParameterValues& p, const char* name) {
  return p.at(name);
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}
}  // namespace

const std::vector<FamilyDescriptor>& families() {
  static const std::vector<FamilyDescriptor> list = {
      {"edm",
       "EDM log-normal",
       "ℓ ~ N(P_mean, P_std²)",
       {{"p_mean", "P_mean", -1.2, -10.0, 10.0, "mean of log σ"},
        {"p_std", "P_std", 1.2, 1e-3, 10.0, "standard deviation of log σ"}}},
      {"log-uniform",
       "Log-uniform",
       "ℓ ~ U(log σ_low, log σ_high)",
       {{"sigma_low", "σ_low", defaults::kSigmaMin, 1e-8, 1e8, "lower end"},
        {"sigma_high", "σ_high", defaults::kSigmaMax, 1e-8, 1e8, "upper end"}}},
      {"cosine",
       "Cosine (uniform t)",
       "σ = shift·tan(πt/2), t ~ U(0, 1): p_ℓ = 2σ'/(π(1+σ'²)), σ' = σ/shift",
       {{"shift", "shift", 1.0, 1e-6, 1e6, "multiplies σ"}}},
      {"vp",
       "VP (continuous DDPM)",
       "σ(t) = √(exp(½β_d t² + β_min t) − 1), t ~ U(ε_t, 1)",
       {{"beta_d", "β_d", 19.9, 1e-3, 1e3, ""},
        {"beta_min", "β_min", 0.1, 0.0, 1e2, ""},
        {"eps_t", "ε_t", 1e-5, 0.0, 0.5, "smallest time"}}},
      {"logit-normal",
       "SD3 logit-normal",
       "flow t = sigmoid(u), u ~ N(m, s²), σ scaled by shift: ℓ ~ N(m + log shift, s²)",
       {{"m", "m", 0.0, -10.0, 10.0, "location"},
        {"s", "s", 1.0, 1e-3, 10.0, "scale"},
        {"shift", "shift", 1.0, 1e-6, 1e6, "resolution shift a"}}},
      {"laplace-lambda",
       "Laplace in λ",
       "p(λ) = exp(−|λ − μ|/b)/(2b), λ = −2 log σ",
       {{"mu", "μ", 0.0, -40.0, 40.0, "location in λ"}, {"b", "b", 0.5, 1e-3, 40.0, "scale in λ"}}},
  };
  return list;
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> list = {
      {"edm", "edm", "EDM (−1.2, 1.2)", {{"p_mean", -1.2}, {"p_std", 1.2}}},
      {"edm2-img512", "edm", "EDM2 img512 (−0.4, 1.0)", {{"p_mean", -0.4}, {"p_std", 1.0}}},
      {"edm2-img64", "edm", "EDM2 img64 (−0.8, 1.6)", {{"p_mean", -0.8}, {"p_std", 1.6}}},
      {"log-uniform", "log-uniform", "Log-uniform", {}},
      {"cosine", "cosine", "Cosine", {{"shift", 1.0}}},
      {"vp", "vp", "VP (β_d 19.9, β_min 0.1)", {}},
      {"sd3",
       "logit-normal",
       "SD3 logit-normal (0, 1, shift 3)",
       {{"m", 0.0}, {"s", 1.0}, {"shift", 3.0}}},
      {"logit-normal", "logit-normal", "Logit-normal (0, 1)", {}},
      {"laplace", "laplace-lambda", "Laplace in λ (0, 0.5)", {{"mu", 0.0}, {"b", 0.5}}},
  };
  return list;
}

const FamilyDescriptor& family(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& f : families()) {
    if (f.name == name) return f;
    names.push_back(f.name);
  }
  throw InputError("family",
                   "unknown schedule family '" + name + "' (known: " + joinNames(names) + ")");
}

const Preset& preset(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& p : presets()) {
    if (p.name == name) return p;
    names.push_back(p.name);
  }
  throw InputError("preset",
                   "unknown schedule preset '" + name + "' (known: " + joinNames(names) + ")");
}

ParameterValues completeParameters(const FamilyDescriptor& descriptor, const ParameterValues& given,
                                   const std::string& source) {
  ParameterValues out;
  for (const auto& [name, value] : given) {
    const auto it =
        std::find_if(descriptor.parameters.begin(), descriptor.parameters.end(),
                     [&key = name](const ParameterDescriptor& p) { return p.name == key; });
    if (it == descriptor.parameters.end())
      throw InputError(source, "family '" + descriptor.name + "' has no parameter '" + name + "'");
    if (!std::isfinite(value) || value < it->minimum || value > it->maximum) {
      char buffer[160];
      std::snprintf(buffer, sizeof buffer, "parameter %s = %g is outside [%g, %g]", name.c_str(),
                    value, it->minimum, it->maximum);
      throw InputError(source, buffer);
    }
    out[name] = value;
  }
  for (const auto& p : descriptor.parameters)
    if (!out.count(p.name)) out[p.name] = p.defaultValue;
  if (descriptor.name == "log-uniform" && !(out["sigma_high"] > out["sigma_low"]))
    throw InputError(source, "log-uniform needs sigma_high > sigma_low");
  return out;
}

double familyCdfLogSigma(const std::string& name, const ParameterValues& p, double ell) {
  if (name == "edm") return normalCdf((ell - get(p, "p_mean")) / get(p, "p_std"));
  if (name == "log-uniform") {
    const double a = std::log(get(p, "sigma_low")), b = std::log(get(p, "sigma_high"));
    return std::clamp((ell - a) / (b - a), 0.0, 1.0);
  }
  if (name == "cosine") return 2.0 / kPi * std::atan(std::exp(ell) / get(p, "shift"));
  if (name == "vp") {
    VpParameters vp{get(p, "beta_d"), get(p, "beta_min")};
    const double eps = get(p, "eps_t");
    const double t = fromLogSigma(ell, Coordinate::VpTime, vp);
    return std::clamp((t - eps) / (1.0 - eps), 0.0, 1.0);
  }
  if (name == "logit-normal")
    return normalCdf((ell - get(p, "m") - std::log(get(p, "shift"))) / get(p, "s"));
  if (name == "laplace-lambda") {
    // P(ℓ' ≤ ℓ) = P(λ' ≥ −2ℓ).
    const double z = (-2.0 * ell - get(p, "mu")) / get(p, "b");
    return z < 0 ? 1.0 - 0.5 * std::exp(z) : 0.5 * std::exp(-z);
  }
  family(name);  // throws the helpful message
  return 0.0;
}

double familySurvivalLogSigma(const std::string& name, const ParameterValues& p, double ell) {
  if (name == "edm") return normalCdf(-(ell - get(p, "p_mean")) / get(p, "p_std"));
  if (name == "logit-normal")
    return normalCdf(-(ell - get(p, "m") - std::log(get(p, "shift"))) / get(p, "s"));
  if (name == "laplace-lambda") {
    const double z = (-2.0 * ell - get(p, "mu")) / get(p, "b");
    return z < 0 ? 0.5 * std::exp(z) : 1.0 - 0.5 * std::exp(-z);
  }
  if (name == "cosine") return 2.0 / kPi * std::atan(get(p, "shift") * std::exp(-ell));
  return 1.0 - familyCdfLogSigma(name, p, ell);
}

double familyDensityLogSigma(const std::string& name, const ParameterValues& p, double ell) {
  if (name == "edm") {
    const double s = get(p, "p_std");
    return normalPdf((ell - get(p, "p_mean")) / s) / s;
  }
  if (name == "log-uniform") {
    const double a = std::log(get(p, "sigma_low")), b = std::log(get(p, "sigma_high"));
    return ell >= a && ell <= b ? 1.0 / (b - a) : 0.0;
  }
  if (name == "cosine") {
    const double x = std::exp(ell) / get(p, "shift");
    return 2.0 * x / (kPi * (1.0 + x * x));
  }
  if (name == "vp") {
    VpParameters vp{get(p, "beta_d"), get(p, "beta_min")};
    const double eps = get(p, "eps_t");
    const double t = fromLogSigma(ell, Coordinate::VpTime, vp);
    if (t < eps || t > 1.0) return 0.0;
    return 1.0 / ((1.0 - eps) * logSigmaPerUnit(ell, Coordinate::VpTime, vp));
  }
  if (name == "logit-normal") {
    const double s = get(p, "s");
    return normalPdf((ell - get(p, "m") - std::log(get(p, "shift"))) / s) / s;
  }
  if (name == "laplace-lambda") {
    const double b = get(p, "b");
    const double lambda = -2.0 * ell;
    return 2.0 * std::exp(-std::abs(lambda - get(p, "mu")) / b) / (2.0 * b);
  }
  family(name);
  return 0.0;
}

Schedule makeFamilySchedule(const std::string& name, const ParameterValues& given,
                            const LogSigmaGrid& grid, const LossWeight& lossWeight) {
  const FamilyDescriptor& descriptor = family(name);
  const ParameterValues p = completeParameters(descriptor, given, name);
  grid.validate("grid");
  std::vector<double> cdf(grid.edges.size()), survival(grid.edges.size());
  for (std::size_t i = 0; i < cdf.size(); ++i) {
    cdf[i] = familyCdfLogSigma(name, p, grid.edges[i]);
    survival[i] = familySurvivalLogSigma(name, p, grid.edges[i]);
  }
  // Differences of the CDF lose the upper tail to cancellation near 1; use the survival function
  // there, so far-tail bins keep their tiny but positive mass.
  std::vector<double> masses(grid.bins());
  for (int b = 0; b < grid.bins(); ++b)
    masses[b] = std::max(0.0, cdf[b] < 0.5 ? cdf[b + 1] - cdf[b] : survival[b] - survival[b + 1]);
  const double inside = 1.0 - cdf.front() - survival.back();
  if (!(inside > 1e-300))
    throw InputError(name, "the family puts no probability inside [σ_min, σ_max]");
  Schedule s = Schedule::fromBinMasses(grid, std::move(masses));
  s.info.kind = name;
  s.info.label = descriptor.label;
  for (const auto& param : descriptor.parameters) s.info.setParameter(param.name, p.at(param.name));
  s.info.truncatedMass = std::clamp(1.0 - inside, 0.0, 1.0);
  s.info.setNote("formula", descriptor.formula);
  s.lossWeight = lossWeight;
  return s;
}

LossWeight presetLossWeight(const std::string& name) {
  const Preset& p = preset(name);
  LossWeight w;
  if (p.family == "edm")
    w.kind = LossWeight::Kind::Edm;
  else if (p.family == "vp" || p.family == "cosine")
    w.kind = LossWeight::Kind::Epsilon;
  else if (p.family == "logit-normal")
    w.kind = LossWeight::Kind::FlowVelocity;
  else
    w.kind = LossWeight::Kind::Uniform;
  return w;
}

Schedule makePresetSchedule(const std::string& name, const LogSigmaGrid& grid,
                            const ParameterValues& overrides) {
  const Preset& p = preset(name);
  ParameterValues values = p.parameters;
  for (const auto& [key, value] : overrides) values[key] = value;
  Schedule s = makeFamilySchedule(p.family, values, grid, presetLossWeight(name));
  s.info.label = p.label;
  s.info.setNote("preset", p.name);
  return s;
}

Schedule makeTableSchedule(const std::vector<double>& sigma, const std::vector<double>& density,
                           Coordinate coordinate, const LogSigmaGrid& grid,
                           const std::string& source) {
  if (sigma.size() != density.size()) throw InputError(source, "σ and density differ in length");
  if (sigma.size() < 2) throw InputError(source, "a table needs at least two rows");
  std::vector<double> ell(sigma.size()), pl(sigma.size());
  for (std::size_t i = 0; i < sigma.size(); ++i) {
    if (!(sigma[i] > 0.0) || !std::isfinite(sigma[i]))
      throw InputError(source, "σ must be finite and > 0 (row " + std::to_string(i + 1) + ")");
    if (!(density[i] >= 0.0) || !std::isfinite(density[i]))
      throw InputError(source,
                       "density must be finite and ≥ 0 (row " + std::to_string(i + 1) + ")");
    ell[i] = std::log(sigma[i]);
    if (i > 0 && !(ell[i] > ell[i - 1]))
      throw InputError(source, "σ must be strictly increasing (row " + std::to_string(i + 1) + ")");
    pl[i] = density[i] / logSigmaPerUnit(ell[i], coordinate);
  }
  // Exact integral of the piecewise-linear p_ℓ over [a, b].
  auto integral = [&](double a, double b) {
    double total = 0.0;
    for (std::size_t i = 0; i + 1 < ell.size(); ++i) {
      const double lo = std::max(a, ell[i]), hi = std::min(b, ell[i + 1]);
      if (!(hi > lo)) continue;
      const double slope = (pl[i + 1] - pl[i]) / (ell[i + 1] - ell[i]);
      const double vlo = pl[i] + slope * (lo - ell[i]), vhi = pl[i] + slope * (hi - ell[i]);
      total += 0.5 * (vlo + vhi) * (hi - lo);
    }
    return total;
  };
  grid.validate("grid");
  const double all = integral(ell.front(), ell.back());
  if (!(all > 0.0)) throw InputError(source, "the table's density integrates to zero");
  std::vector<double> masses(grid.bins());
  double inside = 0.0;
  for (int b = 0; b < grid.bins(); ++b)
    inside += masses[b] = integral(grid.edges[b], grid.edges[b + 1]);
  if (!(inside > 0.0)) throw InputError(source, "the table has no mass inside [σ_min, σ_max]");
  Schedule s = Schedule::fromBinMasses(grid, std::move(masses));
  s.info.kind = "table";
  s.info.label = "table";
  s.info.truncatedMass = std::clamp(1.0 - inside / all, 0.0, 1.0);
  s.info.setNote("source", source);
  s.info.setNote("table-coordinate", toString(coordinate));
  return s;
}

}  // namespace noisescope::schedule
