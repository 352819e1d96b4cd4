#include "schedule/ode_sampler.h"

#include <algorithm>

#include "util/error.h"

namespace noisescope::schedule {

const char* toString(OdeSampler sampler) {
  switch (sampler) {
    case OdeSampler::Heun:
      return "heun";
    case OdeSampler::Euler:
      return "euler";
    case OdeSampler::EulerAncestral:
      return "euler-ancestral";
  }
  return "heun";
}

const std::vector<OdeSampler>& odeSamplers() {
  static const std::vector<OdeSampler> all{OdeSampler::Heun, OdeSampler::Euler,
                                           OdeSampler::EulerAncestral};
  return all;
}

OdeSampler odeSamplerFromString(const std::string& name, const std::string& source) {
  for (OdeSampler s : odeSamplers())
    if (name == toString(s)) return s;
  throw InputError(source, "unknown sampler '" + name + "' (heun, euler, euler-ancestral)");
}

int64_t samplerEvaluations(OdeSampler sampler, int64_t steps) {
  return sampler == OdeSampler::Heun ? 2 * steps - 1 : steps;
}

int64_t stepsForEvaluations(OdeSampler sampler, int64_t nfe) {
  const int64_t steps = sampler == OdeSampler::Heun ? (nfe + 1) / 2 : nfe;
  return std::max<int64_t>(1, steps);
}

}  // namespace noisescope::schedule
