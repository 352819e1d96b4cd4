// Replays recorded loss streams through the C++ online sampler, built by the pipeline from a
// config's noise section as `noisescope-cli train` builds it, for the golden test that compares it
// with the Python package's OnlineSampler (tests/python/test_golden.py).
//
//   noise_sampler_replay INPUT.json  → JSON on stdout
//
// INPUT.json: {"uniforms": [u...], "sigmas": [σ...],
//              "streams": {NAME: [{"sigma": [...], "error": [...]}, ...]},
//              "cases": [{"name", "noise": {a train config's noise section}, "sigma_data",
//                         "discrete", "stream": NAME}]}
// Each step's batch is recorded as the trainer records it (binned, summed, added to the window),
// then maybeRefresh(steps done) runs. Per case the output holds the statistics grid, the base π on
// it, the draws of the uniforms from the base schedule, the loss weight at the σ list, and after
// every refresh its step, π, ρ, m̂, the CDF change and the draws from the new π.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/internal/online_sampler.h"
#include "util/error.h"

using namespace noisescope;
using nlohmann::json;

namespace {

json readInput(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the input file");
  std::ostringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw InputError(path, "not a JSON object");
  for (const char* key : {"uniforms", "sigmas", "streams", "cases"})
    if (!doc.contains(key)) throw InputError(path, std::string("missing field '") + key + "'");
  return doc;
}

std::vector<double> draws(const train::NoiseSampler& sampler, const std::vector<double>& u) {
  std::vector<double> out;
  out.reserve(u.size());
  for (double x : u) out.push_back(sampler.sigmaFromUniform(x));
  return out;
}

json replay(const json& c, const json& doc, const std::string& path) {
  const std::string name = c.at("name").get<std::string>();
  pipeline::OnlineSamplerRequest request;
  request.noise = c.at("noise");
  request.sigmaData = c.at("sigma_data").get<double>();
  request.discreteData = c.at("discrete").get<bool>();
  request.source = path + ": case " + name;
  train::NoiseSampler sampler = pipeline::onlineSampler(request);

  const auto uniforms = doc.at("uniforms").get<std::vector<double>>();
  const auto sigmas = doc.at("sigmas").get<std::vector<double>>();
  json out{{"name", name}};
  out["log_sigma_edges"] = sampler.grid().edges;
  out["pi0"] = sampler.current().massesOn(sampler.grid());
  out["base_draws"] = draws(sampler, uniforms);
  std::vector<double> weights;
  for (double s : sigmas) weights.push_back(sampler.lossWeight().at(s));
  out["weights"] = weights;
  out["refreshes"] = json::array();
  int64_t stepsDone = 0;
  for (const json& step : doc.at("streams").at(c.at("stream").get<std::string>())) {
    const auto sigma = step.at("sigma").get<std::vector<double>>();
    const auto error = step.at("error").get<std::vector<double>>();
    if (sigma.size() != error.size())
      throw InputError(path, "step " + std::to_string(stepsDone) + ": sigma and error differ");
    train::BinStatistics stats(sampler.grid().bins());
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
  return out;
}

int run(const std::string& path) {
  const json doc = readInput(path);
  json out{{"cases", json::array()}};
  for (const json& c : doc.at("cases")) out["cases"].push_back(replay(c, doc, path));
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: noise_sampler_replay INPUT.json\n";
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
