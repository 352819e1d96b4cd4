#pragma once
// The coordinates a noise level can be written in (THEORY §1) and the Jacobians that move a density
// between them. The canonical coordinate is ℓ = log σ; everything else converts through it.
#include <string>

namespace noisescope::schedule {

enum class Coordinate {
  Sigma,     // σ
  LogSigma,  // ℓ = log σ (canonical)
  Lambda,    // λ = log SNR = −2 log σ
  VpTime,    // continuous DDPM time t: σ(t) = √(exp(½β_d t² + β_min t) − 1)
  FlowTime,  // rectified-flow time t: σ = t / (1 − t)
};

// "sigma", "log-sigma", "lambda", "vp-t", "flow-t".
const char* toString(Coordinate coordinate);
// Accepts the names above (and "logsigma", "log_sigma", "ell"); throws InputError(source, ...)
// else.
Coordinate coordinateFromString(const std::string& name, const std::string& source = "coordinate");
// Axis label for charts and files, e.g. "log σ".
const char* axisLabel(Coordinate coordinate);

// The VP path's β schedule; only the VpTime coordinate uses it.
struct VpParameters {
  double betaD = 19.9;
  double betaMin = 0.1;
};

// ℓ = log σ of a value given in `coordinate`.
double toLogSigma(double value, Coordinate coordinate, const VpParameters& vp = {});
// The value in `coordinate` of the level ℓ = log σ.
double fromLogSigma(double logSigma, Coordinate coordinate, const VpParameters& vp = {});
// |dℓ/du| at the level ℓ, for u = `coordinate`. A density moves as p_u(u) = p_ℓ(ℓ(u))·|dℓ/du|.
double logSigmaPerUnit(double logSigma, Coordinate coordinate, const VpParameters& vp = {});
// p_u from p_ℓ at the same level.
inline double densityIn(Coordinate coordinate, double densityLogSigma, double logSigma,
                        const VpParameters& vp = {}) {
  return densityLogSigma * logSigmaPerUnit(logSigma, coordinate, vp);
}
}  // namespace noisescope::schedule
