#pragma once
// Seeded synthetic datasets with known structure, for tests, tutorials and the atomic-schedule
// experiments. The same spec and seed always give the same points.
#include <cstdint>
#include <string>

#include "data/dataset.h"

namespace noisescope {

struct SyntheticSpec {
  // "dirac-mixture" (K points in R^d), "gaussian" (N(0, scale² I_d)), "circle" (unit circle in
  // R^2 with optional noise), "two-moons", "swiss-roll" (2-D), "hypercube" (uniform on {−1,+1}^d).
  std::string kind = "two-moons";
  int64_t count = 2000;    // N
  int64_t dimension = 2;   // d, where the kind allows choosing it
  int64_t components = 8;  // K for the Dirac mixture
  double scale = 1.0;      // standard deviation for "gaussian"; spread for the others
  double noise = 0.0;      // isotropic Gaussian jitter added to manifold sets
  uint64_t seed = 1;
};

// What each kind draws (all with the seed's own uniform / normal draws, see util/random_source.h):
//   dirac-mixture  K atoms uniform in [−scale, scale]^d; each sample is a uniformly chosen atom,
//                  labelled with its index (duplicates are the point: an exactly discrete prior)
//   gaussian       scale · N(0, I_d)
//   circle         radius scale, angle uniform
//   two-moons      the two interleaved half circles, centred, times scale; labels 0 / 1 alternate
//   swiss-roll     the planar spiral r = t, t ∈ [1.5π, 4.5π], shrunk into the disc of radius scale
//   hypercube      each coordinate ±scale with probability ½ (scaling "{-1,+1}" when scale = 1)
// noise > 0 then adds noise · N(0, I_d) to every coordinate. Throws InputError for a spec that
// validation in parseSyntheticSpec would reject.
Dataset makeSynthetic(const SyntheticSpec& spec);

// Parses "synthetic:KIND?n=2000&d=2&k=8&scale=1&noise=0&seed=1" (every key optional). Throws
// InputError naming the spec and the problem for an unknown kind, key or value.
SyntheticSpec parseSyntheticSpec(const std::string& text);
std::string formatSyntheticSpec(const SyntheticSpec& spec);

}  // namespace noisescope
