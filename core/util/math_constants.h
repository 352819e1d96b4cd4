#pragma once
// Constants C++17's standard library lacks (std::numbers is C++20).

namespace noisescope {

inline constexpr double kPi = 3.14159265358979323846;

}  // namespace noisescope
