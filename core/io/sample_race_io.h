#pragma once
// The result of a sampling-grid race (pipeline/sampling/sample_race.h) and its one JSON form,
// "noisescope.sample-race/1": per grid × NFE the per-seed values of each measure, the σ steps, the
// real-against-real floor of each sample-quality measure, and the provenance. Also the text table
// both faces print (mean ± 95 % Student t half-width over seeds). Torch-free.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace noisescope {

inline constexpr const char* kSampleRaceFormat = "noisescope.sample-race/1";

struct SampleRaceCell {
  std::string grid;
  int64_t nfe = 0;            // the budget asked for
  int64_t steps = 0;          // σ steps above 0
  int64_t evaluations = 0;    // denoiser evaluations the sampler spent (≤ nfe)
  std::vector<double> sigma;  // descending, ending in 0
  // measure ("fd", "kmer_js", "elbo") → one value per seed, in the result's seed order
  std::map<std::string, std::vector<double>> values;
};

// Whether every cell was raced. A face shows a race while its cells finish (Running) and keeps the
// finished ones when it is stopped (Cancelled); the cells not raced are absent from `cells`.
enum class SampleRaceState { Complete, Running, Cancelled };
std::string toString(SampleRaceState state);  // "complete", "running", "cancelled"

struct SampleRaceGridInfo {
  std::string name;
  std::string rule;  // what the grid is, in words
};

struct SampleRaceResult {
  std::string model;    // the TorchScript file sampled
  std::string source;   // the run directory or config the data came from
  std::string sampler;  // "heun", "euler", "euler-ancestral"
  int64_t samples = 0;  // generated samples per cell and seed
  int64_t reference = 0;
  int64_t elboSamples = 0;  // held-out samples of the per-grid ELBO (0: not computed)
  std::string test;         // what the held-out set is
  std::string featureNetwork;
  double featureAccuracy = 0.0;
  std::vector<uint64_t> seeds;
  std::vector<int64_t> nfe;
  std::vector<SampleRaceGridInfo> grids;
  std::vector<SampleRaceCell> cells;
  // measure → the floor's draws (real training samples scored like generated ones)
  std::map<std::string, std::vector<double>> floor;
  int64_t floorCount = 0;
  nlohmann::json provenance = nlohmann::json::object();
  SampleRaceState state = SampleRaceState::Complete;

  // In the order fd, kmer_js, elbo: those of a cell or of the floor (a race with no cell finished
  // yet already knows its sample-quality measures from the floor).
  std::vector<std::string> measures() const;
  const SampleRaceCell* cell(const std::string& grid, int64_t nfe) const;
};

// Mean and 95 % Student t half-width of a few values (half-width NaN for fewer than 2).
struct MeanInterval {
  double mean = 0.0, halfWidth = 0.0;
};
MeanInterval meanInterval(const std::vector<double>& values);

nlohmann::json sampleRaceToJson(const SampleRaceResult& result);
void writeSampleRace(const std::string& path, const SampleRaceResult& result);  // atomically
// One table per measure: a row per grid, a column per NFE, "mean ± half-width", and the floor. A
// cell not raced reads "…" while the race runs and "cancelled" after it was stopped.
std::string sampleRaceTable(const SampleRaceResult& result);

}  // namespace noisescope
