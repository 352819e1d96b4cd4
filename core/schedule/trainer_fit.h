#pragma once
// Fitting a trainer's own sampling families to a target effective allocation φ on a log-σ grid
// (THEORY §5): for each family, the parameters whose φ ∝ p_ℓ·w_x0 is closest to the target in
// KL(target ‖ family), found by a coarse grid search and Nelder–Mead from its best point.
#include <string>
#include <utility>
#include <vector>

#include "schedule/schedule.h"
#include "schedule/trainer_families.h"

namespace noisescope::schedule {

struct TrainerFamilyFit {
  std::string family;
  std::vector<std::pair<std::string, double>> parameters;  // the tool's names, fitted values
  // On the grid's bin probabilities, a family's empty bins counted at kMassFloor (so a target
  // the family cannot reach shows as a large, finite mismatch).
  double kl = 0.0;         // KL(φ_target ‖ φ_family), nats
  double klReverse = 0.0;  // KL(φ_family ‖ φ_target)
  double tv = 0.0;         // ½ Σ |φ_target − φ_family|
  std::string snippet;
  std::string note;
  std::vector<double> masses;  // φ_family per bin (sums to 1)
};
inline constexpr double kMassFloor = 1e-12;

// φ of the family with parameters p, per bin of `grid`, normalised on the grid (all zero when the
// family puts no weighted mass on it). Each bin integrates p_ℓ·w_x0 with 8 midpoints.
std::vector<double> familyAllocationMasses(const TrainerTool& tool, const TrainerFamily& family,
                                           const std::vector<double>& p, const LogSigmaGrid& grid);

// The tool as `family` is compared on: with the table of the family's atoms (at its initial knobs)
// where it has them.
TrainerTool toolFor(const TrainerTool& tool, const TrainerFamily& family);

// For a tool that quantises its draw to a table (TrainerTool::tableEdges), the grid's bins merged
// so that each group holds at least one table value: a bin between two table values is one the
// tool cannot put φ in however its knobs are set, so it is compared together with the next bin
// that holds one (else KL would call a fine target unreachable). Bins below the smallest and above
// the largest table value stay alone: those are truly out of reach. Group index per bin; for a
// continuous tool every bin is its own group. The fit's KL and TV are measured on these groups.
// A chart's groups gather more: valuesPerGroup table values, or at least one over binsPerGroup
// bins (bins that hold 3 and 4 of a table's values would draw a smooth φ as a saw; where the
// table is sparser than the bins, each value keeps its own group).
std::vector<int> comparisonGroups(const TrainerTool& tool, const LogSigmaGrid& grid,
                                  int valuesPerGroup = 1, int binsPerGroup = 1);

// The mismatch metrics of two probability vectors (the second floored at kMassFloor for KL).
double flooredKl(const std::vector<double>& p, const std::vector<double>& q);

TrainerFamilyFit fitTrainerFamily(const TrainerTool& tool, const TrainerFamily& family,
                                  const LogSigmaGrid& grid, const std::vector<double>& target);
// The same measures for given knobs p (in the family's parameter order; a list-valued knob may
// have any length), e.g. a user's current settings.
TrainerFamilyFit evaluateTrainerFamily(const TrainerTool& tool, const TrainerFamily& family,
                                       const std::vector<double>& p, const LogSigmaGrid& grid,
                                       const std::vector<double>& target);
// Every family of the tool, best (smallest kl) first. `target` is φ per bin of `grid`, sum 1.
std::vector<TrainerFamilyFit> fitTrainerTool(const TrainerTool& tool, const LogSigmaGrid& grid,
                                             const std::vector<double>& target);

}  // namespace noisescope::schedule
