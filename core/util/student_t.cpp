#include "util/student_t.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace noisescope {

namespace {

// Continued fraction of the incomplete beta function (modified Lentz), valid for
// x < (a + 1)/(a + b + 2); the caller uses the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) otherwise.
double betaContinuedFraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::abs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    double step = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + step * d;
    c = 1.0 + step / c;
    if (std::abs(d) < tiny) d = tiny;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    step = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + step * d;
    c = 1.0 + step / c;
    if (std::abs(d) < tiny) d = tiny;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < 1e-15) break;
  }
  return h;
}

double regularisedIncompleteBeta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double logFront =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(logFront) * betaContinuedFraction(a, b, x) / a;
  return 1.0 - std::exp(logFront) * betaContinuedFraction(b, a, 1.0 - x) / b;
}

}  // namespace

double studentTCdf(double t, double df) {
  if (!(df > 0.0)) throw std::invalid_argument("studentTCdf: degrees of freedom must be > 0");
  if (std::isinf(df)) return 0.5 * std::erfc(-t / std::sqrt(2.0));
  const double x = df / (df + t * t);
  const double tail = 0.5 * regularisedIncompleteBeta(0.5 * df, 0.5, x);  // P(T > |t|)
  return t >= 0.0 ? 1.0 - tail : tail;
}

double studentTQuantile(double p, double df) {
  if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
    throw std::invalid_argument("studentTQuantile: needs 0 < p < 1 and df > 0");
  // Bracket the root: the t quantile grows fast only for df < 1; widen until it is inside.
  double lo = -1.0, hi = 1.0;
  while (studentTCdf(lo, df) > p) lo *= 2.0;
  while (studentTCdf(hi, df) < p) hi *= 2.0;
  for (int i = 0; i < 200 && hi - lo > 1e-10 * std::max(1.0, std::abs(hi)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (studentTCdf(mid, df) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace noisescope
