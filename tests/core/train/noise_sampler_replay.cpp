// Replays a recorded loss stream through the C++ NoiseSampler, for the golden test that compares
// it with the Python package's OnlineSampler (tests/python_online/test_golden.py).
//
//   noise_sampler_replay STREAM.json  → JSON on stdout
//
// STREAM.json: {"settings": {method, sigma_min, sigma_max, bins, warmup_steps, refresh_every,
// stat_decay, smoothing_passes, min_bin_count, gate_c, gate_n, uniform_mix, loss_weight,
// sigma_data, min_snr_gamma, schedule}, "steps": [{"sigma": [...], "error": [...]}, ...],
// "uniforms": [...]}. Each step's batch is recorded as the trainer records it (binned, summed,
// added to the window), then maybeRefresh(steps done) runs. The output holds the draws of the
// uniforms from the base schedule, and after every refresh its step, π, ρ, m̂, the CDF change and
// the draws of the same uniforms from the new π.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedule/families.h"
#include "schedule/loss_weight.h"
#include "train/noise_sampler.h"
#include "util/error.h"

using namespace noisescope;
using nlohmann::json;

namespace {

json readStream(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the stream file");
  std::ostringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw InputError(path, "not a JSON object");
  for (const char* key : {"settings", "steps", "uniforms"})
    if (!doc.contains(key)) throw InputError(path, std::string("missing field '") + key + "'");
  return doc;
}

std::vector<double> draws(const train::NoiseSampler& sampler, const std::vector<double>& u) {
  std::vector<double> out;
  out.reserve(u.size());
  for (double x : u) out.push_back(sampler.sigmaFromUniform(x));
  return out;
}

int run(const std::string& path) {
  const json doc = readStream(path);
  const json& s = doc.at("settings");
  train::AdaptiveSettings a;
  a.warmupSteps = s.at("warmup_steps").get<int64_t>();
  a.refreshEvery = s.at("refresh_every").get<int64_t>();
  a.statDecay = s.at("stat_decay").get<double>();
  a.smoothingPasses = s.at("smoothing_passes").get<int64_t>();
  a.minBinCount = s.at("min_bin_count").get<int64_t>();
  a.gateC = s.at("gate_c").get<double>();
  a.gateN = s.at("gate_n").get<double>();
  a.uniformMix = s.at("uniform_mix").get<double>();
  const double sigmaMin = s.at("sigma_min").get<double>(),
               sigmaMax = s.at("sigma_max").get<double>();
  const schedule::LossWeight weight = schedule::makeLossWeight(
      s.at("loss_weight").get<std::string>(), s.at("sigma_data").get<double>(),
      s.at("min_snr_gamma").get<double>(), path + ": settings.loss_weight");
  // The base schedule exactly as the trainer builds it (trainer.cpp: 512 bins, the preset).
  schedule::Schedule base =
      schedule::makePresetSchedule(s.at("schedule").get<std::string>(),
                                   schedule::LogSigmaGrid::uniform(sigmaMin, sigmaMax, 512), {});
  base.lossWeight = weight;
  const auto grid = schedule::LogSigmaGrid::uniform(sigmaMin, sigmaMax, s.at("bins").get<int>());
  train::NoiseSampler sampler(
      train::samplerKindFromString(s.at("method").get<std::string>(), path + ": settings.method"),
      base, grid, weight, a);

  const std::vector<double> uniforms = doc.at("uniforms").get<std::vector<double>>();
  json out;
  out["base_draws"] = draws(sampler, uniforms);
  out["refreshes"] = json::array();
  int64_t stepsDone = 0;
  for (const json& step : doc.at("steps")) {
    const auto sigma = step.at("sigma").get<std::vector<double>>();
    const auto error = step.at("error").get<std::vector<double>>();
    if (sigma.size() != error.size())
      throw InputError(path, "step " + std::to_string(stepsDone) + ": sigma and error differ");
    train::BinStatistics stats(grid.bins());
    for (size_t i = 0; i < sigma.size(); ++i) {
      const int b = sampler.binOf(sigma[i]);
      stats.errorSum[b] += error[i];
      stats.count[b] += 1.0;
    }
    sampler.record(stats);
    ++stepsDone;
    if (!sampler.maybeRefresh(stepsDone)) continue;
    const auto& r = sampler.lastRefresh();
    out["refreshes"].push_back({{"step", r.step},
                                {"pi", r.pi},
                                {"rho", r.rho},
                                {"mhat", r.mhat},
                                {"cdf_change", r.cdfChange},
                                {"draws", draws(sampler, uniforms)}});
  }
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: noise_sampler_replay STREAM.json\n";
    return 2;
  }
  try {
    return run(argv[1]);
  } catch (const InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 2;
  }
}
