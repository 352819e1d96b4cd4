#pragma once
// Sampling grids as the faces ask for them: a spec string and N in, the grid, its step-ratio check
// and its exports out. The families are schedule/sampling_grid.h; this layer reads what a
// data-driven family names (a profile file, a run's final π, a schedule file) or takes what the
// face already holds (the command's --profile, the tab's selected schedule), and applies the one
// safety rule every exported grid follows (docs/file-formats.md, "Sampling grids"):
//
//   default grid  defaults::kSamplingGrid, Karras ρ = 7 (EDM's grid, the one the Heun sampler was
//                 tuned on) — until `sample-race` shows another grid beats it;
//   auto          the data-derived grid (schedule/sampling_rate.h, THEORY §6): built on the
//                 sampling rate of the profile the face holds (or profile=FILE) and, when that
//                 profile is one of a bracket's files (P.bound.json, P.empirical.json, …), of its
//                 siblings too; Karras ρ = 7 with a note when there is no usable profile;
//   ratio limit   no step σ_i/σ_{i+1} above ratioLimit(N, σ_min, σ_max, margin): margin (2) times
//                 Karras ρ = 7's largest step at the same N and ends. A grid that breaks it is
//                 written with a warning per step ("guard=warn", the default), or reshaped
//                 until none does ("guard=cap").
#include <optional>
#include <string>
#include <vector>

#include "profile/profile.h"
#include "schedule/sampling_grid.h"
#include "schedule/sampling_rate.h"
#include "schedule/schedule.h"

namespace noisescope::pipeline {

// What the face holds, for grids whose spec names no file: the entropic family uses `profile`,
// the quantile family `schedule` (with its label for the file).
struct GridSources {
  const Profile* profile = nullptr;
  std::string profileSource;
  const schedule::Schedule* schedule = nullptr;
  std::string scheduleLabel;
};

struct SamplingGridResult {
  schedule::SamplingGridSpec spec;
  std::string canonical;      // canonicalSpec(spec)
  std::string label, rule;    // gridLabel, gridRule
  std::string source;         // the profile, run or schedule it follows ("" for fixed families)
  std::vector<double> sigma;  // descending, N levels then 0
  int steps = 0;              // N
  double largestRatio = 0.0;  // largestStepRatio(sigma)
  double ratioLimit = 0.0;    // ratioLimit(N, σ_{N−1}, σ_0, spec.margin)
  std::vector<std::string> warnings;  // one per step over the limit, and a σ range note
  schedule::GridExports exports;
  // Grids that read the sampling rate (auto, rate=sampling, sigma_min=profile, gate_c=auto): how
  // the grid was chosen, the profiles read or left out, and the rate itself (per level: source
  // and why). Empty / no value for the other grids.
  std::vector<std::string> notes;
  std::optional<schedule::SamplingRate> rate;
};

// The profile files of the bracket `path` belongs to: for "P.json" or "P.KIND.json" (KIND one of
// empirical, held-out, held-out-wiener, held-out-patch, gaussian, bound) every "P.KIND.json" that
// exists, `path` itself included when it exists. Empty when none does.
std::vector<std::string> bracketProfileFiles(const std::string& path);

// The run's final training π: schedules/final.schedule.json, else schedules/latest.schedule.json
// (a run still going, or stopped), else the last "schedule" event of events.jsonl. InputError
// naming the run when it has none. `from` receives the file it came from.
schedule::Schedule runFinalSchedule(const std::string& runDirectory, std::string* from = nullptr);

// Parses `spec` (InputError naming it), reads the files it names, builds N levels and checks them.
SamplingGridResult samplingGrid(const std::string& spec, int steps,
                                const GridSources& sources = {});

// The grid families a face offers, with their parameters and rules (schedule/sampling_grid.h).
const std::vector<schedule::GridFamilyInfo>& samplingGridFamilyList();
// A spec in its canonical spelling (every parameter named); InputError for an unknown family or
// parameter.
std::string canonicalSamplingGridSpec(const std::string& spec);

}  // namespace noisescope::pipeline
