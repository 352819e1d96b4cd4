#pragma once
// Student's t distribution, for intervals over a few dozen held-out points or a handful of seeds,
// where the normal quantile 1.96 would be too narrow (at 5 degrees of freedom the 97.5 % point
// is 2.57). Pure functions, no dependencies.

namespace noisescope {

// P(T ≤ t) for T ~ t(df), df > 0 (not necessarily whole). Through the regularised incomplete
// beta function, accurate to ~1e-12.
double studentTCdf(double t, double df);

// The t with studentTCdf(t, df) = p, for 0 < p < 1 and df > 0 (bisection on the CDF, to 1e-10).
// df = +inf gives the normal quantile. Throws std::invalid_argument outside that range.
double studentTQuantile(double p, double df);

}  // namespace noisescope
