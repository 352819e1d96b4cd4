// noisescope-cli schedule: make a schedule (a family or preset, an entropic schedule from an MMSE
// profile, a density table, or an atomic optimum) or show one from a file; optionally write it.
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "command.h"
#include "data/load.h"
#include "diagnostic/empirical_diagnostic.h"
#include "util/atomic_file.h"
#include "io/profile_io.h"
#include "io/provenance.h"
#include "io/schedule_io.h"
#include "progress_bar.h"
#include "schedule/allocation.h"
#include "diagnostic/checkpoint_information.h"
#include "schedule/atomic.h"
#include "schedule/entropic.h"
#include "schedule/families.h"
#include "io/schedule_spec.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

using namespace noisescope::schedule;
using nlohmann::json;

struct ScheduleArgs {
  // What to make (exactly one).
  std::string preset, family, from, table, profile, profileDataset;
  bool atomic = false, list = false;
  std::vector<std::string> params;  // key=value
  // Grid.
  double sigmaMin = 0.002, sigmaMax = 80.0;
  int bins = 256;
  // Loss weight (default: the preset's, else the method's).
  std::string weight;
  double sigmaData = 0.5, gamma = 5.0;
  // Entropic.
  std::string method = "infonoise";
  double gateC = -1.0, gateN = 3.0, smoothing = 0.0;
  std::string sqrtCoordinate = "log-sigma";
  int profileQueries = 256, profileLevels = 64;
  std::string tableCoordinate = "sigma";
  // Atomic.
  std::string dataset, checkpoint, parameterName, criterion = "A", targetWeight = "elbo";
  std::string device = "auto";
  int levels = 48, features = 128, samples = 2048, maxIterations = 20000;
  double gap = 1e-9, mergeSpacing = 0.12;
  uint64_t seed = 1;
  // Output.
  std::string output, stepsOutput, saveProfile;
  std::vector<std::string> compareRisk;  // atomic: R of these schedules relative to the optimum
  int steps = 0;
  bool json = false;
};

ParameterValues parseParams(const std::vector<std::string>& items) {
  ParameterValues out;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw InputError("--param", "'" + item + "' is not key=value");
    char* end = nullptr;
    const std::string value = item.substr(eq + 1);
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v))
      throw InputError("--param", "'" + value + "' is not a number");
    out[item.substr(0, eq)] = v;
  }
  return out;
}

std::vector<double> logSpaced(double lo, double hi, int n) {
  std::vector<double> out(n);
  for (int i = 0; i < n; ++i)
    out[i] = std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * i / std::max(1, n - 1));
  return out;
}

void listFamilies() {
  std::printf("Families (use --family NAME --param key=value):\n");
  for (const auto& f : families()) {
    std::printf("  %-15s %s: %s\n", f.name.c_str(), f.label.c_str(), f.formula.c_str());
    for (const auto& p : f.parameters)
      std::printf("      %-11s default %-8g range [%g, %g] %s\n", p.name.c_str(), p.defaultValue,
                  p.minimum, p.maximum, p.help.c_str());
  }
  std::printf("Presets (use --preset NAME):\n");
  for (const auto& p : presets()) {
    std::string values;
    for (const auto& [k, v] : p.parameters) values += " " + k + "=" + std::to_string(v);
    std::printf("  %-13s %-34s family %s,%s; weight %s\n", p.name.c_str(), p.label.c_str(),
                p.family.c_str(), values.c_str(), presetLossWeight(p.name).name().c_str());
  }
  std::printf("Loss weights (--weight): ");
  for (const auto& w : lossWeightNames()) std::printf("%s ", w.c_str());
  std::printf("\n");
}

RateProfile loadProfile(const ScheduleArgs& a) {
  if (!a.profile.empty()) return readRateProfile(a.profile);
  LoadOptions load;
  load.progress = stderrProgress("loading");
  const Dataset data = loadDataset(a.profileDataset, load);
  DiagnosticOptions options;
  options.levels = a.profileLevels;
  options.sigmaMin = a.sigmaMin;
  options.sigmaMax = a.sigmaMax;
  options.queries = a.profileQueries;
  options.seed = a.seed;
  options.device = a.device;
  Profile p = computeEmpiricalProfile(data, options, stderrProgress("profile"));
  p.provenance =
      makeProvenance("noisescope-cli schedule --profile-dataset", {{"dataset", a.profileDataset},
                                                                   {"queries", a.profileQueries},
                                                                   {"levels", a.profileLevels},
                                                                   {"seed", a.seed}});
  if (!a.saveProfile.empty()) {
    writeProfile(a.saveProfile, p);
    std::fprintf(stderr, "wrote %s\n", a.saveProfile.c_str());
  }
  return rateProfileFrom(p, "empirical profile of " + a.profileDataset);
}

void printSummary(const Schedule& s) {
  std::printf("%s  [%s]\n", s.info.label.c_str(), s.info.kind.c_str());
  for (const auto& [k, v] : s.info.parameters) std::printf("  %-26s %g\n", k.c_str(), v);
  for (const auto& [k, v] : s.info.notes) std::printf("  %-26s %s\n", k.c_str(), v.c_str());
  std::printf("  %-26s %s\n", "loss weight", s.lossWeight.label().c_str());
  std::printf("  %-26s [%g, %g]\n", "sigma range", s.sigmaMin(), s.sigmaMax());
  std::printf("  %-26s %.3e\n", "truncated mass", s.info.truncatedMass);
  std::printf("  %-26s %.4g / %.4g / %.4g\n", "pi: sigma at 5%/50%/95%", s.quantileSigma(0.05),
              s.quantileSigma(0.5), s.quantileSigma(0.95));
  if (s.isAtomic()) {
    std::printf("  %zu atoms:\n      σ            weight\n", s.atoms().size());
    for (const auto& a : s.atoms()) std::printf("      %-12.5g %.6f\n", a.sigma, a.weight);
  }
}

json summaryJson(const Schedule& s) {
  json j = scheduleToJson(s);
  j.erase("provenance");
  j["quantiles"] = {{"q05", s.quantileSigma(0.05)},
                    {"median", s.quantileSigma(0.5)},
                    {"q95", s.quantileSigma(0.95)}};
  return j;
}

int run(const ScheduleArgs& a) {
  if (a.list) {
    listFamilies();
    return 0;
  }
  const int sources = !a.preset.empty() + !a.family.empty() + !a.from.empty() + !a.table.empty() +
                      (!a.profile.empty() || !a.profileDataset.empty()) + a.atomic;
  if (sources != 1)
    throw InputError("schedule",
                     "give exactly one of --preset, --family, --from, --table, --profile/"
                     "--profile-dataset, --atomic (or --list)");
  if (!a.profile.empty() && !a.profileDataset.empty())
    throw InputError("--profile", "give --profile or --profile-dataset, not both");
  const LogSigmaGrid grid = LogSigmaGrid::uniform(a.sigmaMin, a.sigmaMax, a.bins);
  const bool weightGiven = !a.weight.empty();
  const LossWeight weight =
      makeLossWeight(weightGiven ? a.weight : "uniform", a.sigmaData, a.gamma);
  json parameters = {{"sigma_min", a.sigmaMin}, {"sigma_max", a.sigmaMax}, {"bins", a.bins}};
  Schedule s;
  std::unique_ptr<Schedule> allocation;  // ρ for entropic time
  if (!a.from.empty()) {
    s = readSchedule(a.from);
    parameters["from"] = a.from;
  } else if (!a.preset.empty()) {
    s = makePresetSchedule(a.preset, grid, parseParams(a.params));
    if (weightGiven) s.lossWeight = weight;
    parameters["preset"] = a.preset;
  } else if (!a.family.empty()) {
    s = makeFamilySchedule(a.family, parseParams(a.params), grid, weight);
    parameters["family"] = a.family;
  } else if (!a.table.empty()) {
    s = readTableSchedule(a.table, grid,
                          coordinateFromString(a.tableCoordinate, "--table-coordinate"));
    s.lossWeight = weight;
    parameters["table"] = a.table;
  } else if (!a.profile.empty() || !a.profileDataset.empty()) {
    const RateProfile profile = loadProfile(a);
    parameters["profile"] = profile.source;
    parameters["method"] = a.method;
    if (a.method == "infonoise") {
      InfoNoiseOptions o;
      o.gateC = a.gateC >= 0 ? a.gateC : 0.15;
      o.gateN = a.gateN;
      o.smoothing = a.smoothing;
      o.weight = weightGiven ? weight : makeLossWeight("edm", a.sigmaData, a.gamma);
      s = infoNoiseSchedule(profile, grid, o);
      allocation = std::make_unique<Schedule>(infoNoiseAllocation(profile, grid, o));
    } else if (a.method == "sqrt-entropy") {
      SqrtEntropyOptions o;
      o.coordinate = coordinateFromString(a.sqrtCoordinate, "--sqrt-coordinate");
      o.gateC = a.gateC >= 0 ? a.gateC : 0.0;
      o.gateN = a.gateN;
      o.smoothing = a.smoothing;
      o.weight = weight;
      s = sqrtEntropySchedule(profile, grid, o);
      InfoNoiseOptions rho;
      rho.gateC = o.gateC;
      rho.gateN = o.gateN;
      rho.smoothing = a.smoothing;
      allocation = std::make_unique<Schedule>(infoNoiseAllocation(profile, grid, rho));
    } else {
      throw InputError("--method", "unknown method '" + a.method + "' (infonoise or sqrt-entropy)");
    }
  } else {
    if (a.dataset.empty())
      throw InputError("--atomic", "needs --dataset (and optionally --checkpoint)");
    LoadOptions load;
    load.progress = stderrProgress("loading");
    const Dataset data = loadDataset(a.dataset, load);
    const std::vector<double> sigma = logSpaced(a.sigmaMin, a.sigmaMax, a.levels);
    if (a.levels < 2 || a.levels > 2000) throw InputError("--levels", "must be in [2, 2000]");
    InformationMatrices info;
    if (a.checkpoint.empty()) {
      RandomFeatureOptions o;
      o.features = a.features;
      o.samples = a.samples;
      o.seed = a.seed;
      o.progress = stderrProgress("information");
      info = randomFeatureInformation(data, sigma, o);
    } else {
      CheckpointInformationOptions o;
      o.parameter = a.parameterName;
      o.samples = a.samples;
      o.device = a.device;
      o.seed = a.seed;
      o.progress = stderrProgress("information");
      info = checkpointInformation(a.checkpoint, data, sigma, o);
    }
    AtomicOptions o;
    o.trainingWeight = weight;
    o.targetWeight = makeLossWeight(a.targetWeight, a.sigmaData, a.gamma, "--target-weight");
    if (a.criterion == "A")
      o.criterion = DesignCriterion::A;
    else if (a.criterion == "D")
      o.criterion = DesignCriterion::D;
    else
      throw InputError("--criterion", "must be A or D");
    o.mergeSpacing = a.mergeSpacing;
    o.solver.gapTolerance = a.gap;
    o.solver.maxIterations = a.maxIterations;
    o.solver.multiplicativeWarmStart = 50;
    o.solver.progress = stderrProgress("design");
    o.sigmaMin = a.sigmaMin;
    o.sigmaMax = a.sigmaMax;
    const AtomicResult r = designAtomicSchedule(info, o);
    s = r.schedule;
    for (const auto& spec : a.compareRisk) {
      const Schedule proxy = scheduleFromSpec(spec, grid);
      const double ratio = riskOfSchedule(r, proxy) / r.design.criterion;
      std::printf("R(%s) / R(optimum) = %.4f\n", spec.c_str(), ratio);
      s.info.setParameter("risk_ratio:" + spec, ratio);
    }
    parameters["dataset"] = a.dataset;
    if (!a.checkpoint.empty()) parameters["checkpoint"] = a.checkpoint;
    parameters["levels"] = a.levels;
    parameters["seed"] = a.seed;
    std::fprintf(stderr,
                 "design: R = %.6g, certificate gap = %.3g (relative %.3g), %d iterations, %s\n",
                 r.design.criterion, r.design.gap, r.design.relativeGap, r.design.iterations,
                 r.design.converged ? "converged" : "NOT converged (raise --max-iterations)");
  }

  if (a.json)
    std::cout << summaryJson(s).dump(2) << "\n";
  else
    printSummary(s);

  const json provenance = makeProvenance("noisescope-cli schedule", parameters);
  if (!a.output.empty()) {
    writeSchedule(a.output, s, provenance);
    std::fprintf(stderr, "wrote %s\n", a.output.c_str());
  }
  if (a.steps > 0) {
    // Entropic time: quantiles of ρ for entropic schedules, of the schedule's φ otherwise.
    const Schedule rho = allocation ? *allocation : effectiveAllocation(s);
    const std::vector<double> sigmas = entropicTimeGrid(rho, a.steps);
    if (!a.stepsOutput.empty()) {
      const bool asJson =
          a.stepsOutput.size() > 5 && a.stepsOutput.substr(a.stepsOutput.size() - 5) == ".json";
      std::string text;
      if (asJson) {
        json j = {
            {"format", "noisescope.sigma-steps/1"},
            {"description", "σ_k = u⁻¹(k/(N−1)), u the CDF of " + rho.info.kind + "; ascending"},
            {"sigma", sigmas},
            {"provenance", provenance}};
        text = j.dump(2) + "\n";
      } else {
        for (double v : sigmas) text += std::to_string(v) + "\n";
      }
      writeFileAtomically(a.stepsOutput, text);
      std::fprintf(stderr, "wrote %s\n", a.stepsOutput.c_str());
    } else {
      std::printf("entropic-time grid (%d steps, ascending σ):", a.steps);
      for (double v : sigmas) std::printf(" %.5g", v);
      std::printf("\n");
    }
  }
  return 0;
}

const CommandRegistration registration("schedule", [](CLI::App& app) -> std::function<int()> {
  app.description(
      "Make a noise schedule (family, preset, entropic from a profile, table, atomic optimum) or "
      "show one");
  auto a = std::make_shared<ScheduleArgs>();
  app.add_flag("--list", a->list, "List families, presets and loss weights");
  app.add_option(
      "--preset", a->preset,
      "Preset: edm, edm2-img512, edm2-img64, log-uniform, cosine, vp, sd3, logit-normal, laplace");
  app.add_option("--family", a->family,
                 "Family: edm, log-uniform, cosine, vp, logit-normal, laplace-lambda");
  app.add_option("--param", a->params, "Family parameter key=value (repeatable)");
  app.add_option("--from", a->from, "Show (and convert with --output) a schedule file");
  app.add_option("--table", a->table, "Density table (CSV/JSON with sigma, density)");
  app.add_option("--table-coordinate", a->tableCoordinate, "Coordinate of the table's density")
      ->capture_default_str();
  app.add_option("--profile", a->profile,
                 "MMSE profile (noisescope.profile/1, or a sigma,mmse table)");
  app.add_option("--profile-dataset", a->profileDataset,
                 "Compute the empirical profile of this dataset first");
  app.add_option("--profile-queries", a->profileQueries,
                 "Monte Carlo queries for --profile-dataset")
      ->capture_default_str();
  app.add_option("--save-profile", a->saveProfile,
                 "Write the computed profile (noisescope.profile/1 JSON)");
  app.add_option("--compare-risk", a->compareRisk,
                 "With --atomic: R of these schedules (at equal φ) relative to the optimum");
  app.add_option("--profile-levels", a->profileLevels, "σ levels for --profile-dataset")
      ->capture_default_str();
  app.add_option("--method", a->method, "With a profile: infonoise or sqrt-entropy")
      ->capture_default_str();
  app.add_option("--gate-c", a->gateC,
                 "Low-noise gate c (InfoNoise default 0.15; √-entropy default 0 = off)");
  app.add_option("--gate-n", a->gateN, "Gate exponent n")->capture_default_str();
  app.add_option("--sqrt-coordinate", a->sqrtCoordinate,
                 "u of π(u) ∝ √(dH/du): sigma, log-sigma, lambda")
      ->capture_default_str();
  app.add_option("--smoothing", a->smoothing,
                 "Gaussian smoothing of the profile's log rate, bandwidth in log σ")
      ->capture_default_str();
  app.add_flag("--atomic", a->atomic, "Optimise an atomic schedule (optimal design)");
  app.add_option("--dataset", a->dataset, "Dataset for --atomic (file or synthetic:KIND?...)");
  app.add_option("--checkpoint", a->checkpoint,
                 "TorchScript denoiser: use its last linear layer's Jacobian");
  app.add_option("--parameter", a->parameterName,
                 "Checkpoint weight to use (default: last 2-D *weight)");
  app.add_option("--levels", a->levels, "Candidate σ levels for --atomic")->capture_default_str();
  app.add_option("--features", a->features, "Random features")->capture_default_str();
  app.add_option("--samples", a->samples, "Monte Carlo (x, ε) pairs per level")
      ->capture_default_str();
  app.add_option("--criterion", a->criterion, "A (excess risk tr(A M⁻¹)) or D (−log det M)")
      ->capture_default_str();
  app.add_option("--target-weight", a->targetWeight, "ν of the target A = Σ ν_g H_g, per d log σ")
      ->capture_default_str();
  app.add_option("--gap", a->gap, "Relative duality-gap tolerance")->capture_default_str();
  app.add_option("--max-iterations", a->maxIterations, "Solver iterations")->capture_default_str();
  app.add_option("--merge-spacing", a->mergeSpacing,
                 "Merge neighbouring atoms closer than this in log σ")
      ->capture_default_str();
  app.add_option("--seed", a->seed, "Random seed")->capture_default_str();
  app.add_option("--device", a->device, "auto, cpu, cuda[:N]")->capture_default_str();
  app.add_option("--sigma-min", a->sigmaMin, "Grid lower end")->capture_default_str();
  app.add_option("--sigma-max", a->sigmaMax, "Grid upper end")->capture_default_str();
  app.add_option("--bins", a->bins, "Log-σ bins")->capture_default_str();
  app.add_option("--weight", a->weight,
                 "Loss weight: edm, uniform, epsilon, v, min-snr, flow-v, elbo");
  app.add_option("--sigma-data", a->sigmaData, "σ_d of the EDM weight")->capture_default_str();
  app.add_option("--gamma", a->gamma, "γ of min-SNR-γ")->capture_default_str();
  app.add_option("-o,--output", a->output, "Write the schedule (.json, .csv, .h5)");
  app.add_option("--steps", a->steps, "Entropic-time sampling grid with this many σ steps");
  app.add_option("--steps-output", a->stepsOutput, "Write the σ steps (.json or one per line)");
  app.add_flag("--json", a->json, "Print the schedule as JSON instead of a summary");
  return [a] { return run(*a); };
});

}  // namespace
}  // namespace noisescope::cli
