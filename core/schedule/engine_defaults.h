#pragma once
// The engine's own defaults for the noise path, owned here, in the lowest library that uses them:
// the σ range every grid, profile and run spans by default, the EDM weight's σ_data when nothing
// measures it, min-SNR's γ, and the low-noise gate of the rate (THEORY §5, §6). Every struct
// default in schedule/, diagnostic/, train/ and pipeline/ refers to these names, and
// pipeline/defaults renders them as the table the faces read (`noisescope-cli defaults --json`).
//
// A trainer's own published constants (k-diffusion's σ_data 1.0, a tool's σ range) are that
// trainer's, and stay in its table under schedule/trainers/.
namespace noisescope::schedule::defaults {

// The σ grid's ends (EDM's range, THEORY §5).
inline constexpr double kSigmaMin = 0.002;
inline constexpr double kSigmaMax = 80.0;

// σ_data of the EDM weight when no data, profile or value tells it.
inline constexpr double kSigmaDataFallback = 0.5;
// γ of min-SNR-γ (Hang et al.'s published choice).
inline constexpr double kMinSnrGamma = 5.0;

// The low-noise gate g(σ) = σⁿ/(σⁿ + cⁿ) of the rate (THEORY §6): InfoNoise's c, and the published
// choices that gate "auto" picks from, for continuous and for discrete (±1) data.
inline constexpr double kGateC = 0.15;
inline constexpr double kGateCDiscrete = 0.2;
inline constexpr double kGateN = 3.0;

// Gate "auto": c for the kind of data.
constexpr double autoGateC(bool discreteData) {
  return discreteData ? kGateCDiscrete : kGateC;
}

}  // namespace noisescope::schedule::defaults
