#pragma once
// The engine's one seeded random source, for every draw that must come out the same on every
// platform: synthetic datasets, query rows, held-out splits (util/seeded_split.h). Uniform and
// normal variates are computed here from std::mt19937_64's raw output (whose sequence the C++
// standard fixes), not with the standard library's distributions (whose algorithms differ between
// implementations), so the same seed gives the same draws everywhere.
#include <cmath>
#include <cstdint>
#include <random>

namespace noisescope {

class RandomSource {
 public:
  explicit RandomSource(uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n), n > 0, without modulo bias (rejection of the incomplete range).
  uint64_t below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = engine_();
    while (x >= limit);
    return x % n;
  }

  // Standard normal by the Box–Muller transform (the second variate is kept for the next call).
  double normal() {
    if (haveSpare_) {
      haveSpare_ = false;
      return spare_;
    }
    double u1;
    do u1 = uniform();
    while (u1 <= 0.0);
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * M_PI * u2;
    spare_ = radius * std::sin(angle);
    haveSpare_ = true;
    return radius * std::cos(angle);
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool haveSpare_ = false;
};

}  // namespace noisescope
