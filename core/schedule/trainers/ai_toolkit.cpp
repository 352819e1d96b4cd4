// ai-toolkit, per architecture (docs/trainers.md). jobs/process/BaseSDTrainProcess.py draws an
// index i into the scheduler's 1000-entry training grid (uniform on 0 … 998, or ⌊1000·U³⌋ for
// content_or_style "content", ⌊1000·(1 − U³)⌋ for "style"); the grid is built by
// toolkit/samplers/custom_flowmatch_sampler.py set_train_timesteps per timestep_type, with the
// architecture's own scheduler config (static shift, or Flux's μ rule, Qwen's terminal stretch);
// extensions_built_in/sd_trainer/SDTrainer.py trains the velocity, times the fixed
// default_weighing_scheme table for "weighted" and a bell for linear_timesteps(2). The linear,
// weighted and lognorm_blend grids lie on the 0.001 steps of t; the shift grid is trained at its
// own entries (add_noise takes t = timestep/1000); the sigmoid grid's random entries are put on the
// next 0.001 step.
#include <cmath>
#include <unordered_map>

#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {
namespace {

// toolkit/timestep_weighing/default_weighing_scheme.py (ai-toolkit 27a03a9), every 25th of its
// 1000 entries and the last: the loss weight by grid index, linear between these. Against the
// full table this moves φ by TV 0.003 on 16 log-σ bins.
constexpr double kWeighingStep = 25.0;
constexpr double kWeighing[] = {0.906, 1.220, 1.375, 1.471, 1.507, 1.522, 1.507, 1.481, 1.441,
                                1.400, 1.355, 1.309, 1.264, 1.218, 1.172, 1.126, 1.083, 1.041,
                                1.000, 0.962, 0.925, 0.891, 0.860, 0.831, 0.805, 0.782, 0.762,
                                0.745, 0.731, 0.721, 0.715, 0.714, 0.716, 0.721, 0.729, 0.732,
                                0.716, 0.666, 0.582, 0.493, 0.447};

double weighingAt(double index) {
  const int last = static_cast<int>(std::size(kWeighing)) - 1;
  const double position = std::clamp(index, 0.0, 999.0) / kWeighingStep;
  const int j = std::min(static_cast<int>(position), last - 1);
  const double right = j + 1 == last ? 999.0 / kWeighingStep : j + 1.0;
  const double f = std::clamp((position - j) / (right - j), 0.0, 1.0);
  return kWeighing[j] + (kWeighing[j + 1] - kWeighing[j]) * f;
}

// An architecture's flowmatch scheduler config (get_train_scheduler of its model class).
struct Architecture {
  std::string model, note, defaultType;
  bool dynamic = false;       // use_dynamic_shifting: σ × e^μ
  double shift = 1.0;         // the static shift otherwise
  double maxShift = 1.15;     // μ at maxTokens
  double maxTokens = 4096.0;  // μ is 0.5 at 256 tokens
  double terminal = 0.0;      // shift_terminal: the grid stretched to end at this t
  // Two experts (is_multistage, Wan 2.2 14B): the high-noise one trains the grid's entries above
  // t = boundary, the low-noise one the rest, on alternate steps; 0: one model.
  double boundary = 0.0;
  bool trainsHigh = true, trainsLow = true;  // model_kwargs train_high_noise / train_low_noise
};

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> list = {
      {"flux", "Flux.1 (toolkit/sampler.py flux_config): dynamic shift", "sigmoid", true},
      {"flux2", "Flux.2 and klein: dynamic shift", "weighted", true},
      {"chroma", "Chroma: dynamic shift", "sigmoid", true},
      {"qwen", "Qwen-Image: dynamic shift 0.5 … 0.9 over 256 … 8192 tokens, terminal 0.02",
       "weighted", true, 1.0, 0.9, 8192.0, 0.02},
      {"zimage", "Z-Image: static shift 3", "weighted", false, 3.0},
      {"wan22-5b", "Wan 2.2 5B: static shift 5", "weighted", false, 5.0},
      {"hidream", "HiDream: static shift 3", "shift", false, 3.0},
      {"lumina2", "Lumina 2: static shift 6", "sigmoid", false, 6.0},
      {"sd3", "SD3 (sd_flow_config): static shift 3", "sigmoid", false, 3.0},
      // extensions_built_in/diffusion_models/wan22/wan22_14b_model.py Wan2214bModel: the 5B's
      // scheduler config (static shift 5), multistage_boundaries [0.875, 0.0] for T2V and I2V
      // alike (boundary_ratio_i2v is used only when sampling).
      {"wan22-14b",
       "Wan 2.2 14B (T2V, I2V): static shift 5; two experts split at t = 0.875, trained on "
       "alternate steps",
       "linear", false, 5.0, 1.15, 4096.0, 0.0, 0.875, true, true},
      {"wan22-14b-high",
       "Wan 2.2 14B, the high-noise expert alone (model_kwargs train_low_noise: false): static "
       "shift 5, the grid above t = 0.875",
       "linear", false, 5.0, 1.15, 4096.0, 0.0, 0.875, true, false},
      {"wan22-14b-low",
       "Wan 2.2 14B, the low-noise expert alone (model_kwargs train_high_noise: false): static "
       "shift 5, the grid from t = 0.875 down",
       "linear", false, 5.0, 1.15, 4096.0, 0.0, 0.875, false, true},
  };
  return list;
}

// The shift-type grid: s from the scheduler's σ_max (1) to its σ_min in 1000 steps, shifted
// (again, for a static shift: σ_min is already the shifted table's end) or by e^μ, then stretched
// to the terminal. t at grid position x (entry i at x = i; continuous between entries).
struct ShiftGrid {
  Architecture a;
  double mu;

  double sMin() const { return a.dynamic ? 0.001 : shiftFlowTime(0.001, a.shift); }
  double shifted(double s) const { return shiftFlowTime(s, a.dynamic ? std::exp(mu) : a.shift); }
  double stretched(double t) const {
    if (!(a.terminal > 0.0)) return t;
    const double scale = (1.0 - shifted(sMin())) / (1.0 - a.terminal);
    return 1.0 - (1.0 - t) / scale;
  }
  double t(double x) const { return stretched(shifted(1.0 - x * (1.0 - sMin()) / 999.0)); }
};

// The index into the grid (BaseSDTrainProcess.py, prepare_timesteps_indices), within
// [lo, hi] = [min_denoising_steps, max_denoising_steps] (0 and 999 by default): balanced
// randint(lo, hi), so hi itself is never drawn (the last, lowest-noise entry by default);
// content 1000·U³ and style 1000·(1 − U³) mapped by value_map from [0, 999] onto [lo, hi],
// truncated and clamped to [lo, hi]. lo == hi draws lo.
// content_or_style: which way the index is drawn. An enum, not the YAML's word: a fit evaluates
// the law's probabilities millions of times.
enum class IndexStyle { Balanced, Content, Style };

IndexStyle indexStyle(const std::string& word) {
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

IndexLaw windowOf(IndexStyle style, const Params& p) {
  IndexLaw law{style};
  law.lo = std::clamp(static_cast<int>(std::floor(p[0])), 0, 999);  // the YAML's integers
  law.hi = std::clamp(static_cast<int>(std::floor(p[1])), 0, 999);
  return law;
}

// Density of the grid position x: entry i's probability spread over [i, i + 1).
double indexDensity(double x, const IndexLaw& law) {
  if (!(x >= 0.0 && x < 1000.0)) return 0.0;
  return law.probability(static_cast<int>(x));
}

// The grid position x that gives t on the linear (and weighted) grid, and |dx/dt|: x ∈ [i, i + 1)
// is t ∈ ((999 − i)/1000, (1000 − i)/1000], which the tool's table (quantised to the upper edge)
// trains at entry i's t = (1000 − i)/1000, exactly.
std::pair<double, double> gridIndex(double t) {
  return {1000.0 * (1.0 - t), 1000.0};
}

double indexProbability(int i, const IndexLaw& law) {
  return law.probability(i);
}

// linear_timesteps / linear_timesteps2 (custom_flowmatch_sampler.py,
// CustomFlowMatchEulerDiscreteScheduler.__init__; applied in SDTrainer.py's loss through
// get_weights_for_timesteps): y_i = exp(−2((i − 500)/1000)²) over the 1000 indices, its minimum
// subtracted, scaled to mean 1; the second version holds the indices from 500 on at the value of
// index 500 (its maximum there).
double bellWeight(double index, bool half) {
  static const double scale = [] {
    double sum = 0.0;
    for (int i = 0; i < 1000; ++i)
      sum += std::exp(-2.0 * std::pow((i - 500.0) / 1000.0, 2.0)) - std::exp(-0.5);
    return 1000.0 / sum;
  }();
  const int i = std::clamp(static_cast<int>(std::round(index)), 0, 999);
  const int at = half && i >= 500 ? 500 : i;
  return (std::exp(-2.0 * std::pow((at - 500.0) / 1000.0, 2.0)) - std::exp(-0.5)) * scale;
}

// The sigmoid grid is 1000 fresh draws of 1 − sigmoid(z), sorted descending, and index i picks
// the draw with i others above it: its density at t is 1000·f(t)·P(Bin(999, 1 − F(t)) = i), f and
// F the logit-normal(0, 1) density and CDF. Summed over the index law this is exact; in
// particular the smallest draw is never trained (index 999 is not drawn), which removes the
// lower tail that a velocity loss would weight most.
double sigmoidGridDensity(double t, const IndexLaw& law) {
  if (!(t > 0.0 && t < 1.0)) return 0.0;
  // n·f(t)·P(Bin(999, above) = i) per index i, kept per t and thread: a fit evaluates the same
  // points (the table cells' nodes) for every window it tries.
  struct Terms {
    int first = 0;
    std::vector<double> value;
  };
  thread_local std::unordered_map<double, Terms> cache;
  if (cache.size() > 20000) cache.clear();
  auto [it, inserted] = cache.try_emplace(t);
  Terms& terms = it->second;
  if (inserted) {
    const double z = std::log(t / (1.0 - t));
    const double f = normalPdf(z) / (t * (1.0 - t));
    const double above = 0.5 * std::erfc(z / std::sqrt(2.0));  // P(a draw lies above t)
    constexpr int n = 1000;
    const double mean = (n - 1) * above, spread = std::sqrt((n - 1) * above * (1.0 - above)) + 1.0;
    const int first = std::max(0, static_cast<int>(mean - 12.0 * spread));
    const int last = std::min(n - 1, static_cast<int>(mean + 12.0 * spread) + 1);
    const double logAbove = std::log(std::max(above, 1e-300));
    const double logBelow = std::log(std::max(1.0 - above, 1e-300));
    terms.first = first;
    for (int i = first; i <= last; ++i) {
      const double logPmf = std::lgamma(n) - std::lgamma(i + 1.0) - std::lgamma(double(n - i)) +
                            i * logAbove + (n - 1 - i) * logBelow;
      terms.value.push_back(n * f * std::exp(logPmf));
    }
  }
  // Only the law's window [lo, hi] can have a nonzero probability; the terms outside it add +0.
  const int count = static_cast<int>(terms.value.size());
  const int from = std::max(0, law.first() - terms.first);
  const int to = std::min(count, law.last() - terms.first + 1);
  double sum = 0.0;
  for (int j = from; j < to; ++j) sum += indexProbability(terms.first + j, law) * terms.value[j];
  return sum;
}

// The shift grid's entries fall between the table's 0.001 steps: each entry's probability is put
// in the step that holds it (so it is trained at most 0.001 above its own t), as a density per
// unit t. The 1000 step masses are computed once per grid, index law and thread.
double shiftGridDensity(double t, const IndexLaw& law, const ShiftGrid& grid) {
  if (!(t > 0.0 && t < 1.0)) return 0.0;
  struct Steps {
    std::string model;
    IndexLaw law;
    double mu = 0.0;
    std::vector<double> mass;
  };
  thread_local Steps steps;
  if (steps.mass.empty() || steps.model != grid.a.model || !(steps.law == law) ||
      steps.mu != grid.mu) {
    steps = {grid.a.model, law, grid.mu, std::vector<double>(1000, 0.0)};
    for (int i = 0; i < 1000; ++i) {
      const int k = std::clamp(static_cast<int>(std::ceil(1000.0 * grid.t(i))) - 1, 0, 999);
      steps.mass[k] += indexProbability(i, law);
    }
  }
  const int k = std::clamp(static_cast<int>(std::ceil(1000.0 * t)) - 1, 0, 999);
  return 1000.0 * steps.mass[k];
}

// The shift grid's 1000 entries as they are trained: add_noise uses t = timestep/1000 of the
// entry itself (not a 0.001 step), so φ is computed on the entries, each with its index
// probability (the density above stays the family's outline).
std::function<std::vector<std::pair<double, double>>(const Params&)> shiftGridAtoms(
    const ShiftGrid& grid, std::function<IndexLaw(const Params&)> lawOf) {
  return [grid, lawOf](const Params& p) {
    const IndexLaw law = lawOf(p);
    std::vector<std::pair<double, double>> atoms(1000);
    for (int i = 0; i < 1000; ++i) atoms[i] = {grid.t(i), indexProbability(i, law)};
    return atoms;
  };
}

// lognorm_blend (custom_flowmatch_sampler.py set_train_timesteps): each step a fresh grid of 750
// draws X ~ LogNormal(0, 0.333) mapped to (1 − X/max X)·1000 and the 250 values of
// linspace(1000, 1, 250), sorted descending and truncated to integer timesteps k (t = k/1000).
// The largest X is always k = 0. Given the maximum M = e^{0.333·Z_max} (Z_max the largest of 750
// standard normals) the other 749 draws are independent and below it:
// P(X/M ≤ r | Z_max) = Φ(Z_max + ln r/0.333)/Φ(Z_max).
namespace lognorm {

constexpr int kLognormal = 750, kLinear = 250;
constexpr double kScale = 0.333;

double Phi(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// Z_max's density as midpoint weights over [lo, hi].
struct MaxLaw {
  std::vector<double> z, weight;
  MaxLaw(int steps, double lo, double hi) : z(steps), weight(steps) {
    const double h = (hi - lo) / steps;
    for (int i = 0; i < steps; ++i) {
      z[i] = lo + (i + 0.5) * h;
      weight[i] = std::exp(std::log(double(kLognormal)) + std::log(normalPdf(z[i])) +
                           (kLognormal - 1) * std::log(Phi(z[i]))) *
                  h;
    }
  }
};

// P(a non-maximal entry's timestep ≥ v | Z_max = z): int(1000·(1 − R)) ≥ v ⟺ R ≤ 1 − v/1000.
double atLeast(int v, double z) {
  if (v <= 0) return 1.0;
  if (v >= 1000) return 0.0;
  return Phi(z + std::log(1.0 - v / 1000.0) / kScale) / Phi(z);
}

// How many linear entries (and the maximum's 0) have a timestep ≥ v.
int fixedAtLeast(int v) {
  int n = v <= 0 ? 1 : 0;
  for (int j = 0; j < kLinear; ++j) n += static_cast<int>(1000.0 - j * 999.0 / (kLinear - 1)) >= v;
  return n;
}

// Balanced: randint(0, 999) never picks the grid's last entry, the maximum's 0, so the draw is
// one of the other 749 lognormal entries or one of the 250 linear ones, each with probability
// 1/999; the lognormal part is the ratio's law integrated over Z_max once.
std::vector<double> balancedMasses() {
  constexpr int drawn = 999;
  const MaxLaw law(4000, -1.0, 7.0);
  auto ratioTail = [&](int v) {  // P(timestep ≥ v) for a non-maximal lognormal entry
    double sum = 0.0;
    for (std::size_t i = 0; i < law.z.size(); ++i) sum += law.weight[i] * atLeast(v, law.z[i]);
    return sum;
  };
  std::vector<double> m(1001, 0.0);
  double tail = ratioTail(0);
  for (int k = 0; k < 1000; ++k) {
    const double next = ratioTail(k + 1);
    m[k] += (kLognormal - 1) * (tail - next) / drawn;
    tail = next;
  }
  for (int j = 0; j < kLinear; ++j)
    m[static_cast<int>(1000.0 - j * 999.0 / (kLinear - 1))] += 1.0 / drawn;
  return m;
}

// P(index ≤ c) of content_or_style's index draw: ⌊1000·U³⌋ (content) or ⌊1000·(1 − U³)⌋
// (style), clamped to 0 … 999.
double indexCdfValue(int c, IndexStyle style) {
  if (c < 0) return 0.0;
  if (c >= 999) return 1.0;
  const double f = (c + 1) / 1000.0;
  return style == IndexStyle::Content ? std::cbrt(f) : 1.0 - std::cbrt(1.0 - f);
}
// The same from a table of c = 0 … 998 per style: orderStatisticMasses asks for it millions of
// times.
double indexCdf(int c, IndexStyle style) {
  if (c < 0) return 0.0;
  if (c >= 999) return 1.0;
  auto table = [](IndexStyle s) {
    std::vector<double> v(999);
    for (int k = 0; k < 999; ++k) v[k] = indexCdfValue(k, s);
    return v;
  };
  static const std::vector<double> content = table(IndexStyle::Content);
  static const std::vector<double> styled = table(IndexStyle::Style);
  return (style == IndexStyle::Content ? content : styled)[c];
}

// Content or style: the index picks an order statistic. Entry i of the descending grid is ≥ v
// exactly when at least i + 1 entries are, and that count is fixedAtLeast(v) plus a
// Binomial(749, atLeast(v, z)) given Z_max, so P(timestep ≥ v) = E[indexCdf(count − 1)].
std::vector<double> orderStatisticMasses(IndexStyle style) {
  const MaxLaw law(200, 1.0, 5.5);  // Z_max lies in [1, 5.5] but for < 10⁻⁹
  constexpr int n = kLognormal - 1;
  std::vector<double> logFactorial(n + 1, 0.0);
  for (int c = 1; c <= n; ++c) logFactorial[c] = logFactorial[c - 1] + std::log(double(c));
  std::vector<double> tail(1002, 0.0);  // P(timestep ≥ v), v = 0 … 1001
  for (int v = 0; v <= 1000; ++v) {
    const int fixed = fixedAtLeast(v);
    double sum = 0.0;
    for (std::size_t i = 0; i < law.z.size(); ++i) {
      const double q = std::clamp(atLeast(v, law.z[i]), 0.0, 1.0);
      double expected = 0.0;
      if (q <= 1e-300 || q >= 1.0) {
        expected = indexCdf((q >= 1.0 ? n : 0) + fixed - 1, style);
      } else {
        const double mean = n * q, spread = std::sqrt(n * q * (1.0 - q));
        const int first = std::max(0, static_cast<int>(mean - 10.0 * spread) - 1);
        const int last = std::min(n, static_cast<int>(mean + 10.0 * spread) + 2);
        const double logQ = std::log(q), logNotQ = std::log1p(-q);
        for (int c = first; c <= last; ++c) {
          const double logPmf = logFactorial[n] - logFactorial[c] - logFactorial[n - c] + c * logQ +
                                (n - c) * logNotQ;
          expected += std::exp(logPmf) * indexCdf(c + fixed - 1, style);
        }
      }
      sum += law.weight[i] * expected;
    }
    tail[v] = sum;
  }
  std::vector<double> m(1001, 0.0);
  for (int k = 0; k <= 1000; ++k) m[k] = std::max(tail[k] - tail[k + 1], 0.0);
  return m;
}

}  // namespace lognorm

// Probability per timestep k = 0 … 1000 of the lognorm_blend draw with this index law (k = 0 is
// σ = 0: no log σ), computed once per law.
const std::vector<double>& lognormBlendMasses(IndexStyle style) {
  static const std::vector<double> balanced = lognorm::balancedMasses();
  if (style == IndexStyle::Content) {
    static const std::vector<double> content = lognorm::orderStatisticMasses(style);
    return content;
  }
  if (style == IndexStyle::Style) {
    static const std::vector<double> styled = lognorm::orderStatisticMasses(style);
    return styled;
  }
  return balanced;
}

// Density per unit t of the lognorm_blend draw: timestep k's probability spread over the table
// cell ((k − 1)/1000, k/1000] that trains at t = k/1000.
double lognormBlendDensity(double t, IndexStyle style) {
  if (!(t > 0.0 && t <= 1.0)) return 0.0;
  const int k = std::clamp(static_cast<int>(std::ceil(1000.0 * t)), 1, 1000);
  return 1000.0 * lognormBlendMasses(style)[k];
}

std::string yaml(const std::string& type, const std::string& style) {
  return "train:\n  timestep_type: " + type + "\n  content_or_style: " + style;
}

// timestep_type's grids that the index picks from (weighted is the linear grid, loss weighted).
enum class GridType { Sigmoid, Linear, Shift };

GridType gridType(const std::string& word) {
  return word == "sigmoid" ? GridType::Sigmoid
         : word == "shift" ? GridType::Shift
                           : GridType::Linear;
}

// Density per unit t of a timestep_type's grid under an index law.
double gridDensity(GridType type, double u, const IndexLaw& law, const ShiftGrid& grid) {
  if (!(u > 0.0 && u < 1.0)) return 0.0;
  if (type == GridType::Sigmoid) return sigmoidGridDensity(u, law);
  if (type == GridType::Shift) return shiftGridDensity(u, law, grid);
  const auto [v, dvdt] = gridIndex(u);
  return indexDensity(v, law) * dvdt;
}

// What a multistage law trains, for a family's note.
std::string expertNote(const IndexLaw& law) {
  std::string text = "; indices [" + std::to_string(law.lo) + ", " + std::to_string(law.hi) + "]";
  if (law.hi2 >= law.lo2)
    text += " and [" + std::to_string(law.lo2) + ", " + std::to_string(law.hi2) +
            "], the two experts on alternate steps";
  return text;
}

// linear_timesteps, linear_timesteps2: the linear grid (whatever timestep_type says, unless it
// is weighted) and the loss × a bell over the indices (the second flat on the low-noise half),
// each index drawn by lawOf(content_or_style).
void addLinearTimestepFamilies(TrainerTool& t, const ShiftGrid& grid,
                               const std::function<IndexLaw(IndexStyle)>& lawOf, bool experts) {
  for (const std::string style : {"balanced", "content", "style"})
    for (const bool half : {false, true}) {
      const std::string key = half ? "linear_timesteps2" : "linear_timesteps";
      TrainerFamily f{style == "balanced" ? key : key + " + " + style,
                      {},
                      [grid, law = lawOf(indexStyle(style))](double u, const Params&) {
                        return gridDensity(GridType::Linear, u, law, grid);
                      },
                      [half](double sigma, const Params&) {
                        return bellWeight(1000.0 * (1.0 - flowT(sigma)), half);
                      },
                      [key, style](const Params&) {
                        return "train:\n  timestep_type: linear\n  " + key +
                               ": true\n  content_or_style: " + style;
                      },
                      std::string("uniform t grid, loss × the ") +
                          (half ? "half bell (flat from index 500, the low-noise half)"
                                : "bell exp(−2((i − 500)/1000)²) less its minimum") +
                          ", mean 1; no knob"};
      if (style != "balanced")
        f.note +=
            "; index U³ toward " + std::string(style == "content" ? "high noise" : "low noise");
      if (experts) f.note += expertNote(lawOf(indexStyle(style)));
      t.families.push_back(f);
    }
}

// The experts' windows of a multistage model on a grid of entries t(0) > t(1) > …
// (BaseSDTrainProcess.py, adjust_multistage_timesteps): an expert between t = b_max and b_min
// draws indices from [n(≥ b_max) − 1, n(> b_min) − 1], n counting the grid's timesteps 1000·t
// against 1000·b; the two experts alternate, so each has half the steps.
IndexLaw expertLaw(IndexStyle style, const Architecture& a, const std::function<double(int)>& t) {
  auto window = [&](double high, double low) {
    int atOrAbove = 0, above = 0;
    for (int i = 0; i < 1000; ++i) {
      const double timestep = 1000.0 * t(i);
      atOrAbove += timestep >= 1000.0 * high;
      above += timestep > 1000.0 * low;
    }
    if (above <= atOrAbove) return std::pair<int, int>{0, 999};  // the code's empty-range case
    return std::pair<int, int>{std::max(atOrAbove - 1, 0), std::min(above - 1, 999)};
  };
  const auto [highLo, highHi] = window(1.0, a.boundary);
  const auto [lowLo, lowHi] = window(a.boundary, 0.0);
  if (a.trainsHigh && a.trainsLow) return IndexLaw{style, highLo, highHi, lowLo, lowHi};
  return a.trainsHigh ? IndexLaw{style, highLo, highHi} : IndexLaw{style, lowLo, lowHi};
}

void addFamilies(TrainerTool& t, const Architecture& a, const TrainerSettings& settings) {
  const double tokens = std::floor(settings.height / 16.0) * std::floor(settings.width / 16.0);
  const double mu = 0.5 + (a.maxShift - 0.5) / (a.maxTokens - 256.0) * (tokens - 256.0);
  const ShiftGrid grid{a, mu};
  const std::string shiftText = a.dynamic ? "e^μ = " + num(std::exp(mu)) + " (μ = " + num(mu) +
                                                " at " + std::to_string(settings.width) + "×" +
                                                std::to_string(settings.height) + " px)"
                                          : "the static " + num(a.shift);
  const bool multistage = a.boundary > 0.0;
  // A multistage model's windows are read off the grid's entries (the sigmoid and lognorm_blend
  // grids are drawn afresh every step, so those are not offered for it).
  auto lawOf = [&](IndexStyle style, GridType type) {
    if (!multistage) return IndexLaw{style};
    if (type == GridType::Shift) return expertLaw(style, a, [&](int i) { return grid.t(i); });
    return expertLaw(style, a, [](int i) { return (1000.0 - i) / 1000.0; });
  };
  for (const std::string style : {"balanced", "content", "style"})
    for (const std::string type : {"sigmoid", "linear", "weighted", "shift"}) {
      if (multistage && type == "sigmoid") continue;
      TrainerFamily f;
      f.name = style == "balanced" ? type : type + " + " + style;
      const IndexLaw law = lawOf(indexStyle(style), gridType(type));
      f.density = [law, grid, grid_type = gridType(type)](double u, const Params&) {
        return gridDensity(grid_type, u, law, grid);
      };
      f.toolWeight =
          type == "weighted"
              ? std::function<double(double, const Params&)>([](double sigma, const Params&) {
                  return weighingAt(1000.0 * (1.0 - flowT(sigma)));
                })
              : std::function<double(double, const Params&)>(noWeight);
      if (type == "weighted") f.weighting = "weighted";
      if (type == "shift") f.atoms = shiftGridAtoms(grid, [law](const Params&) { return law; });
      f.snippet = [=](const Params&) { return yaml(type, style); };
      f.note = type == "sigmoid"    ? "1 − sigmoid(z) grid, no knob"
               : type == "linear"   ? "uniform t grid, no knob"
               : type == "weighted" ? "uniform t grid, loss × the fixed default_weighing_scheme"
                                    : "the architecture's shift, " + shiftText +
                                          " (also timestep_type flux_shift or lumina2_shift)";
      if (style != "balanced")
        f.note +=
            "; index U³ toward " + std::string(style == "content" ? "high noise" : "low noise");
      if (multistage) f.note += expertNote(law);
      t.families.push_back(f);
    }
  if (multistage) {
    addLinearTimestepFamilies(
        t, grid, [&](IndexStyle s) { return lawOf(s, GridType::Linear); }, true);
    return;  // the experts' windows replace min/max_denoising_steps; no lognorm_blend
  }
  // min_denoising_steps and max_denoising_steps: the window of indices the draw picks from, the
  // job YAML's only integer knobs of the draw: balanced randint(min, max); content and style their
  // U³ index value_map'ed from [0, 999] onto [min, max] (IndexLaw). A Wan 2.2 expert's window
  // (its multistage boundary) is such a window too.
  for (const std::string style : {"balanced", "content", "style"})
    for (const std::string type : {"sigmoid", "linear", "weighted", "shift"}) {
      const IndexStyle indices = indexStyle(style);
      TrainerFamily f{
          (style == "balanced" ? type : type + " + " + style) + " + window",
          {param("min_denoising_steps", 0.0, 0.0, 998.0),
           param("max_denoising_steps", 999.0, 1.0, 999.0)},
          [grid, grid_type = gridType(type), indices](double u, const Params& p) {
            return gridDensity(grid_type, u, windowOf(indices, p), grid);
          },
          noWeight,
          [type, style](const Params& p) {
            return yaml(type, style) + "\n  min_denoising_steps: " +
                   std::to_string(static_cast<int>(std::floor(p[0]))) +
                   "\n  max_denoising_steps: " + std::to_string(static_cast<int>(std::floor(p[1])));
          },
          (style == "balanced"
               ? "indices randint(min_denoising_steps, max_denoising_steps)"
               : "index U³ toward " + std::string(style == "content" ? "high" : "low") +
                     " noise, mapped onto [min_denoising_steps, "
                     "max_denoising_steps]") +
              " of the " + type + " grid (0 is the highest noise)"};
      for (auto& q : f.parameters) q.quantum = 1.0;
      if (type == "shift")
        f.atoms = shiftGridAtoms(grid, [indices](const Params& p) { return windowOf(indices, p); });
      if (type == "weighted") {
        f.toolWeight = [](double sigma, const Params&) {
          return weighingAt(1000.0 * (1.0 - flowT(sigma)));
        };
        f.weighting = "weighted";
      }
      t.families.push_back(f);
    }
  addLinearTimestepFamilies(
      t, grid, [](IndexStyle s) { return IndexLaw{s}; }, false);
  // lognorm_blend's grid reads no scheduler config: the same for every architecture.
  for (const std::string style : {"balanced", "content", "style"}) {
    TrainerFamily f{
        style == "balanced" ? "lognorm_blend" : "lognorm_blend + " + style,
        {},
        [law = indexStyle(style)](double u, const Params&) { return lognormBlendDensity(u, law); },
        noWeight,
        [style](const Params&) { return yaml("lognorm_blend", style); },
        "75% sorted 1 − X/max X, X ~ LogNormal(0, 0.333), blended with 25% of the "
        "linear grid; no knob"};
    if (style != "balanced")
      f.note += "; index U³ toward " + std::string(style == "content" ? "high noise" : "low noise");
    t.families.push_back(f);
  }
  // A shift value is not a job-YAML key: it lives in the architecture's scheduler config.
  TrainerFamily custom{
      "shift (edit the scheduler)",
      {param("shift", 3.0, 0.02, 50.0, true)},
      [](double u, const Params& p) {
        return shiftedUniform(u, p[0]);  // the grid shifted from an unshifted table
      },
      noWeight,
      [](const Params& p) {
        return "train:\n  timestep_type: shift\n# no YAML key sets the shift: edit the model's "
               "scheduler config (get_train_scheduler in its toolkit/models or extensions_built_in "
               "class) to shift " +
               num(p[0]) + ", use_dynamic_shifting false";
      },
      "what a static shift would need to be; ai-toolkit cannot take it from the job YAML"};
  t.families.push_back(custom);
}

}  // namespace

std::vector<std::string> aiToolkitModels() {
  std::vector<std::string> names;
  for (const auto& a : architectures()) names.push_back(a.model);
  return names;
}

ModelDefinition aiToolkit(const TrainerSettings& settings, const std::string& model) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = flowTool("ai-toolkit", "the job YAML, config.process[0].train");
  for (const auto& a : architectures())
    if (a.model == model) {
      t.model = a.model;
      t.modelNote = a.note + "; velocity loss; the web UI's timestep_type for it: " + a.defaultType;
      t.discretisation =
          "1000-entry grids per timestep_type, an entry of 0 … 998 drawn; trained at the entry's "
          "own t (linear, weighted, lognorm_blend: the 0.001 steps)";
      // The linear, weighted and lognorm_blend grids are exactly t = k/1000; the shift families
      // carry their entries as atoms; the sigmoid grid's are placed on the next step (at most
      // 0.001 higher in t).
      t.tableEdges = tableEdges(1000);
      t.tableAtUpper = true;
      addFamilies(t, a, settings);
      m.defaultDraw = a.defaultType;
    }
  return m;
}

}  // namespace noisescope::schedule::trainers
