#pragma once
// ai-toolkit's lognorm_blend timestep grid, re-implemented for the tests that check its realised φ
// (toolkit/samplers/custom_flowmatch_sampler.py, set_train_timesteps): 750 LogNormal(0, 0.333)
// draws as (1 − x/max x)·1000 and linspace(1000, 1, 250), sorted descending, .to(torch.int).
#include <algorithm>
#include <functional>
#include <random>
#include <vector>

inline std::vector<int> aiToolkitLognormBlendGrid(std::mt19937_64& g) {
  std::lognormal_distribution<double> draw(0.0, 0.333);
  std::vector<double> x(750);
  for (auto& v : x) v = draw(g);
  const double top = *std::max_element(x.begin(), x.end());
  std::vector<int> grid;
  for (double v : x) grid.push_back(static_cast<int>((1.0 - v / top) * 1000.0));
  for (int j = 0; j < 250; ++j)
    grid.push_back(static_cast<int>(1000.0 + j * (1.0 - 1000.0) / 249.0));
  std::sort(grid.begin(), grid.end(), std::greater<>());
  return grid;
}
