#pragma once
// The fixed schedule families of THEORY §5, their parameters and named presets. Every family is
// defined by its exact CDF over ℓ = log σ on the whole line; a schedule on a grid gets each bin's
// exact probability, is truncated to [σ_min, σ_max] and renormalised, and records the lost mass.
//
// The descriptors let a panel build its editors generically: for each family, the parameter list
// with name, display label, default and range.
#include <map>
#include <string>
#include <vector>

#include "schedule/schedule.h"

namespace noisescope::schedule {

struct ParameterDescriptor {
  std::string name;   // key used in files and on the command line
  std::string label;  // display text
  double defaultValue = 0.0;
  double minimum = 0.0;
  double maximum = 0.0;
  std::string help;
};

struct FamilyDescriptor {
  std::string name;   // "edm", "log-uniform", "cosine", "vp", "logit-normal", "laplace-lambda"
  std::string label;  // display name
  std::string formula;
  std::vector<ParameterDescriptor> parameters;
};

struct Preset {
  std::string name;  // "edm", "edm2-img512", ...
  std::string family;
  std::string label;
  std::map<std::string, double> parameters;
};

using ParameterValues = std::map<std::string, double>;

const std::vector<FamilyDescriptor>& families();
const std::vector<Preset>& presets();
// Throws InputError naming the unknown family / preset and listing the known ones.
const FamilyDescriptor& family(const std::string& name);
const Preset& preset(const std::string& name);

// Defaults filled in, unknown names and out-of-range values rejected with InputError(source, ...).
ParameterValues completeParameters(const FamilyDescriptor& descriptor, const ParameterValues& given,
                                   const std::string& source = "parameters");

// The untruncated family's CDF over ℓ (exact closed forms), and its density per unit ℓ.
double familyCdfLogSigma(const std::string& family, const ParameterValues& parameters,
                         double logSigma);
// 1 − CDF, computed without cancellation in the upper tail.
double familySurvivalLogSigma(const std::string& family, const ParameterValues& parameters,
                              double logSigma);
double familyDensityLogSigma(const std::string& family, const ParameterValues& parameters,
                             double logSigma);

// The family discretised on `grid`, truncated to the grid's range (info.truncatedMass says how much
// fell outside), with info.kind/label/parameters filled and the given loss weight attached.
Schedule makeFamilySchedule(const std::string& family, const ParameterValues& parameters,
                            const LogSigmaGrid& grid, const LossWeight& lossWeight = {});
// A preset; `overrides` replace single parameters. Presets carry their customary loss weight
// (EDM families: EDM weight; VP, cosine: ε-MSE; SD3 logit-normal: v-MSE; others uniform).
Schedule makePresetSchedule(const std::string& preset, const LogSigmaGrid& grid,
                            const ParameterValues& overrides = {});
LossWeight presetLossWeight(const std::string& preset);

// A table of (σ, density) points with the density in `coordinate`, e.g. read from a CSV or JSON
// file: the density is turned into p_ℓ with the Jacobian, interpolated linearly in ℓ between the
// points (zero outside them), integrated per bin of `grid` and renormalised; the mass of the table
// outside the grid is reported in info.truncatedMass.
Schedule makeTableSchedule(const std::vector<double>& sigma, const std::vector<double>& density,
                           Coordinate coordinate, const LogSigmaGrid& grid,
                           const std::string& source = "table");

}  // namespace noisescope::schedule
