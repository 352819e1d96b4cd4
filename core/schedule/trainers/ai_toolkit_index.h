#pragma once
// ai-toolkit's draw of an index into its 1000-entry training grid
// (jobs/process/BaseSDTrainProcess.py, prepare_timesteps_indices): its laws and the window that
// min/max_denoising_steps or a multistage model's expert sets.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "schedule/trainers/draws.h"

namespace noisescope::schedule::trainers::aitk {

// The index into the grid (BaseSDTrainProcess.py, prepare_timesteps_indices), within
// [lo, hi] = [min_denoising_steps, max_denoising_steps] (0 and 999 by default): balanced
// randint(lo, hi), so hi itself is never drawn (the last, lowest-noise entry by default);
// content 1000·U³ and style 1000·(1 − U³) mapped by value_map from [0, 999] onto [lo, hi],
// truncated and clamped to [lo, hi]. lo == hi draws lo.
// content_or_style: which way the index is drawn. An enum, not the YAML's word: a fit evaluates
// the law's probabilities millions of times.
enum class IndexStyle { Balanced, Content, Style };

inline IndexStyle indexStyle(const std::string& word) {
  return word == "content" ? IndexStyle::Content
         : word == "style" ? IndexStyle::Style
                           : IndexStyle::Balanced;
}

struct IndexLaw {
  IndexStyle style = IndexStyle::Balanced;
  int lo = 0, hi = 999;
  // A second window trained on as many steps as the first (the other expert of a multistage
  // model); hi2 < lo2: none.
  int lo2 = 0, hi2 = -1;

  // P(the draw lands at or above the cube's share f of the range), f = (j − lo)·999/(1000·(hi −
  // lo)), clamped to [0, 1].
  double share(int j) const {
    return std::clamp((j - lo) * 999.0 / (1000.0 * (hi - lo)), 0.0, 1.0);
  }
  double cubeProbability(int i) const {
    if (style == IndexStyle::Content)  // ⌊v⌋ = i for v = 1000·U³·(hi − lo)/999 + lo; rest to hi
      return i == hi ? 1.0 - std::cbrt(share(hi)) : std::cbrt(share(i + 1)) - std::cbrt(share(i));
    // style: v = 1000·(1 − U³)·(hi − lo)/999 + lo
    return i == hi ? std::cbrt(1.0 - share(hi))
                   : std::cbrt(1.0 - share(i)) - std::cbrt(1.0 - share(i + 1));
  }
  double probability(int i) const {
    if (hi2 < lo2) return probabilityInWindow(i);
    return 0.5 * probabilityInWindow(i) + 0.5 * IndexLaw{style, lo2, hi2}.probabilityInWindow(i);
  }
  double probabilityInWindow(int i) const {
    if (i < lo || i > hi) return 0.0;
    if (lo == hi) return 1.0;
    if (style == IndexStyle::Balanced) return i < hi ? 1.0 / (hi - lo) : 0.0;  // randint(lo, hi)
    if (lo == 0 && hi == 999) return fullRange(style)[i];
    return cubeProbability(i);
  }
  bool operator==(const IndexLaw& o) const {
    return style == o.style && lo == o.lo && hi == o.hi && lo2 == o.lo2 && hi2 == o.hi2;
  }
  int first() const { return hi2 < lo2 ? lo : std::min(lo, lo2); }
  int last() const { return hi2 < lo2 ? hi : std::max(hi, hi2); }

  // The default window's cube probabilities, computed once per style.
  static const std::vector<double>& fullRange(IndexStyle style) {
    auto table = [](IndexStyle s) {
      const IndexLaw law{s};
      std::vector<double> p(1000);
      for (int i = 0; i < 1000; ++i) p[i] = law.cubeProbability(i);
      return p;
    };
    static const std::vector<double> content = table(IndexStyle::Content);
    static const std::vector<double> styled = table(IndexStyle::Style);
    return style == IndexStyle::Content ? content : styled;
  }
};

inline IndexLaw windowOf(IndexStyle style, const Params& p) {
  IndexLaw law{style};
  law.lo = std::clamp(static_cast<int>(std::floor(p[0])), 0, 999);  // the YAML's integers
  law.hi = std::clamp(static_cast<int>(std::floor(p[1])), 0, 999);
  return law;
}

// P(index ≤ c) for c = 0 … 999 under `law`.
inline std::vector<double> indexCdf(const IndexLaw& law) {
  std::vector<double> cdf(1000);
  double sum = 0.0;
  for (int i = 0; i < 1000; ++i) cdf[i] = sum += law.probability(i);
  return cdf;
}

}  // namespace noisescope::schedule::trainers::aitk
