// The tool builders per coordinate and the combination of a draw with a loss weighting.
#include "schedule/trainers/draws.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {

namespace {

// Keyed on the bits, so that every distinct argument (−0, NaN included) has its own entry.
std::uint64_t bitsOf(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

struct DoublePairHash {
  std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const {
    return std::hash<std::uint64_t>()(k.first * 0x9E3779B97F4A7C15ull ^ k.second);
  }
};

}  // namespace

double modeInverseAtTable(double t, double s) {
  using Key = std::pair<std::uint64_t, std::uint64_t>;
  thread_local std::unordered_map<Key, double, DoublePairHash> cache;
  if (cache.size() > 200000) cache.clear();  // a few MB at most
  const Key key{bitsOf(t), bitsOf(s)};
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const double u = modeInverseBisection(t, s);
  cache.emplace(key, u);
  return u;
}

namespace {

// What every tool builder sets: its name and knob, how it draws, what its loss compares, the σ
// it can reach and how its draw is discretised.
TrainerTool toolOf(std::string name, std::string knob, TrainerCoordinate coordinate,
                   std::string lossSpace, std::function<double(double)> lossToX0, double sigmaMin,
                   double sigmaMax, std::string discretisation) {
  TrainerTool t;
  t.name = std::move(name);
  t.knob = std::move(knob);
  t.coordinate = coordinate;
  t.lossSpace = std::move(lossSpace);
  t.lossToX0 = std::move(lossToX0);
  t.sigmaMin = sigmaMin;
  t.sigmaMax = sigmaMax;
  t.discretisation = std::move(discretisation);
  return t;
}

}  // namespace

TrainerTool flowTool(std::string name, std::string knob) {
  return toolOf(std::move(name), std::move(knob), TrainerCoordinate::FlowTime,
                "flow velocity (noise − x0)", flowVelocityToX0, 0.0, INFINITY, "continuous t");
}

TrainerTool ddpmTool(std::string name, std::string knob, bool vPrediction) {
  TrainerTool t = toolOf(std::move(name), std::move(knob), TrainerCoordinate::DdpmTime,
                         vPrediction ? "v (DDPM v-prediction)" : "epsilon",
                         vPrediction ? vPredictionToX0 : epsilonToX0, ddpmSigma(0), ddpmSigma(999),
                         "integer timesteps 0 … 999 of SD's scaled-linear table");
  t.tableEdges = tableEdges(1000);  // k = ⌊1000·u⌋
  return t;
}

TrainerTool sigmaTool(std::string name, std::string knob) {
  return toolOf(std::move(name), std::move(knob), TrainerCoordinate::Sigma,
                "x0 with EDM's weight λ(σ), σ_d = 0.5", one, 0.0, INFINITY, "continuous σ");
}

ModelDefinition flowModel(std::string tool, std::string knob, std::string model, std::string note) {
  ModelDefinition m;
  m.tool = flowTool(std::move(tool), std::move(knob));
  m.tool.model = std::move(model);
  m.tool.modelNote = std::move(note);
  return m;
}

TrainerFamily withWeighting(const TrainerFamily& draw, const LossWeighting& weighting) {
  TrainerFamily f = draw;
  const std::size_t drawParameters = draw.parameters.size();
  const bool fitted = !weighting.parameters.empty() && drawParameters < 2;
  if (fitted) f.parameters.push_back(weighting.parameters.front());
  const double fixedValue = weighting.fixedValue;
  const auto weight = weighting.weight;
  const auto drawWeight = draw.toolWeight;
  f.toolWeight = [=](double sigma, const Params& p) {
    const Params drawP(p.begin(), p.begin() + drawParameters);
    return drawWeight(sigma, drawP) * weight(sigma, fitted ? p[drawParameters] : fixedValue);
  };
  const auto drawDensity = draw.density;
  f.density = [=](double u, const Params& p) {
    return drawDensity(u, Params(p.begin(), p.begin() + drawParameters));
  };
  const auto drawSnippet = draw.snippet;
  const auto weightingSnippet = weighting.snippet;
  const std::string joiner = weighting.joiner;
  f.snippet = [=](const Params& p) {
    return drawSnippet(Params(p.begin(), p.begin() + drawParameters)) + joiner +
           weightingSnippet(fitted ? p[drawParameters] : fixedValue);
  };
  f.name = draw.name + " + " + weighting.name;
  f.weighting = weighting.name;
  if (!weighting.parameters.empty() && !fitted)
    f.note += "; " + weighting.parameters.front().name + " held at the tool's default " +
              num(fixedValue) + " (the draw already has two knobs)";
  return f;
}

LossWeighting minSnrGamma(std::string name, bool vPrediction, double defaultGamma,
                          std::function<std::string(double)> snippet) {
  LossWeighting w;
  w.name = std::move(name);
  w.parameters.push_back(param(w.name, defaultGamma, 0.05, 1000.0, true));
  w.fixedValue = defaultGamma;
  w.weight = [vPrediction](double sigma, double gamma) {
    return minSnrWeight(sigma, gamma, vPrediction);
  };
  w.snippet = std::move(snippet);
  return w;
}

std::vector<std::pair<std::string, std::function<double(double)>>> sd3LossWeightings() {
  return {{"uniform", one}, {"sigma_sqrt", sigmaSqrtWeight}, {"cosmap", cosmapWeight}};
}

}  // namespace noisescope::schedule::trainers
