#pragma once
// One builder per tool: the tool as it trains a model family, with the loss weightings that can
// be combined with any of its draws. Internal to core/schedule (trainer_tools.cpp dispatches).
#include <string>
#include <vector>

#include "schedule/trainers/draws.h"

namespace noisescope::schedule::trainers {

struct ModelDefinition {
  TrainerTool tool;  // families: the draws with the default loss (and the tool's exclusive
                     // weighting schemes, each tagged in TrainerFamily::weighting)
  std::vector<LossWeighting> weightings;  // options that multiply whatever is drawn
  std::string defaultDraw;                // the draw a weighting is shown with when not asked
  // The tool's own name of its unweighted loss (k-diffusion: "karras"): the families tagged so
  // are the draws a weighting combines with.
  std::string baseWeighting = "none";
};

struct ToolEntry {
  std::string name;
  std::vector<std::string> models;  // the default first
  ModelDefinition (*build)(const TrainerSettings& settings, const std::string& model);
};

// A flow model of `tool` (velocity loss, continuous t until the caller says otherwise), its
// knobs described by `knob`, its model named and noted as `fit` prints them.
ModelDefinition flowModel(std::string tool, std::string knob, std::string model, std::string note);

ModelDefinition diffusers(const TrainerSettings& settings, const std::string& model);
ModelDefinition sdScripts(const TrainerSettings& settings, const std::string& model);
ModelDefinition musubiTuner(const TrainerSettings& settings, const std::string& model);
ModelDefinition oneTrainer(const TrainerSettings& settings, const std::string& model);
ModelDefinition simpleTuner(const TrainerSettings& settings, const std::string& model);
// The flow models SimpleTuner is modelled for (their auto shift differs), Flux first.
std::vector<std::string> simpleTunerModels();
ModelDefinition aiToolkit(const TrainerSettings& settings, const std::string& model);
// The architectures ai-toolkit is modelled for, its web UI's first (Flux) first.
std::vector<std::string> aiToolkitModels();
ModelDefinition edm(const TrainerSettings& settings, const std::string& model);
ModelDefinition edm2(const TrainerSettings& settings, const std::string& model);
ModelDefinition kDiffusion(const TrainerSettings& settings, const std::string& model);

// The Flux-style logit-normal families sd-scripts and musubi-tuner share (shift, sigmoid,
// flux_shift, uniform), each snippet ending with `extra`. flux_shift's μ counts the latent's
// (h//2)·(w//2) tokens, h and w the image's sides over `latentDownscale` (8: Flux's autoencoder).
void kohyaFlowFamilies(TrainerTool& tool, const TrainerSettings& settings, const std::string& extra,
                       int latentDownscale = 8);

// SD 1.5/SDXL's min-SNR-γ weighting under an option name and snippet of the tool's own.
LossWeighting minSnrGamma(std::string name, bool vPrediction, double defaultGamma,
                          std::function<std::string(double)> snippet);

}  // namespace noisescope::schedule::trainers
