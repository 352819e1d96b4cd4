#include "diagnostic/bracket.h"

#include <filesystem>
#include <stdexcept>

#include "diagnostic/empirical_diagnostic.h"
#include "io/provenance.h"

namespace noisescope {

Profile tighterBound(const Profile& heldOut, const Profile& gaussian) {
  if (heldOut.sigma != gaussian.sigma)
    throw std::invalid_argument("tighterBound: the two profiles have different σ grids");
  Profile out;
  out.kind = "bound";
  out.sigma = heldOut.sigma;
  out.dim = heldOut.dim;
  out.datasetSize = heldOut.datasetSize;
  out.queries = heldOut.queries;
  out.sigmaData = heldOut.sigmaData;
  MmseEstimate e;
  e.name = "min_held_out_gaussian";
  e.description =
      "per level the smaller of the held-out risk and the Gaussian (Wiener) MMSE, with that "
      "curve's standard error (0 for the closed form)";
  nlohmann::json source = nlohmann::json::array();
  const MmseEstimate& h = heldOut.primary();
  const MmseEstimate& g = gaussian.primary();
  for (int l = 0; l < heldOut.levels(); ++l) {
    const bool useGaussian = g.mean[l] <= h.mean[l];
    const MmseEstimate& pick = useGaussian ? g : h;
    e.mean.push_back(pick.mean[l]);
    e.standardError.push_back(pick.standardError[l]);
    e.ciLow.push_back(pick.ciLow[l]);
    e.ciHigh.push_back(pick.ciHigh[l]);
    source.push_back(useGaussian ? "gaussian" : "held-out");
  }
  out.estimates.push_back(std::move(e));
  out.rates = computeRates(out.sigma, out.primary());
  out.provenance = makeProvenance("noisescope population bound",
                                  {{"rule", "min(held-out, gaussian) per sigma level"}});
  out.provenance["dataset"] = heldOut.provenance.value("dataset", nlohmann::json::object());
  out.provenance["queries_from"] = heldOut.provenance.value("queries_from", nlohmann::json());
  out.provenance["source"] = source;
  out.provenance["held_out_time_utc"] = heldOut.provenance.value("time_utc", "");
  out.provenance["gaussian_time_utc"] = gaussian.provenance.value("time_utc", "");
  return out;
}

Bracket computeBracket(const Dataset& prior, const Dataset& heldOut,
                       const DiagnosticOptions& options, const GaussianSpectrumOptions& spectrum,
                       const Progress& progress, const LevelObserver& onLevel) {
  Bracket b;
  b.gaussian = computeGaussianProfile(prior, options, spectrum, progress.sub(0.0, 0.1));
  if (onLevel) {
    for (int l = 0; l < b.gaussian.levels(); ++l)
      onLevel({"gaussian", l, b.gaussian.sigma[l], b.gaussian.primary().mean[l], 0.0, 0.0});
  }
  b.empirical = computeEmpiricalProfile(prior, options, progress.sub(0.1, 0.55), onLevel);
  b.heldOut = computeHeldOutProfile(prior, heldOut, options, progress.sub(0.55, 1.0), onLevel);
  b.bound = tighterBound(b.heldOut, b.gaussian);
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
