// Grid search + Nelder–Mead over a family's 0–2 parameters, in each parameter's own bounds (a
// log-scale parameter searched in log), minimising KL(target ‖ family) on the grid.
#include "schedule/trainer_fit.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "util/error.h"

namespace noisescope::schedule {
namespace {

constexpr int kMidpoints = 8;

// Search coordinates x ∈ [0, 1] per parameter, mapped to the parameter's range.
std::vector<double> toParameters(const TrainerFamily& family, const std::vector<double>& x) {
  std::vector<double> p(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto& d = family.parameters[i];
    const double f = std::clamp(x[i], 0.0, 1.0);
    p[i] = d.logScale ? std::exp(std::log(d.lower) + f * (std::log(d.upper) - std::log(d.lower)))
                      : d.lower + f * (d.upper - d.lower);
  }
  return p;
}

int binOf(const LogSigmaGrid& grid, double ell) {
  if (!(ell >= grid.edges.front() && ell < grid.edges.back())) return -1;
  return static_cast<int>(std::upper_bound(grid.edges.begin(), grid.edges.end(), ell) -
                          grid.edges.begin()) -
         1;
}

// What φ's quadrature needs of the tool and the grid but not of the knobs: worked out once per
// fit rather than at each of its ~10³ candidates (the σ, Jacobians and loss factors cost more
// than most densities). Each value is computed by the same expression as before, so φ is
// unchanged to the bit.
struct QuadraturePoints {
  // A continuous tool: kMidpoints points per bin.
  struct Point {
    double sigma, jacobian, u, lossToX0;
  };
  std::vector<Point> points;
  // A quantising tool: its table cells whose trained value lies in a bin, with their two
  // Gauss–Legendre nodes.
  struct Cell {
    int bin;
    double width, lowNode, highNode, sigma, lossToX0;
  };
  std::vector<Cell> cells;
};

QuadraturePoints quadraturePoints(const TrainerTool& tool, const TrainerFamily& family,
                                  const LogSigmaGrid& grid) {
  QuadraturePoints q;
  if (family.atoms) return q;  // the atoms move with the knobs
  if (!tool.tableEdges.empty()) {
    const auto& e = tool.tableEdges;
    constexpr double kNode = 0.21132486540518713;  // (1 − 1/√3)/2
    for (std::size_t j = 0; j + 1 < e.size(); ++j) {
      const double sigma = trainerSigma(tool.tableAtUpper ? e[j + 1] : e[j], tool.coordinate);
      if (!(sigma > 0.0) || !std::isfinite(sigma)) continue;
      const int b = binOf(grid, std::log(sigma));
      if (b < 0) continue;
      const double width = e[j + 1] - e[j];
      q.cells.push_back(
          {b, width, e[j] + kNode * width, e[j + 1] - kNode * width, sigma, tool.lossToX0(sigma)});
    }
    return q;
  }
  for (int b = 0; b < grid.bins(); ++b) {
    const double h = grid.width(b) / kMidpoints;
    for (int j = 0; j < kMidpoints; ++j) {
      const double ell = grid.edges[b] + (j + 0.5) * h;
      const double jacobian = trainerUnitsPerLogSigma(ell, tool.coordinate);
      const double sigma = std::exp(ell);
      const bool inside = jacobian > 0.0;
      q.points.push_back({sigma, jacobian, inside ? trainerCoordinate(sigma, tool.coordinate) : 0.0,
                          inside ? tool.lossToX0(sigma) : 0.0});
    }
  }
  return q;
}

// φ per bin (familyAllocationMasses) with the knob-free parts from `q`.
std::vector<double> allocationMasses(const TrainerTool& tool, const TrainerFamily& family,
                                     const std::vector<double>& p, const LogSigmaGrid& grid,
                                     const QuadraturePoints& q) {
  std::vector<double> masses(grid.bins(), 0.0);
  if (family.atoms) {
    for (const auto& [u, probability] : family.atoms(p)) {
      const double sigma = trainerSigma(u, tool.coordinate);
      const int b = sigma > 0.0 && std::isfinite(sigma) ? binOf(grid, std::log(sigma)) : -1;
      if (b >= 0 && probability > 0.0)
        masses[b] += probability * trainerX0Weight(tool, family, p, sigma);
    }
  } else if (!tool.tableEdges.empty()) {
    // A quantising tool: each cell's probability (two-point Gauss–Legendre in the coordinate)
    // times the weight at the value the tool trains, in the bin of that value.
    for (const auto& c : q.cells) {
      const double probability =
          0.5 * c.width * (family.density(c.lowNode, p) + family.density(c.highNode, p));
      if (probability > 0.0)
        masses[c.bin] += probability * (family.toolWeight(c.sigma, p) * c.lossToX0);
    }
  } else {
    // trainerDensityLogSigma and trainerX0Weight at each midpoint, the knob-free factors read.
    for (int b = 0; b < grid.bins(); ++b) {
      const double h = grid.width(b) / kMidpoints;
      double m = 0.0;
      for (int j = 0; j < kMidpoints; ++j) {
        const auto& point = q.points[b * kMidpoints + j];
        if (!(point.jacobian > 0.0)) continue;
        const double density = family.density(point.u, p);
        const double d = std::isfinite(density) && density > 0.0 ? density * point.jacobian : 0.0;
        if (d > 0.0) m += d * (family.toolWeight(point.sigma, p) * point.lossToX0) * h;
      }
      masses[b] = m;
    }
  }
  double total = 0.0;
  for (auto& m : masses) {
    if (!std::isfinite(m)) m = 0.0;
    total += m;
  }
  if (total > 0.0)
    for (auto& m : masses) m /= total;
  return masses;
}

// The bins' masses summed per group.
std::vector<double> grouped(const std::vector<double>& masses, const std::vector<int>& groups) {
  std::vector<double> out(groups.empty() ? 0 : groups.back() + 1, 0.0);
  for (std::size_t b = 0; b < masses.size(); ++b) out[groups[b]] += masses[b];
  return out;
}

struct Objective {
  const TrainerTool& tool;
  const TrainerFamily& family;
  const LogSigmaGrid& grid;
  const std::vector<int>& groups;
  const std::vector<double>& groupedTarget;
  const QuadraturePoints& points;
  int evaluations = 0;
  double operator()(const std::vector<double>& x) {
    ++evaluations;
    return flooredKl(
        groupedTarget,
        grouped(allocationMasses(tool, family, toParameters(family, x), grid, points), groups));
  }
};

// Nelder–Mead in the unit box (points clamped into it), from `start` with step `step`.
std::vector<double> nelderMead(Objective& f, std::vector<double> start, double step) {
  const std::size_t n = start.size();
  std::vector<std::vector<double>> simplex{start};
  for (std::size_t i = 0; i < n; ++i) {
    auto v = start;
    v[i] = std::clamp(v[i] + (v[i] + step <= 1.0 ? step : -step), 0.0, 1.0);
    simplex.push_back(v);
  }
  std::vector<double> values;
  for (auto& v : simplex) values.push_back(f(v));
  auto clampBox = [](std::vector<double> v) {
    for (auto& c : v) c = std::clamp(c, 0.0, 1.0);
    return v;
  };
  for (int iteration = 0; iteration < 400; ++iteration) {
    std::vector<std::size_t> order(n + 1);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return values[a] < values[b]; });
    const auto best = order.front(), worst = order.back(), second = order[n - 1];
    double spread = 0.0;
    for (const auto& v : simplex)
      for (std::size_t i = 0; i < n; ++i)
        spread = std::max(spread, std::abs(v[i] - simplex[best][i]));
    if (spread < 1e-7) break;
    std::vector<double> centroid(n, 0.0);
    for (auto k : order)
      if (k != worst)
        for (std::size_t i = 0; i < n; ++i) centroid[i] += simplex[k][i] / n;
    auto along = [&](double a) {
      std::vector<double> v(n);
      for (std::size_t i = 0; i < n; ++i)
        v[i] = centroid[i] + a * (simplex[worst][i] - centroid[i]);
      return clampBox(v);
    };
    const auto reflected = along(-1.0);
    const double fr = f(reflected);
    if (fr < values[best]) {
      const auto expanded = along(-2.0);
      const double fe = f(expanded);
      if (fe < fr)
        simplex[worst] = expanded, values[worst] = fe;
      else
        simplex[worst] = reflected, values[worst] = fr;
    } else if (fr < values[second]) {
      simplex[worst] = reflected, values[worst] = fr;
    } else {
      const auto contracted = along(fr < values[worst] ? -0.5 : 0.5);
      const double fc = f(contracted);
      if (fc < std::min(fr, values[worst])) {
        simplex[worst] = contracted, values[worst] = fc;
      } else {  // shrink towards the best
        for (std::size_t k = 0; k <= n; ++k) {
          if (k == best) continue;
          for (std::size_t i = 0; i < n; ++i)
            simplex[k][i] = simplex[best][i] + 0.5 * (simplex[k][i] - simplex[best][i]);
          values[k] = f(simplex[k]);
        }
      }
    }
  }
  const auto best = std::min_element(values.begin(), values.end()) - values.begin();
  return simplex[best];
}

}  // namespace

namespace {

// The values a quantising tool trains at, in its coordinate (the cell edge each cell maps to).
std::vector<double> tableValues(const TrainerTool& tool) {
  const auto& e = tool.tableEdges;
  std::vector<double> values;
  for (std::size_t j = 0; j + 1 < e.size(); ++j)
    values.push_back(tool.tableAtUpper ? e[j + 1] : e[j]);
  return values;
}

}  // namespace

TrainerTool toolFor(const TrainerTool& tool, const TrainerFamily& family) {
  if (!family.atoms) return tool;
  // The table at the family's initial knobs: where its atoms lie, for comparisonGroups.
  std::vector<double> p;
  for (const auto& q : family.parameters) p.push_back(q.initial);
  TrainerTool t = tool;
  t.tableEdges = {0.0};
  for (const auto& [u, probability] : family.atoms(p)) t.tableEdges.push_back(u);
  std::sort(t.tableEdges.begin(), t.tableEdges.end());
  t.tableAtUpper = true;
  return t;
}

std::vector<double> familyAllocationMasses(const TrainerTool& tool, const TrainerFamily& family,
                                           const std::vector<double>& p, const LogSigmaGrid& grid) {
  return allocationMasses(tool, family, p, grid, quadraturePoints(tool, family, grid));
}

std::vector<int> comparisonGroups(const TrainerTool& tool, const LogSigmaGrid& grid,
                                  int valuesPerGroup, int binsPerGroup) {
  std::vector<int> groups(grid.bins());
  // Table values per bin; a continuous tool's bins each count as full.
  std::vector<int> values(grid.bins(), tool.tableEdges.empty() ? valuesPerGroup : 0);
  for (double u : tableValues(tool)) {
    const double sigma = trainerSigma(u, tool.coordinate);
    const int b = sigma > 0.0 && std::isfinite(sigma) ? binOf(grid, std::log(sigma)) : -1;
    if (b >= 0) ++values[b];
  }
  // Between the first and the last bin holding a table value, a group runs up to and including
  // the bin that brings its count of values to valuesPerGroup, or that holds a value once it
  // spans binsPerGroup bins; outside that range every bin stays alone (unreachable).
  int first = 0, last = grid.bins() - 1;
  while (first < grid.bins() && values[first] == 0) ++first;
  while (last > first && values[last] == 0) --last;
  int group = 0, held = 0, span = 0;
  for (int b = 0; b < grid.bins(); ++b) {
    groups[b] = group;
    held += values[b];
    ++span;
    if (b < first || b >= last || held >= valuesPerGroup || (held > 0 && span >= binsPerGroup))
      ++group, held = 0, span = 0;
  }
  return groups;
}

double flooredKl(const std::vector<double>& p, const std::vector<double>& q) {
  double kl = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] > 0.0) kl += p[i] * std::log(p[i] / std::max(q[i], kMassFloor));
  return std::max(kl, 0.0);
}

namespace {
// The draw density per unit of the tool's coordinate whose φ under the family's loss is the
// target: φ per unit ℓ divided by the x0 weight and by du/dℓ (0 outside the grid). It refers to
// tool and family: use it while they live.
std::function<double(double)> targetDrawDensity(const TrainerTool& tool,
                                                const TrainerFamily& family,
                                                const LogSigmaGrid& grid,
                                                const std::vector<double>& target) {
  std::vector<double> initial;
  for (const auto& q : family.parameters) initial.push_back(q.initial);
  return [=, &tool, &family](double u) {
    const double sigma = trainerSigma(u, tool.coordinate);
    if (!(sigma > 0.0) || !std::isfinite(sigma)) return 0.0;
    const double ell = std::log(sigma);
    if (ell < grid.edges.front() || ell >= grid.edges.back()) return 0.0;
    const auto it = std::upper_bound(grid.edges.begin(), grid.edges.end(), ell);
    const int b = static_cast<int>(it - grid.edges.begin()) - 1;
    const double weight = trainerX0Weight(tool, family, initial, sigma);
    const double perUnit = trainerUnitsPerLogSigma(ell, tool.coordinate);
    if (!(weight > 0.0) || !(perUnit > 0.0)) return 0.0;
    return target[b] / grid.width(b) / weight / perUnit;
  };
}
}  // namespace

TrainerFamilyFit fitTrainerFamily(const TrainerTool& anyTool, const TrainerFamily& family,
                                  const LogSigmaGrid& grid, const std::vector<double>& target) {
  const TrainerTool tool = toolFor(anyTool, family);
  if (static_cast<int>(target.size()) != grid.bins())
    throw InputError("fit target", "the allocation has " + std::to_string(target.size()) +
                                       " bins, the grid " + std::to_string(grid.bins()));
  const std::vector<int> groups = comparisonGroups(tool, grid);
  const std::vector<double> groupedTarget = grouped(target, groups);
  const QuadraturePoints points = quadraturePoints(tool, family, grid);
  Objective objective{tool, family, grid, groups, groupedTarget, points};
  const std::size_t n = family.parameters.size();
  std::vector<double> x(n);
  std::vector<double> p;
  if (family.fromDrawDensity) {
    p = family.fromDrawDensity(targetDrawDensity(tool, family, grid, target));
  } else if (n > 0) {
    // Coarse grid over the unit box: 61 points in 1-D, 25² in 2-D, 9³ in 3-D.
    const int steps = n == 1 ? 61 : n == 2 ? 25 : 9;
    int total = 1;
    for (std::size_t i = 0; i < n; ++i) total *= steps;
    double best = INFINITY;
    std::vector<double> probe(n);
    for (int k = 0; k < total; ++k) {
      for (std::size_t i = 0, rest = k; i < n; ++i, rest /= steps)
        probe[i] = (rest % steps) / double(steps - 1);
      const double v = objective(probe);
      if (v < best) best = v, x = probe;
    }
    x = nelderMead(objective, x, 0.5 / (steps - 1));
  }
  if (!family.fromDrawDensity) p = toParameters(family, x);
  // Down to the step the tool reads (its own truncation, so φ is unchanged), as the snippet
  // prints it.
  for (std::size_t i = 0; i < p.size() && i < family.parameters.size(); ++i)
    if (const double step = family.parameters[i].quantum; step > 0.0)
      p[i] = std::floor(p[i] * (1.0 / step)) / (1.0 / step);
  return evaluateTrainerFamily(tool, family, p, grid, target);
}

TrainerFamilyFit evaluateTrainerFamily(const TrainerTool& anyTool, const TrainerFamily& family,
                                       const std::vector<double>& p, const LogSigmaGrid& grid,
                                       const std::vector<double>& target) {
  const TrainerTool tool = toolFor(anyTool, family);
  const std::vector<int> groups = comparisonGroups(tool, grid);
  const std::vector<double> groupedTarget = grouped(target, groups);
  TrainerFamilyFit fit;
  fit.family = family.name;
  for (std::size_t i = 0; i < p.size(); ++i) {
    // A list-valued knob may hold more or fewer entries than the family's default count.
    const std::string& name = family.parameters[std::min(i, family.parameters.size() - 1)].name;
    const auto bracket = name.find('[');
    fit.parameters.emplace_back(bracket == std::string::npos
                                    ? name
                                    : name.substr(0, bracket) + "[" + std::to_string(i) + "]",
                                p[i]);
  }
  fit.masses = familyAllocationMasses(tool, family, p, grid);
  const std::vector<double> groupedFit = grouped(fit.masses, groups);
  fit.kl = flooredKl(groupedTarget, groupedFit);
  fit.klReverse = flooredKl(groupedFit, groupedTarget);
  for (std::size_t i = 0; i < groupedTarget.size(); ++i)
    fit.tv += 0.5 * std::abs(groupedTarget[i] - groupedFit[i]);
  fit.snippet = family.snippet(p);
  fit.note = family.note;
  return fit;
}

std::vector<TrainerFamilyFit> fitTrainerTool(const TrainerTool& tool, const LogSigmaGrid& grid,
                                             const std::vector<double>& target) {
  std::vector<TrainerFamilyFit> fits;
  for (const auto& family : tool.families)
    fits.push_back(fitTrainerFamily(tool, family, grid, target));
  std::stable_sort(fits.begin(), fits.end(),
                   [](const auto& a, const auto& b) { return a.kl < b.kl; });
  return fits;
}

}  // namespace noisescope::schedule
