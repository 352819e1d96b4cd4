#include "diagnostic/bracket.h"

#include <filesystem>
#include <stdexcept>

#include "diagnostic/held_out_wiener.h"
#include "diagnostic/queries.h"
#include "io/provenance.h"
#include "util/error.h"
#include "util/seeded_split.h"
#include "util/setting_names.h"

namespace noisescope {

namespace {

void reportLevels(const LevelObserver& onLevel, const Profile& p) {
  if (!onLevel) return;
  for (int l = 0; l < p.levels(); ++l)
    onLevel({p.kind, l, p.sigma[l], p.primary().mean[l], p.primary().standardError[l], 0.0});
}

}  // namespace

Profile closedFormMemberProfile(const std::string& kind, const std::vector<PointRisks>& members,
                                const Profile& like) {
  Profile out;
  if (members.size() == 1) {  // one member: its estimate over all its points
    out = like.onSameLevels(kind);
    out.queries = 0;  // a closed-form noise expectation: no Monte Carlo queries
    out.estimates.push_back(summarizeHalf(
        members.front(), HeldOutHalf::All, "held_out_wiener_risk",
        "mean over held-out points of the closed-form noise expectation of the prior's linear "
        "(Wiener) denoiser's error: a population risk, an upper bound on the population MMSE"));
    out.rates = computeRates(out.sigma, out.primary());
    out.provenance = makeProvenance("noisescope held-out Wiener bound",
                                    {{"fit", "mean and covariance of the prior"}});
  } else {  // several widths: chosen per level on the selection half like the bound itself
    out = selectPopulationBound(members, like, kind);
    out.estimates.front().name = "patch_wiener_risk";
    out.provenance["producer"] = "noisescope held-out patch Wiener bound";
  }
  out.queries = 0;  // closed form in the noise: no Monte Carlo queries
  out.provenance["dataset"] = like.provenance.value("dataset", nlohmann::json::object());
  out.provenance["queries_from"] = like.provenance.value("queries_from", nlohmann::json());
  out.provenance["held_out_points_used"] = members.front().columns();
  return out;
}

bool shareCanBracket(int64_t datasetSize, double share) {
  if (datasetSize < 2) return false;  // no split at all
  return heldOutCount(datasetSize, share, settings::kHeldOutShare) >= kBoundMinHeldOut;
}

Bracket computeBracket(const Dataset& prior, const Dataset& heldOut,
                       const DiagnosticOptions& options, const BracketOptions& bracket,
                       const Progress& progress, const LevelObserver& onLevel) {
  options.validate();
  if (heldOut.size() < kBoundMinHeldOut)
    throw InputError(
        heldOut.source.empty() ? "held-out set" : heldOut.source,
        "has " + std::to_string(heldOut.size()) + " samples; the population bound needs at least " +
            std::to_string(kBoundMinHeldOut) + " (two to select a member, two to score it)");
  const std::vector<double> sigma =
      logSigmaLevels(options.levels, options.sigmaMin, options.sigmaMax);
  // The same seeded order computeHeldOutProfile draws its queries in: a point has one position,
  // hence one half, in every member (population_bound.h).
  const std::vector<int64_t> order = heldOutOrder(heldOut.size(), options.seed);
  const HeldOutColumns columns = leadingColumns(order, bracket.closedFormPoints);

  Bracket b;
  std::vector<PointRisks> members;
  members.push_back(
      heldOutWienerRisks(prior, heldOut, columns, sigma, bracket.spectrum, progress.sub(0.0, 0.1)));
  std::vector<PointRisks> patches;
  if (bracket.withPatch && hasPatchLayout(prior) && !patchSizesFor(prior).empty()) {
    patches =
        patchWienerRisks(prior, heldOut, columns, sigma, bracket.patch, progress.sub(0.1, 0.2));
    members.insert(members.end(), patches.begin(), patches.end());
  }
  b.empirical = computeEmpiricalProfile(prior, options, progress.sub(0.2, 0.6), onLevel);
  PointRisks posterior;
  b.heldOut =
      computeHeldOutProfile(prior, heldOut, options, progress.sub(0.6, 1.0), onLevel, &posterior);
  b.wiener = closedFormMemberProfile("held-out-wiener", {members.front()}, b.heldOut);
  reportLevels(onLevel, b.wiener);
  if (!patches.empty()) {
    b.patch = closedFormMemberProfile("held-out-patch", patches, b.heldOut);
    reportLevels(onLevel, b.patch);
  }
  members.push_back(std::move(posterior));
  b.bound = selectPopulationBound(members, b.heldOut);
  b.bound.provenance["held_out_time_utc"] = b.heldOut.provenance.value("time_utc", "");
  return b;
}

std::string findTestSplit(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const std::string name = p.filename().string();
  const std::pair<const char*, const char*> swaps[] = {{"train-", "t10k-"},
                                                       {"-train-", "-test-"},
                                                       {"_train_", "_test_"},
                                                       {"data_batch", "test_batch"}};
  for (const auto& [from, to] : swaps) {
    const size_t at = name.find(from);
    if (at == std::string::npos) continue;
    std::string candidate = name;
    candidate.replace(at, std::string(from).size(), to);
    if (std::string(from) == "data_batch") {  // data_batch_3.bin → test_batch.bin
      const size_t end = candidate.find('.', at);
      candidate = candidate.substr(0, at) + "test_batch" +
                  (end == std::string::npos ? "" : candidate.substr(end));
    }
    const fs::path sibling = p.parent_path() / candidate;
    std::error_code ec;
    if (fs::is_regular_file(sibling, ec)) return sibling.string();
  }
  return {};
}

}  // namespace noisescope
