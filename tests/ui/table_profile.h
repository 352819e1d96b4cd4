#pragma once
// A "table" profile for the GUI's writer tests: MMSE = scale·σ²/(1 + σ²) on `levels` σ values
// from 0.01 up by `ratio`, with its rates, so that two scales give two different files.
#include <cmath>
#include <memory>

#include "profile/profile.h"

inline std::shared_ptr<const noisescope::Profile> tableProfile(double scale, int levels,
                                                               double ratio) {
  noisescope::Profile p;
  p.kind = "table";
  p.dim = 4;
  for (int i = 0; i < levels; ++i) p.sigma.push_back(0.01 * std::pow(ratio, i));
  noisescope::MmseEstimate e;
  e.name = "mmse";
  e.description = "writer test";
  for (double s : p.sigma) e.mean.push_back(scale * s * s / (1 + s * s));
  e.standardError.assign(p.sigma.size(), 0.0);
  e.ciLow = e.mean;
  e.ciHigh = e.mean;
  p.estimates.push_back(e);
  p.rates = noisescope::computeRates(p.sigma, p.primary());
  return std::make_shared<const noisescope::Profile>(p);
}
