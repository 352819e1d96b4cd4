// noisescope-cli fit: a target effective allocation (a schedule file, or a profile + entropic
// method) → the fitted knobs of another trainer's own sampling families, with their mismatch on
// φ and a paste-ready snippet. The fitting is core/pipeline/schedules/fit_for_tool; this only
// formats.
#include <cstdio>
#include <iostream>
#include <memory>
#include <regex>
#include <vector>

#include "command.h"
#include "io/profile_io.h"
#include "io/tool_fit_io.h"
#include "pipeline/defaults.h"
#include "pipeline/schedules/fit_current.h"
#include "pipeline/schedules/fit_for_tool.h"
#include "profile/profile.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

struct FitArgs {
  std::string target, profile, method, tool, output, model, lossWeighting, errorProfile, current,
      resolution = std::to_string(pipeline::defaults::kTrainerWidth) + "x" +
                   std::to_string(pipeline::defaults::kTrainerHeight);
  double sigmaData = schedule::TrainerSettings{}.sigmaData;
  std::vector<double> noisingStrength;  // empty: the tool's whole range
  std::vector<int> timestepWindow;      // empty: musubi-tuner's whole range
  bool preserveDistributionShape = false;
  bool json = false;
};

schedule::TrainerSettings parseResolution(const std::string& text) {
  std::smatch m;
  if (!std::regex_match(text, m, std::regex(R"((\d{1,6})[x×](\d{1,6}))")))
    throw InputError("--resolution", "'" + text + "' is not WIDTHxHEIGHT in pixels, e.g. 1024x768");
  schedule::TrainerSettings settings;
  settings.width = std::stoi(m[1]);
  settings.height = std::stoi(m[2]);
  return settings;
}

int run(const FitArgs& a) {
  if (a.tool.empty()) throw InputError("--for", "name the tool to fit (see --help)");
  if (a.target.empty() == a.profile.empty())
    throw InputError("fit", "give either a schedule file TARGET or --profile P.json --method M");
  if (!a.profile.empty() && a.method.empty())
    throw InputError("--method", "--profile needs --method infonoise or --method sqrt-entropy");
  if (a.profile.empty() && !a.method.empty())
    throw InputError("--method", "--method needs --profile");
  auto settings = parseResolution(a.resolution);
  settings.model = a.model;
  settings.lossWeighting = a.lossWeighting;
  if (!(a.sigmaData > 0.0 && a.sigmaData < 1e6))
    throw InputError("--sigma-data", "σ_d must be a positive number, e.g. 0.5");
  settings.sigmaData = a.sigmaData;
  if (!a.noisingStrength.empty()) {
    settings.noisingStrengthMin = a.noisingStrength[0];
    settings.noisingStrengthMax = a.noisingStrength[1];
  }
  if (!a.timestepWindow.empty()) {
    settings.timestepMin = a.timestepWindow[0];
    settings.timestepMax = a.timestepWindow[1];
  }
  settings.preserveDistributionShape = a.preserveDistributionShape;
  pipeline::FitTarget target;
  if (!a.errorProfile.empty())
    settings.modelError =
        pipeline::modelErrorFromProfile(readProfile(a.errorProfile), a.errorProfile);
  if (!a.profile.empty()) {
    const Profile profile = readProfile(a.profile);
    target = pipeline::fitTargetFromProfile(profile, a.profile, a.method);
  } else {
    target = pipeline::fitTargetFromScheduleFile(a.target);
  }
  if (!a.current.empty()) {
    if (!a.output.empty())
      throw InputError("--output", "--current prints its comparison; redirect it");
    const io::CurrentFit current =
        pipeline::fitCurrentSettingsFile(target, a.current, a.tool, settings);
    if (a.json) {
      std::cout << io::toJson(current).dump(2) << "\n";
    } else {
      std::printf("target: %s\n", target.source.c_str());
      std::fputs(io::formatCurrentFit(current).c_str(), stdout);
    }
    return 0;
  }
  const io::ToolFit fit = pipeline::fitForTool(target, a.tool, settings);
  if (!a.output.empty()) io::writeToolFit(a.output, fit);
  if (a.json) {
    std::cout << io::toJson(fit).dump(2) << "\n";
  } else {
    std::printf("target: %s\n", target.source.c_str());
    std::fputs(io::formatToolFit(fit).c_str(), stdout);
  }
  return 0;
}

const CommandRegistration fitCommand("fit", [](CLI::App& app) -> std::function<int()> {
  app.description(
      "Fit a trainer's own timestep/σ sampling families to a target effective allocation");
  auto a = std::make_shared<FitArgs>();
  app.add_option("target", a->target, "Target schedule file (its φ = π·w is fitted)");
  app.add_option("--profile", a->profile, "Or: an MMSE profile, with --method");
  app.add_option("--method", a->method, "infonoise or sqrt-entropy (with --profile)");
  app.add_option("--for", a->tool,
                 "diffusers, sd-scripts, musubi-tuner, onetrainer, simpletuner, ai-toolkit, "
                 "edm, edm2, k-diffusion");
  app.add_option("--model", a->model,
                 "The model family trained, e.g. flux, sd3, sdxl, sd15, sd2-v (the tool's own "
                 "list is in the error for a wrong name; default: the tool's most common case, "
                 "named in the output)");
  app.add_option("--loss-weighting", a->lossWeighting,
                 "Fit only with this loss weighting of the tool's own (e.g. min_snr_gamma, "
                 "snr_gamma, MIN_SNR_GAMMA, cosmap, none)");
  app.add_option("--resolution", a->resolution,
                 "Training image size WIDTHxHEIGHT for resolution-dependent shifts (flux_shift)")
      ->capture_default_str();
  app.add_option("--sigma-data", a->sigmaData,
                 "σ_d of the data, where the tool reads it (k-diffusion's model.sigma_data, "
                 "printed in its snippet)")
      ->capture_default_str();
  app.add_option("--noising-strength", a->noisingStrength,
                 "OneTrainer's min_noising_strength and max_noising_strength, MIN MAX: the "
                 "window of its 1000 timesteps your config keeps (held, not fitted; default 0 1)")
      ->expected(2);
  app.add_option("--timestep-window", a->timestepWindow,
                 "musubi-tuner's --min_timestep and --max_timestep, MIN MAX (integers 0 … 1000): "
                 "the window every mode's draw is confined to (held, not fitted; default 0 1000)")
      ->expected(2);
  app.add_flag("--preserve-distribution-shape", a->preserveDistributionShape,
               "with --timestep-window: musubi-tuner's --preserve_distribution_shape (draws "
               "outside the window are redrawn, not squeezed into it)");
  app.add_option("--current", a->current,
                 "Your own settings for the tool (OneTrainer/SimpleTuner/k-diffusion JSON, "
                 "ai-toolkit YAML, kohya TOML, or a command line in a text file): the φ they "
                 "train, its mismatch, and the smallest change of knobs to the best fit");
  app.add_option("--error-profile", a->errorProfile,
                 "An MMSE profile standing in for the model's error in EDM2's learned weighting "
                 "(without it EDM2 is fitted under EDM's λ)");
  app.add_flag("--json", a->json, "Print one JSON object");
  app.add_option("--output", a->output,
                 "Also write the fit to FILE: the JSON object for .json, the text otherwise");
  return [a] { return run(*a); };
});

}  // namespace
}  // namespace noisescope::cli
