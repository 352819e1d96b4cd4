#pragma once
// ai-toolkit's training grids that are drawn afresh every step
// (toolkit/samplers/custom_flowmatch_sampler.py set_train_timesteps, timestep_type sigmoid and
// lognorm_blend): the exact law of the trained t, as a density per unit t, for an index law and,
// for a multistage model, for the expert windows read off each step's grid.
#include "schedule/trainers/ai_toolkit_index.h"

namespace noisescope::schedule::trainers::aitk {

// The sigmoid grid under a fixed index window.
double sigmoidGridDensity(double t, const IndexLaw& law);

// A multistage model's experts (BaseSDTrainProcess.py adjust_multistage_timesteps): the
// high-noise one trains the entries above t = boundary, the low-noise one the rest; with both,
// each on half the steps.
struct ExpertSplit {
  double boundary = 0.875;
  bool high = true, low = true;
};

// The sigmoid grid under the expert windows of each step's own grid.
double sigmoidExpertGridDensity(double t, IndexStyle style, const ExpertSplit& split);

// The lognorm_blend grid under the expert windows of each step's own grid.
double lognormBlendExpertDensity(double t, IndexStyle style, const ExpertSplit& split);

// The lognorm_blend grid under a fixed index window (its trained t lies on the 0.001 steps; the
// density spreads each step's probability over the table cell below it).
double lognormBlendDensity(double t, const IndexLaw& law);

}  // namespace noisescope::schedule::trainers::aitk
