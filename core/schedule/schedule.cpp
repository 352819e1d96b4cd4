#include "schedule/schedule.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "util/error.h"

namespace noisescope::schedule {

// ---------------------------------------------------------------------------------------- grid

LogSigmaGrid LogSigmaGrid::uniform(double sigmaMin, double sigmaMax, int bins) {
  if (!(sigmaMin > 0.0) || !(sigmaMax > sigmaMin) || !std::isfinite(sigmaMax))
    throw InputError("grid", "need 0 < σ_min < σ_max < ∞");
  if (bins < 1 || bins > 10000000) throw InputError("grid", "bin count must be in [1, 1e7]");
  LogSigmaGrid grid;
  grid.edges.resize(bins + 1);
  const double a = std::log(sigmaMin), b = std::log(sigmaMax);
  for (int i = 0; i <= bins; ++i) grid.edges[i] = a + (b - a) * i / bins;
  grid.edges.back() = b;
  return grid;
}

namespace {
constexpr double kMaxAbsLogSigma = 230.2585;  // ln 1e100
}  // namespace

void LogSigmaGrid::validate(const std::string& source) const {
  if (edges.size() < 2) throw InputError(source, "a grid needs at least one bin (two edges)");
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!std::isfinite(edges[i])) throw InputError(source, "grid edge is not finite");
    // σ, σ² and the loss weights built from them must stay finite doubles: σ within 1e±100.
    if (std::fabs(edges[i]) > kMaxAbsLogSigma)
      throw InputError(source, "grid edge log σ = " + std::to_string(edges[i]) +
                                   " lies outside [−230, 230] (σ from 1e−100 to 1e100)");
    if (i > 0 && !(edges[i] > edges[i - 1]))
      throw InputError(source, "grid edges must be strictly increasing");
  }
}

double LogSigmaGrid::sigmaMin() const {
  return std::exp(edges.front());
}
double LogSigmaGrid::sigmaMax() const {
  return std::exp(edges.back());
}

std::vector<double> LogSigmaGrid::centers() const {
  std::vector<double> out(bins());
  for (int b = 0; b < bins(); ++b) out[b] = center(b);
  return out;
}

std::vector<double> LogSigmaGrid::densities(const std::vector<double>& masses) const {
  std::vector<double> out(masses.size());
  for (size_t b = 0; b < masses.size(); ++b) out[b] = masses[b] / width(static_cast<int>(b));
  return out;
}

std::vector<double> LogSigmaGrid::sigmaCenters() const {
  std::vector<double> out = centers();
  for (double& v : out) v = std::exp(v);
  return out;
}

int LogSigmaGrid::binOf(double logSigma) const {
  if (edges.size() < 2 || !(logSigma >= edges.front()) || !(logSigma <= edges.back())) return -1;
  const auto it = std::upper_bound(edges.begin(), edges.end(), logSigma);
  const int bin = static_cast<int>(it - edges.begin()) - 1;
  return std::min(bin, bins() - 1);
}

// ---------------------------------------------------------------------------------------- info

double ScheduleInfo::parameter(const std::string& name, double fallback) const {
  for (const auto& [key, value] : parameters)
    if (key == name) return value;
  return fallback;
}

std::string ScheduleInfo::note(const std::string& name, const std::string& fallback) const {
  for (const auto& [key, value] : notes)
    if (key == name) return value;
  return fallback;
}

void ScheduleInfo::setParameter(const std::string& name, double value) {
  for (auto& [key, old] : parameters)
    if (key == name) {
      old = value;
      return;
    }
  parameters.emplace_back(name, value);
}

void ScheduleInfo::setNote(const std::string& name, const std::string& value) {
  for (auto& [key, old] : notes)
    if (key == name) {
      old = value;
      return;
    }
  notes.emplace_back(name, value);
}

// ------------------------------------------------------------------------------- construction

namespace {
double checkedTotal(const std::vector<double>& values, const char* what) {
  double total = 0.0;
  for (double v : values) {
    if (!std::isfinite(v) || v < 0.0)
      throw InputError("schedule", std::string(what) + " must be finite and ≥ 0");
    total += v;
  }
  if (!(total > 0.0)) throw InputError("schedule", std::string(what) + " sum to zero");
  return total;
}
}  // namespace

Schedule Schedule::fromBinMasses(LogSigmaGrid grid, std::vector<double> masses) {
  grid.validate("schedule grid");
  if (static_cast<int>(masses.size()) != grid.bins())
    throw InputError("schedule", "need one mass per grid bin");
  const double total = checkedTotal(masses, "bin masses");
  for (double& m : masses) m /= total;
  Schedule s;
  s.grid_ = std::move(grid);
  s.masses_ = std::move(masses);
  s.sigmaMin_ = s.grid_.sigmaMin();
  s.sigmaMax_ = s.grid_.sigmaMax();
  s.buildCumulative();
  return s;
}

Schedule Schedule::fromAtoms(std::vector<Atom> atoms, double sigmaMin, double sigmaMax) {
  if (atoms.empty()) throw InputError("schedule", "an atomic schedule needs at least one atom");
  if (!(sigmaMin > 0.0) || !(sigmaMax >= sigmaMin) || !std::isfinite(sigmaMax))
    throw InputError("schedule", "need 0 < σ_min ≤ σ_max < ∞");
  std::vector<double> weights;
  for (const Atom& a : atoms) {
    if (!(a.sigma > 0.0) || !std::isfinite(a.sigma))
      throw InputError("schedule", "atom σ must be finite and > 0");
    if (a.sigma < sigmaMin * (1 - 1e-12) || a.sigma > sigmaMax * (1 + 1e-12))
      throw InputError("schedule", "atom σ lies outside [σ_min, σ_max]");
    weights.push_back(a.weight);
  }
  const double total = checkedTotal(weights, "atom weights");
  std::sort(atoms.begin(), atoms.end(),
            [](const Atom& a, const Atom& b) { return a.sigma < b.sigma; });
  Schedule s;
  s.atomic_ = true;
  for (const Atom& a : atoms) {
    if (!s.atoms_.empty() && s.atoms_.back().sigma == a.sigma)
      s.atoms_.back().weight += a.weight / total;
    else
      s.atoms_.push_back({a.sigma, a.weight / total});
  }
  s.sigmaMin_ = sigmaMin;
  s.sigmaMax_ = sigmaMax;
  s.buildCumulative();
  return s;
}

void Schedule::buildCumulative() {
  const std::size_t n = atomic_ ? atoms_.size() : masses_.size();
  cumulative_.assign(atomic_ ? n : n + 1, 0.0);
  double running = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    running += atomic_ ? atoms_[i].weight : masses_[i];
    cumulative_[atomic_ ? i : i + 1] = running;
  }
  // Exactly 1 at the top so that u → 1 lands on the last edge / atom.
  if (!cumulative_.empty()) cumulative_.back() = 1.0;
}

// ---------------------------------------------------------------------------------- evaluation

double Schedule::densityLogSigma(double logSigma) const {
  if (atomic_) return 0.0;
  const int bin = grid_.binOf(logSigma);
  return bin < 0 ? 0.0 : masses_[bin] / grid_.width(bin);
}

double Schedule::density(double sigma, Coordinate coordinate, const VpParameters& vp) const {
  const double ell = std::log(sigma);
  return densityIn(coordinate, densityLogSigma(ell), ell, vp);
}

double Schedule::cdfLogSigma(double logSigma) const {
  if (atomic_) {
    // Number of atoms at or below ℓ.
    const auto it = std::upper_bound(atoms_.begin(), atoms_.end(), logSigma,
                                     [](double x, const Atom& a) { return x < std::log(a.sigma); });
    const std::size_t k = static_cast<std::size_t>(it - atoms_.begin());
    return k == 0 ? 0.0 : cumulative_[k - 1];
  }
  if (logSigma <= grid_.logSigmaMin()) return 0.0;
  if (logSigma >= grid_.logSigmaMax()) return 1.0;
  const int bin = grid_.binOf(logSigma);
  const double fraction = (logSigma - grid_.edges[bin]) / grid_.width(bin);
  return cumulative_[bin] + fraction * masses_[bin];
}

double Schedule::cdfSigma(double sigma) const {
  if (!(sigma > 0.0)) return 0.0;
  return cdfLogSigma(std::log(sigma));
}

double Schedule::quantileLogSigma(double u) const {
  u = std::clamp(std::isfinite(u) ? u : 0.0, 0.0, 1.0);
  if (atomic_) {
    const auto it = std::lower_bound(cumulative_.begin(), cumulative_.end(), u);
    const std::size_t k = std::min<std::size_t>(it - cumulative_.begin(), atoms_.size() - 1);
    return std::log(atoms_[k].sigma);
  }
  // First edge whose cumulative exceeds u; the bin before it has positive mass.
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
  if (it == cumulative_.end()) {
    // u = 1: the top of the last bin with mass.
    int bin = grid_.bins() - 1;
    while (bin > 0 && masses_[bin] <= 0.0) --bin;
    return grid_.edges[bin + 1];
  }
  const int bin = std::max(0, static_cast<int>(it - cumulative_.begin()) - 1);
  const double mass = masses_[bin];
  const double fraction = mass > 0.0 ? (u - cumulative_[bin]) / mass : 0.0;
  return grid_.edges[bin] + std::clamp(fraction, 0.0, 1.0) * grid_.width(bin);
}

double Schedule::quantileSigma(double u) const {
  if (atomic_) {
    // The atom's σ itself, not exp(log σ), so that draws equal the atoms exactly.
    u = std::clamp(std::isfinite(u) ? u : 0.0, 0.0, 1.0);
    const auto it = std::lower_bound(cumulative_.begin(), cumulative_.end(), u);
    return atoms_[std::min<std::size_t>(it - cumulative_.begin(), atoms_.size() - 1)].sigma;
  }
  return std::exp(quantileLogSigma(u));
}

void Schedule::sampleSigmas(const double* uniforms, double* sigmas, std::size_t count) const {
  for (std::size_t i = 0; i < count; ++i) sigmas[i] = quantileSigma(uniforms[i]);
}

std::vector<double> Schedule::sampleSigmas(const std::vector<double>& uniforms) const {
  std::vector<double> out(uniforms.size());
  sampleSigmas(uniforms.data(), out.data(), uniforms.size());
  return out;
}

std::vector<double> Schedule::massesOn(const LogSigmaGrid& grid) const {
  grid.validate("target grid");
  std::vector<double> out(grid.bins(), 0.0);
  if (atomic_) {
    for (const Atom& a : atoms_) {
      const int bin = grid.binOf(std::log(a.sigma));
      if (bin >= 0) out[bin] += a.weight;
    }
    return out;
  }
  // Overlap of every source bin with every target bin (a merge of the two sorted edge lists), so
  // tiny tail masses survive instead of cancelling in CDF differences.
  int source = 0, target = 0;
  while (source < grid_.bins() && target < grid.bins()) {
    const double lo = std::max(grid_.edges[source], grid.edges[target]);
    const double hi = std::min(grid_.edges[source + 1], grid.edges[target + 1]);
    if (hi > lo) out[target] += masses_[source] * (hi - lo) / grid_.width(source);
    if (grid_.edges[source + 1] < grid.edges[target + 1])
      ++source;
    else
      ++target;
  }
  return out;
}

Schedule Schedule::truncated(double sigmaMin, double sigmaMax, double* lostMass) const {
  if (!(sigmaMin > 0.0) || !(sigmaMax > sigmaMin))
    throw InputError("truncation", "need 0 < σ_min < σ_max");
  const double lo = std::log(sigmaMin), hi = std::log(sigmaMax);
  Schedule result;
  double kept = 0.0;
  if (atomic_) {
    std::vector<Atom> inside;
    for (const Atom& a : atoms_)
      if (a.sigma >= sigmaMin && a.sigma <= sigmaMax) {
        inside.push_back(a);
        kept += a.weight;
      }
    if (inside.empty()) throw InputError("truncation", "no atom lies inside [σ_min, σ_max]");
    result = fromAtoms(std::move(inside), sigmaMin, sigmaMax);
  } else {
    LogSigmaGrid grid;
    grid.edges.push_back(lo);
    for (double e : grid_.edges)
      if (e > lo && e < hi) grid.edges.push_back(e);
    grid.edges.push_back(hi);
    std::vector<double> masses = massesOn(grid);
    for (double m : masses) kept += m;
    if (!(kept > 0.0)) throw InputError("truncation", "no probability inside [σ_min, σ_max]");
    result = fromBinMasses(std::move(grid), std::move(masses));
  }
  result.info = info;
  result.lossWeight = lossWeight;
  const double lost = std::max(0.0, 1.0 - kept);
  // Lost mass compounds with what the family already lost at its own truncation.
  result.info.truncatedMass = 1.0 - (1.0 - info.truncatedMass) * (1.0 - lost);
  if (lostMass) *lostMass = lost;
  return result;
}

}  // namespace noisescope::schedule
