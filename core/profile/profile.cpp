#include "profile/profile.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace noisescope {

const char* const kProfileKinds[6] = {"empirical", "held-out",   "gaussian",
                                      "bound",     "checkpoint", "table"};

bool isProfileKind(const std::string& kind) {
  for (const char* k : kProfileKinds) {
    if (kind == k) return true;
  }
  return false;
}

std::string profileKindMeaning(const std::string& kind) {
  if (kind == "empirical")
    return "empirical posterior, training queries: the sample's own MMSE, ~0 where it memorises";
  if (kind == "held-out")
    return "empirical posterior, held-out queries: upper bound on the population MMSE";
  if (kind == "gaussian")
    return "Gaussian (Wiener) MMSE of the data covariance: upper bound, exact for Gaussian data";
  if (kind == "bound") return "min(held-out, Gaussian): the tighter population upper bound";
  if (kind == "checkpoint") return "a trained denoiser's x0 error: upper bound on the MMSE";
  if (kind == "table") return "a curve read from a table";
  return "unknown kind '" + kind + "'";
}

const MmseEstimate* Profile::estimate(const std::string& name) const {
  for (const auto& e : estimates) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const RateSeries* Profile::rate(const std::string& coordinate) const {
  for (const auto& r : rates) {
    if (r.coordinate == coordinate) return &r;
  }
  return nullptr;
}

MmseEstimate summarizeEstimate(std::string name, std::string description,
                               const std::vector<double>& perQuery, int levels, int64_t queries) {
  if (perQuery.size() != static_cast<size_t>(levels) * static_cast<size_t>(queries) || queries < 1)
    throw std::invalid_argument("summarizeEstimate: values are not levels × queries");
  MmseEstimate out;
  out.name = std::move(name);
  out.description = std::move(description);
  const double m = static_cast<double>(queries);
  for (int l = 0; l < levels; ++l) {
    const double* v = perQuery.data() + static_cast<size_t>(l) * static_cast<size_t>(queries);
    double mean = 0.0;
    for (int64_t q = 0; q < queries; ++q) mean += v[q];
    mean /= m;
    double squares = 0.0;
    for (int64_t q = 0; q < queries; ++q) squares += (v[q] - mean) * (v[q] - mean);
    const double variance = queries > 1 ? squares / (m - 1.0) : 0.0;
    const double se = std::sqrt(variance / m);
    out.mean.push_back(mean);
    out.standardError.push_back(se);
    out.ciLow.push_back(std::max(0.0, mean - kNormal95 * se));
    out.ciHigh.push_back(mean + kNormal95 * se);
  }
  return out;
}

std::vector<double> averageOverQueries(const std::vector<double>& perQuery, int levels,
                                       int64_t queries) {
  std::vector<double> out(static_cast<size_t>(levels), 0.0);
  for (int l = 0; l < levels; ++l) {
    double sum = 0.0;
    for (int64_t q = 0; q < queries; ++q)
      sum += perQuery[static_cast<size_t>(l) * static_cast<size_t>(queries) + q];
    out[static_cast<size_t>(l)] = sum / static_cast<double>(queries);
  }
  return out;
}

std::vector<RateSeries> computeRates(const std::vector<double>& sigma, const MmseEstimate& mmse) {
  struct Kind {
    const char* coordinate;
    const char* formula;
    double (*factor)(double);
  };
  const Kind kinds[] = {
      {"sigma", "dH/dsigma = MMSE/sigma^3", [](double s) { return 1.0 / (s * s * s); }},
      {"log_sigma", "dH/dlog(sigma) = MMSE/sigma^2", [](double s) { return 1.0 / (s * s); }},
      {"lambda", "|dH/dlambda| = MMSE/(2 sigma^2), lambda = -2 log(sigma)",
       [](double s) { return 0.5 / (s * s); }},
  };
  std::vector<RateSeries> out;
  for (const Kind& kind : kinds) {
    RateSeries r;
    r.coordinate = kind.coordinate;
    r.formula = kind.formula;
    for (size_t l = 0; l < sigma.size(); ++l) {
      const double f = kind.factor(sigma[l]);
      r.value.push_back(mmse.mean[l] * f);
      r.standardError.push_back(mmse.standardError[l] * f);
    }
    out.push_back(std::move(r));
  }
  return out;
}

double integrateRateOverLogSigma(const Profile& profile) {
  const auto& s = profile.sigma;
  const auto& mmse = profile.primary().mean;
  double total = 0.0;
  for (size_t l = 1; l < s.size(); ++l) {
    const double left = mmse[l - 1] / (s[l - 1] * s[l - 1]);
    const double right = mmse[l] / (s[l] * s[l]);
    total += 0.5 * (left + right) * (std::log(s[l]) - std::log(s[l - 1]));
  }
  return total;
}

}  // namespace noisescope
