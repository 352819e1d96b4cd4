#pragma once
// The samplers of the probability-flow ODE that a σ grid is raced and exported for, as one
// vocabulary: their names, and what each costs in denoiser evaluations per σ step. The sampling
// code itself is train/evaluation.h; this header owns the names and the budget rule, so the race,
// its files and both faces count a budget the same way.
#include <cstdint>
#include <string>
#include <vector>

namespace noisescope::schedule {

enum class OdeSampler { Heun, Euler, EulerAncestral };

// "heun", "euler", "euler-ancestral".
const char* toString(OdeSampler sampler);
// The names above; InputError(source, …) for another.
OdeSampler odeSamplerFromString(const std::string& name, const std::string& source = "sampler");
const std::vector<OdeSampler>& odeSamplers();  // in the order above

// Denoiser evaluations the sampler spends on `steps` σ steps (σ values above 0): Heun corrects
// every step but the last (to σ = 0), so N steps cost 2N − 1; Euler and Euler ancestral cost N.
int64_t samplerEvaluations(OdeSampler sampler, int64_t steps);
// The most steps whose evaluations fit a budget of `nfe` (at least 1).
int64_t stepsForEvaluations(OdeSampler sampler, int64_t nfe);

}  // namespace noisescope::schedule
