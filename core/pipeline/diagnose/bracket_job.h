#pragma once
// The bracket as one job for every face (THEORY §10): choose the held-out points (the rule of
// pipeline/diagnose/held_out_queries.h), compute the bracket, and say on every held-out curve where
// its points came from. The GUI's curves and the CLI's files are then the same call's output.
#include <string>
#include <vector>

#include "diagnostic/bracket.h"
#include "pipeline/diagnose/held_out_queries.h"

namespace noisescope::pipeline {

struct BracketJob {
  Bracket bracket;
  std::string querySet;  // the held-out set, as each held-out curve's provenance "query_set"
};

BracketJob runBracket(Dataset dataset, const std::string& datasetPath,
                      const HeldOutRequest& request, const DiagnosticOptions& options,
                      const BracketOptions& bracketOptions = {}, const Progress& progress = {},
                      const LevelObserver& onLevel = {});

// The bracket's curves in a fixed order: empirical, held-out, held-out-wiener, held-out-patch
// (where the samples have one), bound.
std::vector<Profile*> bracketCurves(Bracket& bracket);

}  // namespace noisescope::pipeline
