#pragma once
// musubi-tuner's --min_timestep / --max_timestep / --preserve_distribution_shape as a held setting
// (TrainerSettings): the window every mode's draw is confined to, as
// src/musubi_tuner/training/trainer_base.py NetworkTrainer.get_noisy_model_input_and_timesteps
// applies it.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "schedule/trainers/draws.h"

namespace noisescope::schedule::trainers {

struct TimestepWindow {
  int min = 0, max = 1000;  // the flags' integers, 0 … 1000
  bool preserve = false;    // --preserve_distribution_shape
  double low() const { return min / 1000.0; }
  double high() const { return max / 1000.0; }
  // The flags as a snippet prints them; the sigma mode has no preserve_distribution_shape.
  std::string flags(bool withPreserve) const;
};

// The settings' window, checked (0 ≤ min < max ≤ 1000); throws InputError naming
// settings::kTimestepWindow.
TimestepWindow heldTimestepWindow(const TrainerSettings& settings);

// A mode other than sigma under the window: t squeezed into [min, max]/1000 as t·(b − a) + a, or
// with preserve the draw truncated to [a, b] (the code redraws until a value falls inside). Its
// snippet gains the flags.
TrainerFamily windowedMode(const TrainerFamily& mode, const TimestepWindow& window);

// The sigma mode under the window: u (its CDF `cdf`, its density of 1 − u `densityOfOneMinusU`)
// indexed as j = ⌊u·(max − min) + min⌋ into the table t = (1000 − j)/1000. The (t, probability)
// pairs, and the continuous outline of t.
std::vector<std::pair<double, double>> windowedTableAtoms(const std::function<double(double)>& cdf,
                                                          const TimestepWindow& window);
double windowedTableOutline(double t, const std::function<double(double)>& densityOfOneMinusU,
                            const TimestepWindow& window);

// A key for keptMass, never reused (an address could be, once its family is gone).
std::uint64_t newKeptMassOwner();

// ∫ density over [a, b] of the flow time for the knobs p, computed once per knob values, thread
// and `owner` (compared bit for bit), not at each of the ~10² points a candidate is evaluated at.
template <typename Compute>
double keptMass(std::uint64_t owner, const Params& p, Compute compute) {
  thread_local std::uint64_t known = 0;
  thread_local Params knobs;
  thread_local double mass = 0.0;
  if (known != owner || knobs.size() != p.size() ||
      std::memcmp(knobs.data(), p.data(), p.size() * sizeof(double)) != 0) {
    mass = compute();
    knobs = p;
    known = owner;
  }
  return mass;
}

}  // namespace noisescope::schedule::trainers
