#include "io/sample_race_io.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "schedule/ode_sampler.h"
#include "util/atomic_file.h"
#include "util/student_t.h"

namespace noisescope {
namespace {

const char* const kMeasureOrder[] = {"fd", "kmer_js", "elbo"};

std::string measureTitle(const std::string& m) {
  if (m == "fd") return "FD in the feature network's features (lower is better)";
  if (m == "kmer_js") return "k-mer JS, bits, mean over k = 1…6 (lower is better)";
  return "ELBO of the grid's discrete-time bound, nats/dim (discrete data: with its prior and "
         "reconstruction terms; else the diffusion term only; lower is better)";
}

std::string formatCell(const MeanInterval& m) {
  char buf[64];
  if (std::isnan(m.halfWidth))
    std::snprintf(buf, sizeof buf, "%.4g", m.mean);
  else
    std::snprintf(buf, sizeof buf, "%.4g ± %.2g", m.mean, m.halfWidth);
  return buf;
}

// What a cell without a value shows.
std::string missingCell(SampleRaceState state) {
  switch (state) {
    case SampleRaceState::Running:
      return "…";
    case SampleRaceState::Cancelled:
      return "cancelled";
    case SampleRaceState::Complete:
      break;
  }
  return "-";
}

}  // namespace

std::string toString(SampleRaceState state) {
  switch (state) {
    case SampleRaceState::Running:
      return "running";
    case SampleRaceState::Cancelled:
      return "cancelled";
    case SampleRaceState::Complete:
      break;
  }
  return "complete";
}

std::vector<std::string> SampleRaceResult::measures() const {
  std::vector<std::string> out;
  for (const char* m : kMeasureOrder) {
    bool present = floor.count(m) > 0;
    for (const auto& c : cells) present = present || c.values.count(m) > 0;
    if (present) out.push_back(m);
  }
  return out;
}

const SampleRaceCell* SampleRaceResult::cell(const std::string& grid, int64_t n) const {
  for (const auto& c : cells)
    if (c.grid == grid && c.nfe == n) return &c;
  return nullptr;
}

MeanInterval meanInterval(const std::vector<double>& values) {
  MeanInterval r;
  const double n = double(values.size());
  if (values.empty()) return {std::nan(""), std::nan("")};
  for (double v : values) r.mean += v / n;
  if (values.size() < 2) {
    r.halfWidth = std::nan("");
    return r;
  }
  double ss = 0;
  for (double v : values) ss += (v - r.mean) * (v - r.mean);
  r.halfWidth = studentTQuantile(0.975, n - 1) * std::sqrt(ss / (n - 1) / n);
  return r;
}

nlohmann::json sampleRaceToJson(const SampleRaceResult& r) {
  nlohmann::json grids = nlohmann::json::array(), cells = nlohmann::json::array();
  for (const auto& g : r.grids) grids.push_back({{"name", g.name}, {"rule", g.rule}});
  for (const auto& c : r.cells) {
    nlohmann::json summary = nlohmann::json::object();
    for (const auto& [m, v] : c.values) {
      const auto mi = meanInterval(v);
      summary[m] = {{"mean", mi.mean},
                    {"half_width_95", std::isnan(mi.halfWidth) ? nlohmann::json(nullptr)
                                                               : nlohmann::json(mi.halfWidth)}};
    }
    cells.push_back({{"grid", c.grid},
                     {"nfe", c.nfe},
                     {"steps", c.steps},
                     {"evaluations", c.evaluations},
                     {"sigma", c.sigma},
                     {"values", c.values},
                     {"summary", summary}});
  }
  nlohmann::json floor = nlohmann::json::object();
  for (const auto& [m, v] : r.floor) {
    const auto mi = meanInterval(v);
    floor[m] = {{"draws", v}, {"mean", mi.mean}};
  }
  return {{"format", kSampleRaceFormat},
          {"model", r.model},
          {"source", r.source},
          {"sampler", r.sampler},
          {"samples", r.samples},
          {"reference", r.reference},
          {"test", r.test},
          {"elbo_samples", r.elboSamples},
          {"feature_network", r.featureNetwork},
          {"feature_accuracy", r.featureAccuracy},
          {"seeds", r.seeds},
          {"nfe", r.nfe},
          {"grids", grids},
          {"cells", cells},
          {"floor", floor},
          {"floor_count", r.floorCount},
          {"state", toString(r.state)},
          {"provenance", r.provenance}};
}

void writeSampleRace(const std::string& path, const SampleRaceResult& result) {
  writeFileAtomically(path, sampleRaceToJson(result).dump(2) + "\n");
}

std::string sampleRaceTable(const SampleRaceResult& r) {
  std::ostringstream out;
  out << "sampler " << r.sampler << ", " << r.samples << " samples per cell against " << r.reference
      << " held-out, " << r.seeds.size() << " sampling seeds; mean ± 95 % t\n";
  if (r.state != SampleRaceState::Complete)
    out << r.cells.size() << " of " << r.grids.size() * r.nfe.size() << " cells finished"
        << (r.state == SampleRaceState::Running ? "; the race is running\n"
                                                : "; the race was cancelled, the rest not raced\n");
  for (const auto& m : r.measures()) {
    out << "\n" << measureTitle(m) << "\n";
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header{"grid"};
    for (int64_t n : r.nfe) {
      const SampleRaceCell* any = nullptr;
      for (const auto& c : r.cells)
        if (c.nfe == n) any = &c;
      header.push_back("NFE " + std::to_string(n) +
                       (any ? " (" + std::to_string(any->evaluations) + ")" : std::string()));
    }
    rows.push_back(header);
    for (const auto& g : r.grids) {
      std::vector<std::string> row{g.name};
      for (int64_t n : r.nfe) {
        const auto* c = r.cell(g.name, n);
        row.push_back(c && c->values.count(m) ? formatCell(meanInterval(c->values.at(m)))
                                              : missingCell(r.state));
      }
      rows.push_back(row);
    }
    if (r.floor.count(m)) {
      std::vector<std::string> row{"floor (real vs held-out)"};
      const std::string f = formatCell(meanInterval(r.floor.at(m)));
      for (size_t i = 0; i < r.nfe.size(); ++i) row.push_back(f);
      rows.push_back(row);
    }
    std::vector<size_t> width(header.size(), 0);
    for (const auto& row : rows)
      for (size_t i = 0; i < row.size(); ++i) {
        // Count code points, not bytes, so "±" and "σ" line up.
        size_t n = 0;
        for (unsigned char ch : row[i]) n += (ch & 0xC0) != 0x80;
        width[i] = std::max(width[i], n);
      }
    for (const auto& row : rows) {
      for (size_t i = 0; i < row.size(); ++i) {
        size_t n = 0;
        for (unsigned char ch : row[i]) n += (ch & 0xC0) != 0x80;
        out << row[i] << std::string(width[i] - n + 2, ' ');
      }
      out << "\n";
    }
  }
  out << "\nNFE n: a budget of n denoiser evaluations; (k): the evaluations spent";
  if (r.sampler == toString(schedule::OdeSampler::Heun))
    out << " (Heun: N steps cost 2N − 1, N = ⌊(n + 1)/2⌋)";
  out << "\n";
  return out.str();
}

}  // namespace noisescope
