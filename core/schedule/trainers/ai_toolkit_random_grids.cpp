// The exact law of t on ai-toolkit's random grids (ai_toolkit_random_grids.h). Each grid is a
// sorted sample, so the entry at index i is an order statistic: it lies above a level v exactly
// when at least i + 1 entries do. With C_v that count, P(trained t above v) = E[CDF(C_v − 1)],
// CDF the index law's. Under a multistage model the window itself is a count (entries above the
// boundary), so the expectation is taken jointly.
#include "schedule/trainers/ai_toolkit_random_grids.h"

#include <functional>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace noisescope::schedule::trainers::aitk {
namespace {

// Binomial(n, q) probabilities over the counts that carry them (±12 standard deviations), by the
// ratio recurrence from the mode: a grid's law sums millions of them.
struct Binomial {
  int first = 0;
  std::vector<double> pmf;
  Binomial() = default;
  Binomial(int n, double q, double width = 12.0) { assign(n, q, width); }
  // Reuses the storage: a grid's law builds millions of these.
  void assign(int n, double q, double width = 12.0) {
    first = 0;
    if (n <= 0 || q <= 0.0) {
      pmf.assign(1, 1.0);
      return;
    }
    if (q >= 1.0) {
      first = n;
      pmf.assign(1, 1.0);
      return;
    }
    const double mean = n * q, spread = std::sqrt(n * q * (1.0 - q));
    first = std::max(0, static_cast<int>(mean - width * spread) - 1);
    const int last = std::min(n, static_cast<int>(mean + width * spread) + 2);
    const int mode = std::clamp(static_cast<int>(std::floor((n + 1) * q)), first, last);
    pmf.assign(last - first + 1, 0.0);
    pmf[mode - first] =
        std::exp(std::lgamma(n + 1.0) - std::lgamma(mode + 1.0) - std::lgamma(n - mode + 1.0) +
                 mode * std::log(q) + (n - mode) * std::log1p(-q));
    const double odds = q / (1.0 - q);
    for (int c = mode; c < last; ++c)
      pmf[c + 1 - first] = pmf[c - first] * (n - c) / (c + 1.0) * odds;
    for (int c = mode; c > first; --c)
      pmf[c - 1 - first] = pmf[c - first] * c / (n - c + 1.0) / odds;
  }
  // E[cdf(offset + count − 1)], cdf over 0 … 999 (0 below, 1 above).
  double expectCdf(const std::vector<double>& cdf, int offset) const {
    double sum = 0.0;
    for (std::size_t j = 0; j < pmf.size(); ++j) {
      const int index = offset + first + static_cast<int>(j) - 1;
      sum += pmf[j] * (index < 0 ? 0.0 : index >= 999 ? 1.0 : cdf[index]);
    }
    return sum;
  }
};

double Phi(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// Per-step masses m[k] (k = 1 … 1000: the trained t in ((k − 1)/1000, k/1000]) from the tail
// P(timestep > k), as a density per unit t.
double cellDensity(double t, const std::vector<double>& masses) {
  if (!(t > 0.0 && t <= 1.0)) return 0.0;
  const int k = std::clamp(static_cast<int>(std::ceil(1000.0 * t)), 1, 1000);
  return 1000.0 * masses[k];
}

// A multistage draw's probability per timestep cell k = 0 … 1000 from each expert's
// P(T_drawn ≥ k), k = 0 … 1001, the experts sharing the steps; computed once per grid, law and
// thread (up to a second): a fit evaluates it at many points.
const std::vector<double>& expertMasses(int grid, IndexStyle style, const ExpertSplit& split,
                                        const std::function<std::vector<double>(bool)>& atLeast) {
  using Key = std::tuple<int, int, double, bool, bool>;
  thread_local std::map<Key, std::vector<double>> cache;
  auto [it, inserted] =
      cache.try_emplace(Key{grid, static_cast<int>(style), split.boundary, split.high, split.low});
  if (inserted) {
    std::vector<double> tail(1002, 0.0);
    const double share = split.high && split.low ? 0.5 : 1.0;
    for (const bool high : {true, false}) {
      if (high ? !split.high : !split.low) continue;
      const std::vector<double> one = atLeast(high);
      for (int k = 0; k <= 1001; ++k) tail[k] += share * one[k];
    }
    it->second.assign(1001, 0.0);
    for (int k = 0; k <= 1000; ++k) it->second[k] = std::max(tail[k] - tail[k + 1], 0.0);
  }
  return it->second;
}

}  // namespace

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
  for (int j = from; j < to; ++j) sum += law.probability(terms.first + j) * terms.value[j];
  return sum;
}

namespace {

// The sigmoid grid's timesteps T = 1000·(1 − sigmoid(z)) are continuous: P(T > s).
double sigmoidAbove(double s) {
  if (s <= 0.0) return 1.0;
  if (s >= 1000.0) return 0.0;
  const double u = 1.0 - s / 1000.0;
  return Phi(std::log(u / (1.0 - u)));
}

// One expert's P(T_drawn > k), k = 0 … 1000. With A of the 1000 entries above the boundary B
// (Binomial(1000, P(T > B))), those A are independent draws above B and the rest below it. The
// window is counted off the grid as adjust_multistage_timesteps does: the high expert draws from
// [0, A − 1] (#(T ≥ 1000) = 0), the low one from [A − 1, 999] (#(T > 0) = 1000), and an empty
// count gives the code's [0, 999]. C_k is then Binomial(A, P(T > k | T > B)) for k ≥ B and
// A + Binomial(1000 − A, P(k < T ≤ B | T ≤ B)) below it.
std::vector<double> sigmoidExpertTail(IndexStyle style, double boundary, bool high) {
  constexpr int n = 1000;
  const double b = 1000.0 * boundary, p = sigmoidAbove(b);
  std::vector<double> tail(1001, 0.0);
  const Binomial above(n, p);
  for (std::size_t j = 0; j < above.pmf.size(); ++j) {
    const int a = above.first + static_cast<int>(j);
    if (above.pmf[j] < 1e-300) continue;
    IndexLaw window{style};
    if (high && a >= 1) window.hi = a - 1;
    if (!high && a < n) window.lo = std::max(a - 1, 0);
    const std::vector<double> cdf = indexCdf(window);
    for (int k = 0; k <= 1000; ++k) {
      const double q = sigmoidAbove(k);
      const double atK = k >= b
                             ? Binomial(a, a > 0 ? q / p : 0.0).expectCdf(cdf, 0)
                             : Binomial(n - a, a < n ? (q - p) / (1.0 - p) : 0.0).expectCdf(cdf, a);
      tail[k] += above.pmf[j] * atK;
    }
  }
  return tail;
}

}  // namespace

double sigmoidExpertGridDensity(double t, IndexStyle style, const ExpertSplit& split) {
  // The grid's T is continuous: P(T ≥ k) of a cell's draws is P(T > k − 1).
  return cellDensity(t, expertMasses(0, style, split, [&](bool high) {
                       const std::vector<double> above =
                           sigmoidExpertTail(style, split.boundary, high);
                       std::vector<double> atLeast(1002, 0.0);
                       atLeast[0] = 1.0;
                       for (int k = 1; k <= 1001; ++k) atLeast[k] = above[k - 1];
                       return atLeast;
                     }));
}

// lognorm_blend (custom_flowmatch_sampler.py set_train_timesteps): each step a fresh grid of 750
// draws X ~ LogNormal(0, 0.333) mapped to (1 − X/max X)·1000 and the 250 values of
// linspace(1000, 1, 250), sorted descending and truncated to integer timesteps k (t = k/1000).
// The largest X is always k = 0. Given the maximum M = e^{0.333·Z_max} (Z_max the largest of 750
// standard normals) the other 749 draws are independent and below it:
// P(X/M ≤ r | Z_max) = Φ(Z_max + ln r/0.333)/Φ(Z_max).
namespace {
namespace lognorm {

constexpr int kLognormal = 750, kLinear = 250;
constexpr double kScale = 0.333;

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

// P(C_v = c) for v = 0 … 1000: C_v = fixedAtLeast(v) + Binomial(749, atLeast(v, Z_max)), Z_max
// integrated out; computed once, then any index law's masses are one sum per v.
struct CountLaw {
  int first = 0;
  std::vector<double> pmf;
};

const std::vector<CountLaw>& countLaws() {
  static const std::vector<CountLaw> laws = [] {
    const MaxLaw law(200, 1.0, 5.5);  // Z_max lies in [1, 5.5] but for < 10⁻⁹
    constexpr int n = kLognormal - 1;
    std::vector<CountLaw> out(1001);
    for (int v = 0; v <= 1000; ++v) {
      std::vector<double> pmf(n + 1, 0.0);
      for (std::size_t i = 0; i < law.z.size(); ++i) {
        const Binomial count(n, std::clamp(atLeast(v, law.z[i]), 0.0, 1.0));
        for (std::size_t j = 0; j < count.pmf.size(); ++j)
          pmf[count.first + j] += law.weight[i] * count.pmf[j];
      }
      int lo = 0, hi = n;
      while (lo < n && pmf[lo] < 1e-300) ++lo;
      while (hi > lo && pmf[hi] < 1e-300) --hi;
      out[v].first = fixedAtLeast(v) + lo;
      out[v].pmf.assign(pmf.begin() + lo, pmf.begin() + hi + 1);
    }
    return out;
  }();
  return laws;
}

// Probability per timestep k = 0 … 1000 of the draw under `law` (k = 0 is σ = 0: no log σ).
std::vector<double> masses(const IndexLaw& law) {
  const std::vector<double> cdf = indexCdf(law);
  std::vector<double> tail(1002, 0.0);  // P(timestep ≥ v)
  for (int v = 0; v <= 1000; ++v) {
    const CountLaw& count = countLaws()[v];
    double sum = 0.0;
    for (std::size_t j = 0; j < count.pmf.size(); ++j) {
      const int index = count.first + static_cast<int>(j) - 1;
      sum += count.pmf[j] * (index < 0 ? 0.0 : index >= 999 ? 1.0 : cdf[index]);
    }
    tail[v] = sum;
  }
  std::vector<double> m(1001, 0.0);
  for (int k = 0; k <= 1000; ++k) m[k] = std::max(tail[k] - tail[k + 1], 0.0);
  return m;
}

// A multistage model's experts on the lognorm_blend grid (adjust_multistage_timesteps counts
// the windows off each step's grid). Given Z_max the 749 other lognormal entries are independent,
// so with A entries at or above the boundary and D at timestep 0 the windows are fixed: the high
// expert takes [0, #(T > B) − 1] (the linear 1000 is the only T ≥ 1000), all above B; the low
// one [#(T ≥ B) − 1, #(T > 0) − 1]. Below the boundary the count C_v adds a binomial of the
// entries in [v, B) to those at or above it; above it, a binomial of those A. P(T_drawn ≥ v) is
// E[P(index ≤ C_v − 1)] over Z_max, A, D and that binomial.
int linearAtLeast(int v) {
  return fixedAtLeast(v) - (v <= 0 ? 1 : 0);
}

std::vector<double> expertTail(IndexStyle style, double boundary, bool high) {
  constexpr int n = kLognormal - 1;
  const int b = static_cast<int>(std::ceil(1000.0 * boundary));           // T ≥ b: at or above B
  const int above = static_cast<int>(std::floor(1000.0 * boundary)) + 1;  // T > B
  const int edge = high ? above : b;  // the entries the window is counted at
  const MaxLaw law(40, 1.5, 5.5);     // Z_max lies in [1.5, 5.5] but for < 10⁻⁶
  double weightSum = 0.0;
  for (double w : law.weight) weightSum += w;
  std::vector<double> tail(1002, 0.0);
  for (std::size_t zi = 0; zi < law.z.size(); ++zi) {
    const double z = law.z[zi], weight = law.weight[zi] / weightSum;
    if (weight < 1e-12) continue;
    const double pEdge = std::clamp(atLeast(edge, z), 0.0, 1.0);
    const double pZero = std::clamp(1.0 - atLeast(1, z), 0.0, 1.0);
    const double pPositiveBelow = std::max(atLeast(1, z) - pEdge, 0.0);  // T in [1, edge)
    const Binomial count(n, pEdge);
    for (std::size_t ai = 0; ai < count.pmf.size(); ++ai) {
      const int a = count.first + static_cast<int>(ai);
      if (weight * count.pmf[ai] < 1e-7) continue;
      // D matters to the low expert's upper end only.
      const Binomial zeros(high ? 0 : n - a, pZero / std::max(1.0 - pEdge, 1e-300));
      for (std::size_t di = 0; di < zeros.pmf.size(); ++di) {
        const int d = zeros.first + static_cast<int>(di);
        const double p = weight * count.pmf[ai] * zeros.pmf[di];
        if (p < 1e-7) continue;
        const int counted = linearAtLeast(edge) + a;  // #(T > B) or #(T ≥ B)
        const int positive = kLinear + n - d;         // #(T > 0)
        IndexLaw window{style};
        if (high ? counted > 1 : positive > counted) {
          window.lo = high ? 0 : std::max(counted - 1, 0);
          window.hi = std::min((high ? counted : positive) - 1, 999);
        }
        const std::vector<double> cdf = indexCdf(window);
        Binomial inner;  // reused for every level v
        tail[0] += p;
        for (int v = 1; v <= 1000; ++v) {
          double atV;
          if (v >= edge) {
            const double q = pEdge > 0.0 ? atLeast(v, z) / pEdge : 0.0;
            inner.assign(a, std::clamp(q, 0.0, 1.0), 8.0);
            atV = inner.expectCdf(cdf, linearAtLeast(v));
          } else if (high) {
            atV = 1.0;  // every entry of the window lies above B
          } else {
            const double q = pPositiveBelow > 0.0 ? (atLeast(v, z) - pEdge) / pPositiveBelow : 0.0;
            inner.assign(n - a - d, std::clamp(q, 0.0, 1.0), 8.0);
            atV = inner.expectCdf(cdf, linearAtLeast(v) + a);
          }
          tail[v] += p * atV;
        }
      }
    }
  }
  // The cuts above leave out about 10⁻⁵ of the probability: spread back proportionally.
  const double kept = tail[0];
  for (auto& v : tail) v /= kept;
  return tail;
}

}  // namespace lognorm
}  // namespace

// Timestep k's probability spread over the table cell ((k − 1)/1000, k/1000] that trains at
// t = k/1000. A fit tries many windows: the masses are kept per law and thread.
double lognormBlendDensity(double t, const IndexLaw& law) {
  if (!(t > 0.0 && t <= 1.0)) return 0.0;
  using Key = std::tuple<int, int, int, int, int>;
  thread_local std::map<Key, std::vector<double>> cache;
  const Key key{static_cast<int>(law.style), law.lo, law.hi, law.lo2, law.hi2};
  auto it = cache.find(key);
  if (it == cache.end()) {
    if (cache.size() > 256) cache.clear();
    it = cache.emplace(key, lognorm::masses(law)).first;
  }
  return cellDensity(t, it->second);
}

double lognormBlendExpertDensity(double t, IndexStyle style, const ExpertSplit& split) {
  return cellDensity(t, expertMasses(1, style, split, [&](bool high) {
                       return lognorm::expertTail(style, split.boundary, high);
                     }));
}

}  // namespace noisescope::schedule::trainers::aitk
