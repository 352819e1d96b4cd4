#pragma once
// The one log-spaced grid: n points from lo to hi, equally spaced in log σ, with the end points
// exactly lo and hi (whatever exp(log(·)) rounds to). Every σ grid of levels in the engine is one.
#include <vector>

namespace noisescope {

// n ≥ 1 (n = 1 gives {lo}); lo, hi > 0. Throws InputError("σ grid", …) otherwise.
std::vector<double> logSpacedGrid(double lo, double hi, int n);

// The point a fraction t ∈ [0, 1] of the way from lo to hi in log space.
double logInterpolate(double lo, double hi, double t);

}  // namespace noisescope
