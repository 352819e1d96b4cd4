// NVlabs' EDM and EDM2 and crowsonkb's k-diffusion: tools that draw σ itself and train EDM's
// preconditioned x0 loss (docs/trainers.md).
#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {
namespace {

ModelDefinition lognormalModel(bool second) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = second ? sigmaTool("edm2", "the preset's loss_kwargs in train_edm2.py")
             : sigmaTool("edm", "EDMLoss's arguments, set in train.py");
  const double mean = second ? -0.4 : -1.2, std = second ? 1.0 : 1.2;
  t.families.push_back(
      {"lognormal",
       {param("P_mean", mean, -5.0, 5.0), param("P_std", std, 0.05, 5.0)},
       [](double u, const Params& p) { return logNormalSigma(u, p[0], p[1]); },
       fixedWeight([](double s) { return edmWeight(s); }),
       [second](const Params& p) {
         if (second)
           return "loss_kwargs=dict(class_name='training.training_loop.EDM2Loss', P_mean=" +
                  num(p[0]) + ", P_std=" + num(p[1]) + ", sigma_data=0.5)";
         return "c.loss_kwargs.update(P_mean=" + num(p[0]) + ", P_std=" + num(p[1]) +
                ")  # in train.py, after the --precond edm branch";
       },
       second ? "the learned log-variance weighting is left out (it flattens the loss per σ)"
              : "σ = exp(P_mean + P_std·z)"});
  t.model = second ? "edm2-img512" : "edm";
  t.modelNote = second ? "the ImageNet-512 latent presets of train_edm2.py"
                       : "pixel-space EDM (train.py --precond edm)";
  m.defaultDraw = "lognormal";
  return m;
}

ModelDefinition imageModels() {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = sigmaTool("k-diffusion", "the model config JSON, model.sigma_sample_density");
  t.families.push_back({"lognormal",
                        {param("mean", -1.2, -5.0, 5.0), param("std", 1.2, 0.05, 5.0)},
                        [](double u, const Params& p) { return logNormalSigma(u, p[0], p[1]); },
                        fixedWeight([](double s) { return edmWeight(s); }),
                        [](const Params& p) {
                          return "\"sigma_sample_density\": {\"type\": \"lognormal\", \"mean\": " +
                                 num(p[0]) + ", \"std\": " + num(p[1]) + "}";
                        },
                        "loss_config karras (EDM's weight), sigma_data 0.5"});
  t.families.push_back({"loglogistic",
                        {param("loc", -1.2, -5.0, 5.0), param("scale", 0.6, 0.03, 3.0)},
                        [](double u, const Params& p) {
                          if (!(u > 0.0)) return 0.0;
                          const double z = (std::log(u) - p[0]) / p[1];
                          const double e = std::exp(-std::abs(z));
                          return e / (p[1] * (1.0 + e) * (1.0 + e) * u);
                        },
                        fixedWeight([](double s) { return edmWeight(s); }),
                        [](const Params& p) {
                          return "\"sigma_sample_density\": {\"type\": \"loglogistic\", \"loc\": " +
                                 num(p[0]) + ", \"scale\": " + num(p[1]) +
                                 ", \"min_value\": 0.002, \"max_value\": 80}";
                        },
                        "log σ logistic(loc, scale), cut to [min_value, max_value]"});
  t.families.push_back(
      {"loguniform",
       {param("min_value", 0.01, 0.002, 10.0, true), param("max_value", 10.0, 0.01, 80.0, true)},
       [](double u, const Params& p) {
         if (!(p[1] > p[0]) || u < p[0] || u > p[1]) return 0.0;
         return 1.0 / (u * std::log(p[1] / p[0]));
       },
       fixedWeight([](double s) { return edmWeight(s); }),
       [](const Params& p) {
         return "\"sigma_sample_density\": {\"type\": \"loguniform\", "
                "\"min_value\": " +
                num(p[0]) + ", \"max_value\": " + num(p[1]) + "}";
       },
       "log σ uniform on [min_value, max_value]"});
  t.families.push_back({"v-diffusion",
                        {param("sigma_data", 0.5, 0.01, 20.0, true)},
                        [](double u, const Params& p) {
                          if (!(u > 0.0)) return 0.0;
                          const double r = u / p[0];  // σ = σ_d·tan(πv/2), v uniform
                          return 2.0 / (kPi * p[0] * (1.0 + r * r));
                        },
                        fixedWeight([](double s) { return edmWeight(s); }),
                        [](const Params& p) {
                          return "\"sigma_sample_density\": {\"type\": \"v-diffusion\", "
                                 "\"min_value\": 0.002, \"max_value\": 80}\n# with the "
                                 "model's \"sigma_data\": " +
                                 num(p[0]) + " (it also sets the loss weight's σ_d)";
                        },
                        "half-Cauchy in σ of scale sigma_data"});
  t.model = "image-v1";
  t.modelNote = "the image configs (configs/config_*.json), loss_config karras";
  m.defaultDraw = "lognormal";
  return m;
}

}  // namespace

ModelDefinition edm(const TrainerSettings&, const std::string&) {
  return lognormalModel(false);
}
ModelDefinition edm2(const TrainerSettings&, const std::string&) {
  return lognormalModel(true);
}
ModelDefinition kDiffusion(const TrainerSettings&, const std::string&) {
  return imageModels();
}

}  // namespace noisescope::schedule::trainers
