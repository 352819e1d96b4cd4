#include "profile/profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "profile/tail_term.h"
#include "util/student_t.h"

namespace noisescope {

const char* const kProfileKinds[8] = {"empirical", "held-out", "held-out-wiener", "held-out-patch",
                                      "gaussian",  "bound",    "checkpoint",      "table"};

bool isProfileKind(const std::string& kind) {
  for (const char* k : kProfileKinds) {
    if (kind == k) return true;
  }
  return false;
}

std::string profileKindList() {
  std::string out;
  for (const char* k : kProfileKinds) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

std::string profileKindMeaning(const std::string& kind) {
  if (kind == "empirical")
    return "empirical posterior, training queries: the sample's own MMSE, ~0 where it memorises";
  if (kind == "held-out")
    return "empirical posterior, held-out queries: upper bound on the population MMSE";
  if (kind == "held-out-wiener")
    return "the prior's linear (Wiener) denoiser, held-out points: upper bound on the population "
           "MMSE";
  if (kind == "held-out-patch")
    return "the prior's patch-local Wiener filter, held-out points: upper bound on the "
           "population MMSE";
  if (kind == "gaussian")
    return "plug-in Wiener MMSE of the sample covariance: an estimate, biased low, not a bound";
  if (kind == "bound")
    return "population upper bound: the best held-out member per level, chosen on one half of "
           "the held-out points and scored on the other, both ways";
  if (kind == "checkpoint") return "a trained denoiser's x0 error: upper bound on the MMSE";
  if (kind == "table") return "a curve read from a table";
  return "unknown kind '" + kind + "'";
}

Profile Profile::onSameLevels(std::string newKind) const {
  Profile out;
  out.kind = std::move(newKind);
  out.sigma = sigma;
  std::tie(out.dim, out.datasetSize, out.queries, out.sigmaData) =
      std::tie(dim, datasetSize, queries, sigmaData);
  return out;
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

namespace {

// Sample skewness of one level's values (0 for fewer than three or no spread).
double skewness(const double* v, int64_t n) {
  if (n < 3) return 0.0;
  double mean = 0.0;
  for (int64_t i = 0; i < n; ++i) mean += v[i];
  mean /= static_cast<double>(n);
  double m2 = 0.0, m3 = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = v[i] - mean;
    m2 += d * d;
    m3 += d * d * d;
  }
  m2 /= static_cast<double>(n);
  m3 /= static_cast<double>(n);
  return m2 > 0.0 ? m3 / std::pow(m2, 1.5) : 0.0;
}

}  // namespace

MmseEstimate summarizeOverPoints(std::string name, std::string description,
                                 const std::vector<double>& perPoint, int levels, int64_t points) {
  if (perPoint.size() != static_cast<size_t>(levels) * static_cast<size_t>(points) || points < 2)
    throw std::invalid_argument("summarizeOverPoints: values are not levels × points (points ≥ 2)");
  MmseEstimate out =
      summarizeEstimate(std::move(name), std::move(description), perPoint, levels, points);
  const double n = static_cast<double>(points);
  const double t975 = studentTQuantile(0.975, n - 1.0), t95 = studentTQuantile(0.95, n - 1.0);
  char text[320];
  std::snprintf(text, sizeof text,
                "Student t over %lld held-out points: mean +- %.3f se (two-sided 95 %%, lower end "
                "clipped at 0); upper95 = mean + %.3f se (one-sided 95 %%); both upper ends "
                "raised by Hall's skewness correction g(2z^2+1)/(6 sqrt n) se when the points' "
                "skewness g > 0, and by the ",
                static_cast<long long>(points), t975, t95);
  out.interval = text + tailTermDescription();
  for (int l = 0; l < levels; ++l) {
    const double mean = out.mean[l], se = out.standardError[l];
    // Per-point errors are right-skewed (sums of squares), and there the studentised mean's
    // upper tail is short: the plain t upper end covers less than its nominal level (the
    // known-truth test saw 92 % at 95 % with 20 points). The Edgeworth term of the studentised
    // mean (Hall 1992) moves the upper ends up; it is never used to move them down.
    const double* values = perPoint.data() + static_cast<size_t>(l) * points;
    const double g = std::max(0.0, skewness(values, points)) / (6.0 * std::sqrt(n));
    // Neither term sees errors larger than any of the n points, which carry a heavy tail's
    // mean: the tail term (profile/tail_term.h) adds their expected share.
    const double tail = tailTerm(values, points);
    out.ciLow[l] = std::max(0.0, mean - t975 * se);
    out.ciHigh[l] = mean + (t975 + g * (2.0 * kNormal95 * kNormal95 + 1.0)) * se + tail;
    out.upper95.push_back(
        mean + (t95 + g * (2.0 * 1.6448536269514722 * 1.6448536269514722 + 1.0)) * se + tail);
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
