#include "pipeline/diagnose/bracket_job.h"

#include <utility>

namespace noisescope::pipeline {

std::vector<Profile*> bracketCurves(Bracket& b) {
  std::vector<Profile*> out = {&b.empirical, &b.heldOut, &b.wiener};
  if (!b.patch.kind.empty()) out.push_back(&b.patch);
  out.push_back(&b.bound);
  return out;
}

BracketJob runBracket(Dataset dataset, const std::string& datasetPath,
                      const HeldOutRequest& request, const DiagnosticOptions& options,
                      const BracketOptions& bracketOptions, const Progress& progress,
                      const LevelObserver& onLevel) {
  HeldOutQueries held = chooseHeldOutQueries(std::move(dataset), datasetPath, request);
  BracketJob job;
  job.querySet = held.description;
  job.bracket =
      computeBracket(held.prior, held.queries, options, bracketOptions, progress, onLevel);
  for (Profile* p : bracketCurves(job.bracket))
    if (p->kind != "empirical") p->provenance["query_set"] = job.querySet;
  return job;
}

}  // namespace noisescope::pipeline
