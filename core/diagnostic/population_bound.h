#pragma once
// The population bound of THEORY §10. Every member is a denoiser fitted on the prior alone and
// scored on held-out points, so its mean error estimates, without bias, a population risk that is
// ≥ the population MMSE. Which member is tightest at a level is chosen on a *selection* half of
// the held-out points and its value and interval are reported on the disjoint *evaluation* half:
// picking the smallest of several noisy means on the same points would be biased low.
#include <cstdint>
#include <string>
#include <vector>

#include "profile/profile.h"

namespace noisescope {

// The fewest held-out points the bound can use: two to select a member per level, two to score it.
inline constexpr int64_t kBoundMinHeldOut = 4;

// One member's error on held-out points: values[level * columns + c] is the risk at that level of
// the point in column c, already averaged over the point's noise (or in closed form over it).
// position[c] is that point's position in the held-out order (diagnostic/queries.h): even
// positions belong to the selection half, odd ones to the evaluation half.
struct PointRisks {
  std::string member;  // "held-out", "wiener", "patch-k5", ...
  int levels = 0;
  std::vector<int64_t> position;
  std::vector<double> values;
  int64_t columns() const { return static_cast<int64_t>(position.size()); }
};

enum class HeldOutHalf { All, Selection, Evaluation };

// The member's estimate over the points of one half (or all of them): summarizeOverPoints, so a
// Student-t interval and the one-sided upper95 over the points used. Throws InputError when the
// half has fewer than two points (the held-out set is too small to split).
MmseEstimate summarizeHalf(const PointRisks& risks, HeldOutHalf half, const std::string& name,
                           const std::string& description);

// Kind "bound" on `grid` (a profile of the same σ levels whose sizes and σ_data it copies): per
// level the member with the smallest selection-half mean, its evaluation-half estimate as the
// value, interval and upper95. The provenance records per level the member that won ("source"),
// every member's selection mean ("selection_means") and the split sizes.
Profile selectPopulationBound(const std::vector<PointRisks>& members, const Profile& grid,
                              const std::string& kind = "bound");

}  // namespace noisescope
