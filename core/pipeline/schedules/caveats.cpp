#include "pipeline/schedules/caveats.h"

#include <algorithm>
#include <cstdio>

#include "profile/profile.h"

namespace noisescope::pipeline {

double memorisationSigma(const Profile& profile) {
  double sigma = 0.0;
  const int levels =
      std::min(profile.levels(), static_cast<int>(profile.posterior.maxWeight.size()));
  for (int l = 0; l < levels; ++l)
    if (profile.posterior.maxWeight[l] >= 0.5) sigma = profile.sigma[l];
  return sigma;
}

std::vector<std::string> entropicScheduleCaveats(const Profile& profile) {
  if (profile.kind == "gaussian")
    return {
        "built from the plug-in Gaussian curve: an estimate of the linear MMSE from the "
        "sample covariance, biased low and far off when the dataset has fewer samples than "
        "about twice its dimension; it is not a bound. Use the population bound (diagnose "
        "--kind bracket, the 'bound' profile) or a checkpoint profile (diagnose "
        "--checkpoint)."};
  if (profile.kind != "empirical") return {};
  const double scale = memorisationSigma(profile);
  char where[160];
  if (scale > 0.0) {
    std::snprintf(where, sizeof where,
                  "below sigma = %.3g (the nearest-neighbour scale: the posterior's mean largest "
                  "weight is >= 1/2 up to there)",
                  scale);
  } else {
    std::snprintf(where, sizeof where,
                  "at sigma below the nearest-neighbour distance of the sample (not reached on "
                  "this grid, which starts at %.3g)",
                  profile.sigma.empty() ? 0.0 : profile.sigma.front());
  }
  return {std::string("built from an empirical profile: ") + where +
          " the dataset prior memorises its own samples and its MMSE is ~0, so this schedule "
          "spends little training there, where a model that generalises still has to learn. For "
          "such a model use the population bound (diagnose --kind bracket, the 'bound' profile) "
          "or a checkpoint profile (diagnose --checkpoint)."};
}

}  // namespace noisescope::pipeline
