// The tool builders per coordinate and the combination of a draw with a loss weighting.
#include "schedule/trainers/draws.h"

#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {

TrainerTool flowTool(std::string name, std::string knob) {
  TrainerTool t;
  t.name = std::move(name);
  t.coordinate = TrainerCoordinate::FlowTime;
  t.lossSpace = "flow velocity (noise − x0)";
  t.lossToX0 = flowVelocityToX0;
  t.sigmaMin = 0.0;
  t.sigmaMax = INFINITY;
  t.knob = std::move(knob);
  t.discretisation = "continuous t";
  return t;
}

TrainerTool ddpmTool(std::string name, std::string knob, bool vPrediction) {
  TrainerTool t;
  t.name = std::move(name);
  t.coordinate = TrainerCoordinate::DdpmTime;
  t.lossSpace = vPrediction ? "v (DDPM v-prediction)" : "epsilon";
  t.lossToX0 = vPrediction ? vPredictionToX0 : epsilonToX0;
  t.sigmaMin = ddpmSigma(0);
  t.sigmaMax = ddpmSigma(999);
  t.knob = std::move(knob);
  t.discretisation = "integer timesteps 0 … 999 of SD's scaled-linear table";
  t.tableEdges = tableEdges(1000);  // k = ⌊1000·u⌋
  return t;
}

TrainerTool sigmaTool(std::string name, std::string knob) {
  TrainerTool t;
  t.name = std::move(name);
  t.coordinate = TrainerCoordinate::Sigma;
  t.lossSpace = "x0 with EDM's weight λ(σ), σ_d = 0.5";
  t.lossToX0 = one;
  t.sigmaMin = 0.0;
  t.sigmaMax = INFINITY;
  t.knob = std::move(knob);
  t.discretisation = "continuous σ";
  return t;
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

}  // namespace noisescope::schedule::trainers
