#pragma once
// The noise-level sampling families of other people's trainers, each written once from that
// tool's own draw (docs/trainers.md names the source file of every one), with the tool's time
// coordinate, its own loss weighting and what that weighting is in x0 space (THEORY §12).
//
// A family's density is given per unit of the tool's coordinate u (rectified-flow t, the DDPM
// timestep fraction, or σ); densityLogSigma moves it to ℓ = log σ with the Jacobian (THEORY §1).
// The effective allocation a tool trains with is φ(ℓ) ∝ p_ℓ(ℓ) · w_x0(σ) (THEORY §5).
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>
#include "schedule/engine_defaults.h"
#include "util/setting_names.h"

namespace noisescope::schedule {

// The coordinate a tool draws in.
enum class TrainerCoordinate {
  FlowTime,  // rectified-flow t ∈ (0, 1), σ = t/(1 − t)
  DdpmTime,  // timestep fraction u = k/1000 of SD's scaled-linear ᾱ table (1000 steps)
  Sigma,     // σ itself (EDM, k-diffusion)
};
// "flow-t", "ddpm-t", "sigma".
const char* toString(TrainerCoordinate coordinate);

// σ of the value u in `coordinate`, its inverse, and |du/dℓ| at ℓ = log σ.
double trainerSigma(double u, TrainerCoordinate coordinate);
double trainerCoordinate(double sigma, TrainerCoordinate coordinate);
double trainerUnitsPerLogSigma(double logSigma, TrainerCoordinate coordinate);
// σ at the integer DDPM timestep k ∈ [0, 999]: √((1 − ᾱ_k)/ᾱ_k), betas = linspace(√0.00085,
// √0.012, 1000)² (Stable Diffusion's "scaled_linear").
double ddpmSigma(int step);

// What the user trains: the model family (it fixes a tool's coordinate, table, prediction and
// loss), the loss weighting chosen among the tool's own, and the image size its
// resolution-dependent rules read (Flux's μ from the token count; pixels, the latent is 1/8 of it
// and Flux packs 2×2 latent patches into a token).
struct TrainerSettings {
  int width = 1024;
  int height = 1024;
  std::string model = "";          // empty: the tool's own most common case (TrainerTool::model)
  std::string lossWeighting = "";  // empty: every draw with the default loss, and each weighting
                                   // on the default draw
  // σ_d of the data, where the tool's loss or draw reads it (k-diffusion's model.sigma_data).
  double sigmaData = defaults::kSigmaDataFallback;
  // (σ, E‖D − y‖²) sorted by σ: the model's error per σ, which EDM2's learned weighting divides
  // by at equilibrium; a profile's MMSE stands in for it. Empty: not known.
  std::vector<std::pair<double, double>> modelError;
  // OneTrainer's min_noising_strength / max_noising_strength: the share of its 1000 timesteps the
  // draw is confined to. A held setting (the user's), printed in every snippet, never fitted;
  // other tools have none and refuse a window other than [0, 1].
  double noisingStrengthMin = 0.0, noisingStrengthMax = 1.0;
  // musubi-tuner's --min_timestep / --max_timestep (integers, 0 … 1000) and
  // --preserve_distribution_shape: the window every mode's draw is confined to. Held, printed in
  // every snippet, never fitted; other tools refuse a window other than [0, 1000].
  int timestepMin = 0, timestepMax = 1000;
  bool preserveDistributionShape = false;
  bool hasTimestepWindow() const {
    return timestepMin != 0 || timestepMax != 1000 || preserveDistributionShape;
  }
};
// Flux's μ: linear in the token count from (256 tokens, 0.5) to (4096 tokens, maxShift); Flux's
// own rule (sd-scripts, musubi) uses 1.15, ai-toolkit's scheduler 1.16. σ is multiplied by e^μ.
double fluxShiftMu(const TrainerSettings& settings, double maxShift = 1.15);

struct TrainerParameter {
  std::string name;  // the tool's own spelling (flag, config key)
  double initial = 0.0, lower = 0.0, upper = 0.0;
  bool logScale = false;  // searched in log (a shift, a σ bound)
  // The step the tool reads the value in (1: an integer flag; 0.001: diffusers'
  // int(portion·1000)), so a fitted value is reported as the tool will take it; 0: continuous.
  double quantum = 0.0;
};

struct TrainerFamily {
  std::string name;  // the tool's own value, e.g. "logit_normal", "shift", "LOGIT_NORMAL"
  std::vector<TrainerParameter> parameters;
  // Density per unit of the tool's coordinate at u, for the parameters (in `parameters` order).
  std::function<double(double u, const std::vector<double>& p)> density;
  // The tool's own loss weighting (in its loss space) at σ for these parameters; 1 when none.
  std::function<double(double sigma, const std::vector<double>& p)> toolWeight;
  // Paste-ready text in the tool's own form for these parameter values.
  std::function<std::string(const std::vector<double>& p)> snippet;
  std::string note;                // what is fixed or assumed (a scheduler's shift, a resolution)
  std::string weighting = "none";  // the tool's own name of its loss-weighting option here
  // A free-form family (knots of a density): its parameters are computed from the draw density
  // per unit of the tool's coordinate that would realise the target under the family's loss,
  // instead of searched. Empty for the parametric families.
  std::function<std::vector<double>(const std::function<double(double u)>& drawDensity)>
      fromDrawDensity = {};
  // A draw on a table that moves with the knobs (sd-scripts' sigma mode shifts the scheduler's
  // table itself): the (u, probability) pairs it trains, used for φ instead of `density`, which
  // stays its continuous outline. Empty for the others.
  std::function<std::vector<std::pair<double, double>>(const std::vector<double>& p)> atoms = {};
};

struct TrainerTool {
  std::string name;       // "diffusers", "sd-scripts", ...
  std::string model;      // the model family assumed: "flux", "sd3", "sdxl", "sd15", "sd2-v", ...
  std::string modelNote;  // what that model means here (scripts, checkpoints, tables)
  std::string discretisation;  // the values the tool's draw can take
  // A table the draw is quantised to, in the tool's coordinate: a value falling in the cell
  // [tableEdges[j], tableEdges[j + 1]) is trained at the cell's upper edge when tableAtUpper,
  // else at its lower edge. Empty: the draw is continuous.
  std::vector<double> tableEdges;
  bool tableAtUpper = false;
  TrainerCoordinate coordinate = TrainerCoordinate::FlowTime;
  std::string lossSpace;  // "flow velocity", "epsilon", "EDM x0"
  // Factor that turns the tool's loss (velocity, ε, …) into x0-space error at σ (THEORY §12).
  std::function<double(double sigma)> lossToX0;
  double sigmaMin = 0.0, sigmaMax = 0.0;  // the σ range its draw can reach (0, inf when open)
  std::string knob;                       // where its knobs go
  std::vector<TrainerFamily> families;
  // The family a settings file that names no draw trains: the tool's own default.
  std::string defaultFamily;
  // The value the tool's parser gives an option a settings file leaves out, for the options that
  // select a family (sd-scripts' Flux: --model_prediction_type sigma_scaled). Empty: a left-out
  // option agrees with every family.
  std::map<std::string, std::string> optionDefaults;
};

// The nine tools: diffusers, sd-scripts, musubi-tuner, onetrainer, simpletuner, ai-toolkit, edm,
// edm2, k-diffusion.
std::vector<std::string> trainerToolNames();
// The model families a tool is modelled for, its default (the tool's most common case) first.
// Throws InputError("trainer", …) for an unknown tool.
std::vector<std::string> trainerModelNames(const std::string& tool);
// The tool as it trains settings.model (its default when empty), its families restricted to
// settings.lossWeighting when one is named. Throws InputError(source, …) for an unknown tool,
// InputError("trainer model", …) / InputError("trainer loss weighting", …) for a model or weighting
// the tool does not have (each message lists the valid names).
TrainerTool trainerTool(const std::string& name, const TrainerSettings& settings = {},
                        const std::string& source = settings::kTrainerTool);
// The loss weightings a tool offers for settings.model ("none" first).
std::vector<std::string> trainerLossWeightings(const std::string& tool,
                                               const TrainerSettings& settings = {});

// p_ℓ(ℓ) of a family with parameters p (the family's density moved to log σ).
double trainerDensityLogSigma(const TrainerTool& tool, const TrainerFamily& family,
                              const std::vector<double>& p, double logSigma);
// w_x0(σ) = toolWeight(σ) · lossToX0(σ): the weight the tool's loss puts on x0-space error.
double trainerX0Weight(const TrainerTool& tool, const TrainerFamily& family,
                       const std::vector<double>& p, double sigma);

}  // namespace noisescope::schedule
