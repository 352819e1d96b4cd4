#include "diagnostic/onset_bound.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace noisescope {

namespace {

double normalTail(double u) {
  return 0.5 * std::erfc(u / std::sqrt(2.0));
}  // Φ(−u)

// g(A) = 2AΦ(−√A/(2σ)) = 8σ²u²Φ(−u) with u = √A/(2σ) rises up to u* = 1.1906 and falls after:
// its largest value over A ≥ a is g(a) past u*, else the peak 8σ²·0.16572.
constexpr double kPeakU = 1.1906012483427704, kPeakValue = 0.1657166147788514;

double boundTerm(double a, double sigma) {
  return 2.0 * a * normalTail(std::sqrt(a) / (2.0 * sigma));
}

double largestBoundTermBeyond(double a, double sigma) {
  const double u = std::sqrt(a) / (2.0 * sigma);
  return u >= kPeakU ? boundTerm(a, sigma) : 8.0 * sigma * sigma * kPeakValue;
}

}  // namespace

OnsetTerms onsetTerms(const std::vector<double>& nearest, int64_t kept,
                      const std::vector<double>& beyond, const std::vector<double>& sigma) {
  const int64_t queries = static_cast<int64_t>(beyond.size());
  if (kept < 1 || nearest.size() != static_cast<size_t>(queries * kept))
    throw std::invalid_argument("onsetTerms: nearest is not queries × kept");
  OnsetTerms out;
  out.bound.assign(sigma.size() * static_cast<size_t>(queries), 0.0);
  out.events.assign(out.bound.size(), 0.0);
  for (size_t l = 0; l < sigma.size(); ++l) {
    const double s = sigma[l];
    for (int64_t q = 0; q < queries; ++q) {
      const double* a = nearest.data() + q * kept;
      double u = 0.0, e = 0.0, farthest = 0.0;
      for (int64_t k = 0; k < kept && std::isfinite(a[k]); ++k) {
        u += boundTerm(a[k], s);
        e += 2.0 * normalTail(std::sqrt(a[k]) / (2.0 * s));
        farthest = std::max(farthest, a[k]);
      }
      const double rest = beyond[static_cast<size_t>(q)];
      if (rest > 0.0) {  // every point not kept lies at least as far as the farthest kept
        u += rest * largestBoundTermBeyond(farthest, s);
        e += rest * 2.0 * normalTail(std::sqrt(farthest) / (2.0 * s));
      }
      out.bound[l * queries + q] = u;
      out.events[l * queries + q] = e;
    }
  }
  return out;
}

std::vector<int> raiseOnsetUpperEnds(MmseEstimate& estimate, const OnsetTerms& terms, int levels,
                                     int64_t queries) {
  if (terms.bound.size() != static_cast<size_t>(levels) * static_cast<size_t>(queries) ||
      estimate.ciHigh.size() != static_cast<size_t>(levels))
    throw std::invalid_argument("raiseOnsetUpperEnds: terms are not levels × queries");
  std::vector<int> raised;
  const double m = static_cast<double>(queries);
  for (int l = 0; l < levels; ++l) {
    const double* u = terms.bound.data() + static_cast<size_t>(l) * queries;
    const double* e = terms.events.data() + static_cast<size_t>(l) * queries;
    double events = 0.0, mean = 0.0;
    for (int64_t q = 0; q < queries; ++q) {
      events += e[q];
      mean += u[q];
    }
    if (events >= kOnsetEvents) continue;
    mean /= m;
    double squares = 0.0;
    for (int64_t q = 0; q < queries; ++q) squares += (u[q] - mean) * (u[q] - mean);
    const double se = queries > 1 ? std::sqrt(squares / (m - 1.0) / m) : 0.0;
    double& high = estimate.ciHigh[static_cast<size_t>(l)];
    high = std::max(high, mean + kNormal95 * se);
    raised.push_back(l);
  }
  return raised;
}

std::string onsetIntervalDescription() {
  char text[320];
  std::snprintf(text, sizeof text,
                "where the queries expect fewer than %g noise draws landing near another point "
                "(the onset of the error), the upper end is at least the analytic bound's: mean "
                "over queries of sum_i 2 A_i Phi(-sqrt(A_i)/(2 sigma)) + 1.96 se",
                kOnsetEvents);
  return text;
}

}  // namespace noisescope
