#include "schedule/allocation.h"

#include <cmath>

#include "util/error.h"

namespace noisescope::schedule {

Schedule effectiveAllocation(const Schedule& sampling) {
  const LossWeight& w = sampling.lossWeight;
  Schedule out;
  if (sampling.isAtomic()) {
    std::vector<Atom> atoms = sampling.atoms();
    for (Atom& a : atoms)
      a.weight =
          w.kind == LossWeight::Kind::Elbo ? 1.0 / (a.sigma * a.sigma) : a.weight * w.at(a.sigma);
    out = Schedule::fromAtoms(std::move(atoms), sampling.sigmaMin(), sampling.sigmaMax());
  } else {
    const LogSigmaGrid& grid = sampling.grid();
    std::vector<double> masses(grid.bins());
    for (int b = 0; b < grid.bins(); ++b) {
      const double m = sampling.binMasses()[b];
      const double integral = w.integralOverLogSigma(grid.edges[b], grid.edges[b + 1]);
      if (w.kind == LossWeight::Kind::Elbo)
        masses[b] = m > 0.0 ? integral : 0.0;
      else
        masses[b] = m / grid.width(b) * integral;
    }
    out = Schedule::fromBinMasses(grid, std::move(masses));
  }
  out.info = sampling.info;
  out.info.kind = "allocation";
  out.info.setNote("allocation-of", sampling.info.kind);
  out.info.setNote("loss-weight", w.name());
  out.lossWeight = LossWeight{};
  return out;
}

Schedule samplingForAllocation(const Schedule& allocation, const LossWeight& w) {
  if (w.kind == LossWeight::Kind::Elbo)
    throw InputError("loss weight",
                     "with the ELBO weight π·w ∝ 1/σ² for every π, so no π realises "
                     "a chosen allocation; pick another weight");
  Schedule out;
  if (allocation.isAtomic()) {
    std::vector<Atom> atoms = allocation.atoms();
    for (Atom& a : atoms) a.weight /= w.at(a.sigma);
    out = Schedule::fromAtoms(std::move(atoms), allocation.sigmaMin(), allocation.sigmaMax());
  } else {
    const LogSigmaGrid& grid = allocation.grid();
    std::vector<double> masses(grid.bins());
    for (int b = 0; b < grid.bins(); ++b)
      masses[b] = allocation.binMasses()[b] * grid.width(b) /
                  w.integralOverLogSigma(grid.edges[b], grid.edges[b + 1]);
    out = Schedule::fromBinMasses(grid, std::move(masses));
  }
  out.info = allocation.info;
  out.lossWeight = w;
  return out;
}

const char* toString(Curve curve) {
  switch (curve) {
    case Curve::Sampling:
      return "pi";
    case Curve::Weight:
      return "w";
    case Curve::Allocation:
      return "phi";
    case Curve::Cdf:
      return "cdf";
  }
  return "?";
}

Curve curveFromString(const std::string& name, const std::string& source) {
  if (name == "pi" || name == "sampling") return Curve::Sampling;
  if (name == "w" || name == "weight") return Curve::Weight;
  if (name == "phi" || name == "allocation") return Curve::Allocation;
  if (name == "cdf") return Curve::Cdf;
  throw InputError(source, "unknown curve '" + name + "' (expected pi, w, phi or cdf)");
}

CurveTable evaluateCurves(const Schedule& schedule, const LogSigmaGrid& grid,
                          Coordinate coordinate) {
  grid.validate("grid");
  const Schedule phi = effectiveAllocation(schedule);
  const std::vector<double> piMass = schedule.massesOn(grid);
  const std::vector<double> phiMass = phi.massesOn(grid);
  double phiTotal = 0.0;
  for (double m : phiMass) phiTotal += m;
  CurveTable t;
  t.coordinate = coordinate;
  const int n = grid.bins();
  const std::vector<double> piDensities = grid.densities(piMass);
  for (int b = 0; b < n; ++b) {
    const double ell = grid.center(b), sigma = std::exp(ell);
    const double jac = logSigmaPerUnit(ell, coordinate);
    const double piDensity = piDensities[b];
    t.sigma.push_back(sigma);
    t.coordinateValue.push_back(fromLogSigma(ell, coordinate));
    t.sampling.push_back(piDensity * jac);
    t.weight.push_back(schedule.lossWeight.at(sigma, piDensity));
    t.allocation.push_back(phiTotal > 0 ? phiMass[b] / phiTotal / grid.width(b) * jac : 0.0);
    t.cdf.push_back(schedule.cdfLogSigma(ell));
    t.allocationCdf.push_back(phi.cdfLogSigma(ell));
  }
  return t;
}

}  // namespace noisescope::schedule
