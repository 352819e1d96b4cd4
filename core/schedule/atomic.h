#pragma once
// Atomic schedules (THEORY §7): the allocation over a grid of candidate levels that minimises the
// asymptotic excess risk R(π) = tr(A·M(π)⁻¹) of a shared model in the well-specified ("Fisher")
// regime, with M(π) = Σ π_g·w_g·H_g and target A = Σ ν_g·H_g.
#include <string>
#include <vector>

#include "schedule/design.h"
#include "schedule/information.h"
#include "schedule/schedule.h"

namespace noisescope::schedule {

struct AtomicOptions {
  // w_g: the loss weight training uses (the design's π is the sampling density).
  LossWeight trainingWeight{LossWeight::Kind::Uniform};
  // ν: where the risk is measured, per unit log σ (Elbo: 1/σ², THEORY's default).
  LossWeight targetWeight{LossWeight::Kind::Elbo};
  DesignCriterion criterion = DesignCriterion::A;
  // ridge = relativeRidge · (mean trace of H_g)/p keeps M invertible for nearly singular features.
  double relativeRidge = 1e-8;
  // Neighbouring support levels at most this far apart in log σ merge into one atom (0: never).
  double mergeSpacing = 0.12;
  double sigmaMin = 0.0, sigmaMax = 0.0;  // schedule range (0: the candidate grid's ends)
  DesignOptions solver;
};

struct AtomicResult {
  Schedule schedule;              // atomic: merged atoms, carries trainingWeight
  std::vector<Atom> gridAtoms;    // the solver's atoms on the candidate levels (before merging)
  DesignResult design;            // on the candidate grid, before merging
  std::vector<double> gridSigma;  // candidate σ_g
  DesignProblem problem;          // as solved (H_g, w_g, A, ridge), for re-evaluation
};

// ν_g: target weight per unit log σ at σ_g times the log-σ width of level g (midpoint rule).
std::vector<double> targetLevelWeights(const std::vector<double>& sigma, const LossWeight& target);

AtomicResult designAtomicSchedule(const InformationMatrices& info,
                                  const AtomicOptions& options = {});

// R of another schedule on the same problem, at equal effective allocation: its φ = π·w is binned
// on the candidate levels (bins centred on them in log σ) and realised with the design's training
// weight (π_g ∝ φ_g/w_g). R(proxy)/R(optimum) ≥ 1 says how close a smooth proxy (√-entropy,
// InfoNoise, EDM) comes to the atomic optimum.
double riskOfSchedule(const AtomicResult& atomic, const Schedule& schedule);

}  // namespace noisescope::schedule
