#pragma once
// What a schedule's user must know about the profile it came from (THEORY §10). An entropic
// schedule follows its profile's rate; an empirical profile's rate is ~0 below the scale at which
// the dataset prior memorises its own points, so a schedule from it leaves out the low σ a model
// that generalises needs. The caveat says so, names that scale and the profiles to use instead.
#include <string>
#include <vector>

namespace noisescope {
struct Profile;
}

namespace noisescope::pipeline {

// The largest σ of the grid at which the empirical posterior still puts, on average over the
// queries, at least half its weight on one point (posterior.maxWeight ≥ ½): the nearest-neighbour
// scale, below which the profile describes memorisation of the sample. 0 when the profile has no
// posterior statistics or never reaches ½.
double memorisationSigma(const Profile& profile);

// Caveats for an entropic schedule built from `profile`: one for an empirical profile (it
// memorises) and one for the plug-in Gaussian estimate (biased low), none for the population
// bounds (held-out, held-out-wiener, held-out-patch, bound), a checkpoint profile or a table.
std::vector<std::string> entropicScheduleCaveats(const Profile& profile);

}  // namespace noisescope::pipeline
