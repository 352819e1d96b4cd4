#include "diagnostic/population_bound.h"

#include <cstdio>
#include <limits>
#include <stdexcept>

#include "io/provenance.h"
#include "profile/tail_term.h"
#include "util/error.h"

namespace noisescope {

namespace {

bool inHalf(int64_t position, HeldOutHalf half) {
  if (half == HeldOutHalf::All) return true;
  return (position % 2 == 0) == (half == HeldOutHalf::Selection);
}

const char* halfName(HeldOutHalf half) {
  return half == HeldOutHalf::All         ? "all"
         : half == HeldOutHalf::Selection ? "selection"
                                          : "evaluation";
}

}  // namespace

MmseEstimate summarizeHalf(const PointRisks& risks, HeldOutHalf half, const std::string& name,
                           const std::string& description) {
  std::vector<int64_t> columns;
  for (int64_t c = 0; c < risks.columns(); ++c)
    if (inHalf(risks.position[c], half)) columns.push_back(c);
  const int64_t n = static_cast<int64_t>(columns.size());
  if (n < 2)
    throw InputError("held-out set", "the " + std::string(halfName(half)) + " half of the " +
                                         std::to_string(risks.columns()) +
                                         " held-out points used has fewer than two; hold out "
                                         "more samples (at least " +
                                         std::to_string(kBoundMinHeldOut) + ")");
  std::vector<double> values;
  values.reserve(static_cast<size_t>(risks.levels * n));
  for (int l = 0; l < risks.levels; ++l)
    for (int64_t c : columns) values.push_back(risks.values[l * risks.columns() + c]);
  return summarizeOverPoints(name, description, values, risks.levels, n);
}

namespace {

// The values of one level at the points of one half, in column order.
void appendHalf(const PointRisks& risks, int level, HeldOutHalf half, std::vector<double>& out) {
  for (int64_t c = 0; c < risks.columns(); ++c)
    if (inHalf(risks.position[c], half)) out.push_back(risks.values[level * risks.columns() + c]);
}

// Where the per-point errors' tail is heavier than the tail term covers, upper95 is printed but
// is not a covering bound there; the file and the GUI say so.
std::string heavyTailWarning(const std::vector<double>& sigma) {
  std::string levels;
  for (size_t i = 0; i < sigma.size(); ++i) {
    char one[32];
    std::snprintf(one, sizeof one, "%s%.3g", i ? ", " : "", sigma[i]);
    levels += one;
  }
  char index[16];
  std::snprintf(index, sizeof index, "%g", kCoveredTailIndex);
  return "upper95 does not cover at sigma = " + levels +
         ": the held-out points' errors there have a tail heavier than Pareto index " + index +
         " (Hill test at 1 %), beyond what its tail term allows for; hold out more points, or "
         "read the bound there as an estimate";
}

size_t smallestMean(const std::vector<MmseEstimate>& estimates, int level) {
  size_t best = 0;
  for (size_t m = 1; m < estimates.size(); ++m)
    if (estimates[m].mean[level] < estimates[best].mean[level]) best = m;
  return best;
}

}  // namespace

Profile selectPopulationBound(const std::vector<PointRisks>& members, const Profile& grid,
                              const std::string& kind) {
  if (members.empty()) throw std::invalid_argument("selectPopulationBound: no members");
  std::vector<MmseEstimate> selection, evaluation;
  for (const PointRisks& m : members) {
    if (m.levels != grid.levels())
      throw std::invalid_argument("selectPopulationBound: a member has another number of levels");
    selection.push_back(summarizeHalf(m, HeldOutHalf::Selection, m.member, ""));
    evaluation.push_back(summarizeHalf(m, HeldOutHalf::Evaluation, m.member, ""));
  }
  Profile out = grid.onSameLevels(kind);
  MmseEstimate e;
  e.name = "selected_held_out_risk";
  e.description =
      "cross-fitted: per level the member with the smallest mean on one half of the held-out "
      "points is scored on the other half, both ways, and the two halves' values are pooled: an "
      "unbiased estimate of an average of population risks, hence of an upper bound on the "
      "population MMSE";
  nlohmann::json source = nlohmann::json::array();
  std::vector<double> heavyTailed;  // σ of the levels whose upper95 does not cover
  nlohmann::json selectionMeans = nlohmann::json::object();
  for (size_t m = 0; m < members.size(); ++m) selectionMeans[members[m].member] = selection[m].mean;
  for (int l = 0; l < grid.levels(); ++l) {
    // The member chosen on each half is scored on the other, so no value is scored on the points
    // that chose it; pooling both halves uses every point once.
    const size_t bySelection = smallestMean(selection, l),
                 byEvaluation = smallestMean(evaluation, l);
    std::vector<double> values;
    appendHalf(members[bySelection], l, HeldOutHalf::Evaluation, values);
    appendHalf(members[byEvaluation], l, HeldOutHalf::Selection, values);
    const MmseEstimate level =
        summarizeOverPoints("", "", values, 1, static_cast<int64_t>(values.size()));
    if (tailHeavierThanCovered(values.data(), static_cast<int64_t>(values.size())))
      heavyTailed.push_back(grid.sigma[static_cast<size_t>(l)]);
    e.mean.push_back(level.mean[0]);
    e.standardError.push_back(level.standardError[0]);
    e.ciLow.push_back(level.ciLow[0]);
    e.ciHigh.push_back(level.ciHigh[0]);
    e.upper95.push_back(level.upper95[0]);
    if (l == 0) e.interval = level.interval;
    const std::string& a = members[bySelection].member;
    const std::string& b = members[byEvaluation].member;
    source.push_back(a == b ? a : a + "|" + b);
  }
  out.estimates.push_back(std::move(e));
  out.rates = computeRates(out.sigma, out.primary());
  out.provenance = makeProvenance(
      "noisescope population bound",
      {{"rule",
        "cross-fitted: per level the member with the smallest mean on one half scores the other "
        "half, both ways; the values of both halves are pooled"},
       {"split",
        "held-out points at even positions of the seeded order form one half, odd ones "
        "the other"},
       {"source",
        "the member chosen per level, 'A|B' when the halves chose differently (A on "
        "the even half, B on the odd one)"}});
  out.provenance["dataset"] = grid.provenance.value("dataset", nlohmann::json::object());
  out.provenance["queries_from"] = grid.provenance.value("queries_from", nlohmann::json());
  out.provenance["source"] = source;
  out.provenance["upper95_tail_term"] = tailTermDescription();
  if (!heavyTailed.empty()) {
    out.provenance["warnings"].push_back(heavyTailWarning(heavyTailed));
    out.provenance["upper95_not_covering"] = heavyTailed;  // the same σ, for programs
  }
  out.provenance["selection_means"] = selectionMeans;
  nlohmann::json evaluationMeans = nlohmann::json::object();
  for (size_t m = 0; m < members.size(); ++m)
    evaluationMeans[members[m].member] = evaluation[m].mean;
  out.provenance["evaluation_means"] = evaluationMeans;
  nlohmann::json points = nlohmann::json::object();
  for (const PointRisks& m : members) {
    int64_t sel = 0;
    for (int64_t p : m.position) sel += p % 2 == 0;
    points[m.member] = {{"even_half", sel}, {"odd_half", m.columns() - sel}};
  }
  out.provenance["points"] = points;
  return out;
}

}  // namespace noisescope
