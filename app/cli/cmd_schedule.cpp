// noisescope-cli schedule: make a schedule (a family or preset, an entropic schedule from an MMSE
// profile, a density table, or an atomic optimum) or show one from a file; optionally write it.
// The command only parses flags into a recipe (core/pipeline) and prints or writes the result:
// the Schedules panel builds the same recipe through the same functions.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "command.h"
#include "data/load.h"
#include "io/profile_io.h"
#include "io/sigma_steps_io.h"
#include "pipeline/defaults.h"
#include "pipeline/diagnose/diagnose_job.h"
#include "pipeline/sampling/sampling_grids.h"
#include "pipeline/sampling/sigma_steps.h"
#include "pipeline/schedules/atomic_design.h"
#include "pipeline/schedules/schedule_files.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "progress_bar.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

using namespace noisescope::schedule;
using namespace noisescope::pipeline;
using nlohmann::json;

struct ScheduleArgs {
  // What to make (exactly one).
  std::string preset, family, from, table, profile, profileDataset;
  bool atomic = false, list = false;
  std::vector<std::string> params;  // key=value
  // Grid.
  double sigmaMin = pipeline::defaults::kSigmaMin, sigmaMax = pipeline::defaults::kSigmaMax;
  int bins = pipeline::defaults::kBins;
  // Loss weight (default: the preset's, else the method's). σ_data: given, else measured.
  std::string weight;
  std::optional<double> sigmaData;
  double gamma = pipeline::defaults::kMinSnrGamma;
  // Entropic.
  std::string method = "infonoise";
  std::optional<double> gateC;
  double gateN = pipeline::defaults::kGateN, smoothing = 0.0;
  std::string sqrtCoordinate = "log-sigma";
  DiagnosticOptions profileOptions;  // --profile-dataset: levels and queries (σ range: the grid's)
  std::string tableCoordinate = "sigma";
  // Atomic (and the dataset whose σ_data every schedule uses).
  std::string dataset;
  std::string device = "auto";
  AtomicRequest atomicRequest;  // what --atomic's own flags fill (checkpoint, settings, target)
  uint64_t seed = 1;
  // Output.
  std::string output, stepsOutput, saveProfile;
  std::vector<std::string> compareRisk;  // atomic: R of these schedules relative to the optimum
  int steps = 0;
  std::string grid = pipeline::defaults::kSamplingGrid;
  bool json = false;
};

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
  std::printf("Sampling grids (--steps N --grid NAME?key=value; default %s):\n",
              pipeline::defaults::kSamplingGrid);
  for (const auto& g : pipeline::samplingGridFamilyList()) {
    std::printf("  %-15s %s: %s\n", g.name.c_str(), g.label.c_str(), g.rule.c_str());
    for (const auto& p : g.parameters)
      std::printf("      %-15s default %-14s %s\n", p.name.c_str(),
                  p.defaultValue.empty() ? "-" : p.defaultValue.c_str(), p.help.c_str());
  }
  std::printf("Loss weights (--weight): ");
  for (const auto& w : lossWeightNames()) std::printf("%s ", w.c_str());
  std::printf("\n");
}

Dataset load(const std::string& spec) {
  LoadOptions load;
  load.progress = stderrProgress("loading");
  return loadDataset(spec, load);
}

// The entropic recipes' profile: read from --profile, or computed from --profile-dataset.
Profile loadProfile(const ScheduleArgs& a, RecipeContext& context) {
  if (!a.profile.empty()) {
    context.profileSource = a.profile;
    return readProfile(a.profile);
  }
  const Dataset data = load(a.profileDataset);
  pipeline::DiagnoseRequest request;  // the Diagnostic action, kind empirical
  request.options = a.profileOptions;
  request.options.sigmaMin = a.sigmaMin;
  request.options.sigmaMax = a.sigmaMax;
  request.options.seed = a.seed;
  request.options.device = a.device;
  request.producer = "noisescope-cli schedule --profile-dataset";
  Profile p =
      std::move(pipeline::runDiagnosis(data, a.profileDataset, request, stderrProgress("profile"))
                    .profiles.front());
  if (!a.saveProfile.empty()) {
    writeProfile(a.saveProfile, p);
    std::fprintf(stderr, "wrote %s\n", a.saveProfile.c_str());
  }
  context.profileSource = "empirical profile of " + a.profileDataset;
  context.datasetSigmaData = measuredSigmaData(data, a.profileDataset);
  return p;
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
  json j = scheduleSummaryJson(s);
  j["quantiles"] = {{"q05", s.quantileSigma(0.05)},
                    {"median", s.quantileSigma(0.5)},
                    {"q95", s.quantileSigma(0.95)}};
  return j;
}

// The recipe the flags describe (every kind but --atomic, which is a job of its own).
ScheduleRecipe recipeFromFlags(const ScheduleArgs& a) {
  ScheduleRecipe recipe;
  if (!a.from.empty()) return fileRecipe(a.from);
  if (!a.preset.empty()) {
    recipe = presetRecipe(a.preset);
    for (const auto& [key, value] : pipeline::parseParameters(a.params, "--param"))
      recipe.parameters[key] = value;
    recipe.parameters = completeParameters(family(recipe.family), recipe.parameters, "--param");
  } else if (!a.family.empty()) {
    recipe = familyRecipe(a.family, pipeline::parseParameters(a.params, "--param"));
  } else if (!a.table.empty()) {
    recipe = tableRecipe(a.table, coordinateFromString(a.tableCoordinate, "--table-coordinate"));
  } else if (a.method == "infonoise") {
    recipe = infoNoiseRecipe();
  } else if (a.method == "sqrt-entropy") {
    recipe = sqrtEntropyRecipe(coordinateFromString(a.sqrtCoordinate, "--sqrt-coordinate"));
  } else {
    throw InputError("--method", "unknown method '" + a.method + "' (infonoise or sqrt-entropy)");
  }
  if (a.gateC) recipe.gateC = *a.gateC;
  recipe.gateN = a.gateN;
  recipe.smoothing = a.smoothing;
  if (!a.weight.empty()) recipe.weight.kind = lossWeightKindFromString(a.weight, "--weight");
  recipe.weight.gamma = a.gamma;
  recipe.sigmaData = a.sigmaData;
  return recipe;
}

AtomicDesign runAtomic(const ScheduleArgs& a, const Dataset& data, const RecipeContext& context,
                       const LogSigmaGrid& grid) {
  // The flags shared with the other kinds join --atomic's own; the pipeline makes the request
  // from them exactly as the Schedules panel's does.
  AtomicRequest request = a.atomicRequest;
  request.device = a.device;
  request.sigmaMin = a.sigmaMin;
  request.sigmaMax = a.sigmaMax;
  request.seed = a.seed;
  if (!a.weight.empty()) request.trainingWeight = a.weight;
  request.gamma = a.gamma;
  request.sigmaData = a.sigmaData;
  AtomicDesign design = designAtomic(request, data, stderrProgress("atomic design"));
  const DesignResult& r = design.solution;
  for (const auto& spec : a.compareRisk) {
    const Schedule proxy = buildSchedule(recipeFromSpec(spec), grid, context).schedule;
    const double ratio = riskRatio(design, proxy);
    std::printf("R(%s) / R(optimum) = %.4f\n", spec.c_str(), ratio);
    design.built.schedule.info.setParameter("risk_ratio:" + spec, ratio);
  }
  std::fprintf(stderr,
               "design: R = %.6g, certificate gap = %.3g (relative %.3g), %d iterations, %s\n",
               r.criterion, r.gap, r.relativeGap, r.iterations,
               r.converged ? "converged" : "NOT converged (raise --max-iterations)");
  return design;
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
  if (a.atomic && a.dataset.empty())
    throw InputError("--atomic", "needs --dataset (and optionally --checkpoint)");
  const int levels = a.steps > 0             ? a.steps
                     : a.stepsOutput.empty() ? 0
                                             : pipeline::defaults::kSamplingSteps;
  if (levels == 0 && a.grid != pipeline::defaults::kSamplingGrid)
    throw InputError("--grid", "a sampling grid needs --steps N or --steps-output FILE");
  const LogSigmaGrid grid = LogSigmaGrid::uniform(a.sigmaMin, a.sigmaMax, a.bins);

  // A known dataset gives every schedule its measured σ_data.
  RecipeContext context;
  std::optional<Dataset> data;
  if (!a.dataset.empty()) {
    data = load(a.dataset);
    context.datasetSigmaData = measuredSigmaData(*data, a.dataset);
  }
  BuiltSchedule built;
  std::optional<Profile> profile;
  if (a.atomic) {
    built = runAtomic(a, *data, context, grid).built;
  } else {
    const ScheduleRecipe recipe = recipeFromFlags(a);
    if (!a.profile.empty() || !a.profileDataset.empty()) {
      profile = loadProfile(a, context);
      context.profile = &*profile;
    }
    built = buildSchedule(recipe, grid, context);
  }
  const Schedule& s = built.schedule;
  // What the profile it follows means for this schedule (an empirical profile memorises).
  for (const std::string& caveat : built.caveats)
    std::fprintf(stderr, "caveat: %s\n", caveat.c_str());

  if (a.json)
    std::cout << summaryJson(s).dump(2) << "\n";
  else
    printSummary(s);

  const std::string producer = "noisescope-cli schedule";
  if (!a.output.empty()) {
    saveScheduleFile(a.output, built, producer);
    std::fprintf(stderr, "wrote %s\n", a.output.c_str());
  }
  if (levels > 0) {
    const SigmaSteps steps =
        sigmaSteps(built, levels, a.grid, profile ? &*profile : nullptr, context.profileSource);
    // The rule the grid follows and every step the sampler may not integrate, on stderr.
    std::fprintf(stderr, "sampling grid: %s (%s); largest step ×%.4g, limit ×%.4g\n",
                 steps.label.c_str(), steps.grid.c_str(), steps.largestRatio, steps.ratioLimit);
    for (const std::string& warning : steps.warnings)
      std::fprintf(stderr, "warning: %s\n", warning.c_str());
    if (!a.stepsOutput.empty()) {
      writeSigmaSteps(a.stepsOutput, steps, scheduleProvenance(built, producer));
      std::fprintf(stderr, "wrote %s\n", a.stepsOutput.c_str());
    } else {
      std::printf("sampling grid %s, %d levels, descending, then 0:", steps.label.c_str(), levels);
      for (double v : steps.exports.kdiffusionSigmas) std::printf(" %.5g", v);
      std::printf("\n");
    }
  }
  return 0;
}

const CommandRegistration scheduleCommand("schedule", [](CLI::App& app) -> std::function<int()> {
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
  app.add_option("--profile-queries", a->profileOptions.queries,
                 "Monte Carlo queries for --profile-dataset")
      ->capture_default_str();
  app.add_option("--save-profile", a->saveProfile,
                 "Write the computed profile (noisescope.profile/1 JSON)");
  app.add_option("--compare-risk", a->compareRisk,
                 "With --atomic: R of these schedules (at equal φ) relative to the optimum");
  app.add_option("--profile-levels", a->profileOptions.levels, "σ levels for --profile-dataset")
      ->capture_default_str();
  app.add_option("--method", a->method, "With a profile: infonoise or sqrt-entropy")
      ->capture_default_str();
  app.add_option("--gate-c", a->gateC,
                 "Low-noise gate c of the entropic schedules (default " +
                     pipeline::defaults::formatDefault(pipeline::defaults::kGateC) +
                     " for both; 0 = off)");
  app.add_option("--gate-n", a->gateN, "Gate exponent n")->capture_default_str();
  app.add_option("--sqrt-coordinate", a->sqrtCoordinate,
                 "u of π(u) ∝ √(dH/du): sigma, log-sigma, lambda")
      ->capture_default_str();
  app.add_option("--smoothing", a->smoothing,
                 "Gaussian smoothing of the profile's log rate, bandwidth in log σ")
      ->capture_default_str();
  app.add_flag("--atomic", a->atomic, "Optimise an atomic schedule (optimal design)");
  app.add_option("--dataset", a->dataset,
                 "Dataset for --atomic (file or synthetic:KIND?...); with any schedule, its "
                 "measured σ_data is used");
  app.add_option("--checkpoint", a->atomicRequest.checkpoint,
                 "TorchScript denoiser: use its output layer's Jacobian (Gauss–Newton of the x0 "
                 "estimate)");
  app.add_option("--parameter", a->atomicRequest.parameter,
                 "Output-layer weight to use (default: the one linear/conv layer the output "
                 "depends on affinely)");
  app.add_option("--prediction", a->atomicRequest.prediction,
                 "What the checkpoint predicts: x0, eps or v")
      ->capture_default_str()
      ->check(CLI::IsMember({"x0", "eps", "epsilon", "v"}));
  // The design's settings (pipeline AtomicSettings::full() by default), shown with their defaults.
  AtomicSettings& settings = a->atomicRequest.settings;
  auto setting = [&app](const char* flag, auto& value, const char* help) {
    app.add_option(flag, value, help)->capture_default_str();
  };
  setting("--levels", settings.levels, "Candidate σ levels for --atomic");
  setting("--features", settings.features, "Random features");
  setting("--samples", settings.samples, "Monte Carlo (x, ε) pairs per level");
  setting("--gap", settings.gapTolerance, "Relative duality-gap tolerance");
  setting("--max-iterations", settings.maxIterations, "Solver iterations");
  setting("--merge-spacing", settings.mergeSpacing,
          "Merge neighbouring atoms closer than this in log σ");
  setting("--criterion", a->atomicRequest.criterion, "A (excess risk tr(A M⁻¹)) or D (−log det M)");
  setting("--target-weight", a->atomicRequest.targetWeight,
          "ν of the target A = Σ ν_g H_g, per d log σ");
  app.add_option("--seed", a->seed, "Random seed")->capture_default_str();
  app.add_option("--device", a->device, "auto, cpu, cuda[:N]")->capture_default_str();
  app.add_option("--sigma-min", a->sigmaMin, "Grid lower end")->capture_default_str();
  app.add_option("--sigma-max", a->sigmaMax, "Grid upper end")->capture_default_str();
  app.add_option("--bins", a->bins, "Log-σ bins")->capture_default_str();
  app.add_option("--weight", a->weight,
                 "Loss weight: edm, uniform, epsilon, v, min-snr, flow-v, elbo");
  app.add_option("--sigma-data", a->sigmaData,
                 "σ_d of the EDM weight (default: measured from --dataset or recorded in the "
                 "profile, else " +
                     pipeline::defaults::formatDefault(pipeline::defaults::kSigmaDataFallback) +
                     "; the file records which)");
  app.add_option("--gamma", a->gamma, "γ of min-SNR-γ")->capture_default_str();
  app.add_option("-o,--output", a->output, "Write the schedule (.json, .csv, .h5)");
  app.add_option("--steps", a->steps,
                 "Inference σ steps: N levels of the --grid sampling grid (with --steps-output: " +
                     std::to_string(pipeline::defaults::kSamplingSteps) + " unless given)");
  app.add_option(
         "--grid", a->grid,
         "Sampling grid: karras, uniform-sigma, log-sigma, ddpm, flow, entropic, quantiles, "
         "auto (from --profile and its bracket's files: THEORY §6), or a named spec "
         "(gated, rescaled, balanced, karras-profile), with ?key=value "
         "(docs/file-formats.md; entropic uses --profile, quantiles this schedule unless "
         "they name a file)")
      ->capture_default_str();
  app.add_option("--steps-output", a->stepsOutput,
                 "Write the σ steps (.json: noisescope.sigma-steps/2 with the diffusers and "
                 "k-diffusion exports; .py: the same as Python lists; else one σ per line)");
  app.add_flag("--json", a->json, "Print the schedule as JSON instead of a summary");
  return [a] { return run(*a); };
});

}  // namespace
}  // namespace noisescope::cli
