// NVlabs' EDM and EDM2: tools that draw σ itself and train EDM's preconditioned x0 loss
// (docs/trainers.md).
#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {
namespace {

// E‖D − y‖² at σ from the (σ, error) pairs: linear in (log σ, log error) between them, the end
// values beyond, and never below a millionth of the largest (an exact zero would be an infinite
// weight).
double errorAt(const std::vector<std::pair<double, double>>& error, double sigma) {
  double largest = 0.0;
  for (const auto& [s, e] : error) largest = std::max(largest, e);
  const double floor = 1e-6 * largest;
  auto value = [floor](double e) { return std::log(std::max(e, floor)); };
  if (sigma <= error.front().first) return std::exp(value(error.front().second));
  if (sigma >= error.back().first) return std::exp(value(error.back().second));
  std::size_t j = 1;
  while (error[j].first < sigma) ++j;
  const auto& [s0, e0] = error[j - 1];
  const auto& [s1, e1] = error[j];
  const double w = std::log(sigma / s0) / std::log(s1 / s0);
  return std::exp((1.0 - w) * value(e0) + w * value(e1));
}

ModelDefinition lognormalModel(bool second, const TrainerSettings& settings) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = second ? sigmaTool("edm2", "train_edm2.py's --P_mean and --P_std")
             : sigmaTool("edm", "EDMLoss's arguments, set in train.py");
  const double mean = second ? -0.4 : -1.2, std = second ? 1.0 : 1.2;
  // EDM2Loss divides λ(σ)·‖D − y‖² by e^{u(σ)}, u learned: at equilibrium e^u = λ·E‖D − y‖², so
  // the x0 weight is 1/E‖D − y‖²(σ) (training/training_loop.py EDM2Loss.__call__).
  const auto error = settings.modelError;
  const bool learned = second && !error.empty();
  std::function<double(double, const Params&)> weight =
      fixedWeight([](double s) { return edmWeight(s); });
  if (learned) {
    t.lossSpace =
        "x0 with EDM2's learned weight, at equilibrium 1/E‖D − y‖²(σ) (the given "
        "profile's MMSE standing in for the model's error)";
    weight = fixedWeight([error](double s) { return 1.0 / errorAt(error, s); });
  }
  std::string note = "σ = exp(P_mean + P_std·z)";
  if (second)
    note = learned ? "the learned weighting modelled from the profile's MMSE (an estimate: the "
                     "model's own error is larger wherever it has not converged)"
                   : "the learned log-variance weighting is not modelled: give fit "
                     "--error-profile P.json for it";
  t.families.push_back(
      {"lognormal",
       {param("P_mean", mean, -5.0, 5.0), param("P_std", std, 0.05, 5.0)},
       [](double u, const Params& p) { return logNormalSigma(u, p[0], p[1]); },
       weight,
       [second](const Params& p) {
         if (second)
           return "python train_edm2.py --P_mean " + num(p[0]) + " --P_std " + num(p[1]) +
                  "  # with your --preset, --data and --outdir; these override the preset's";
         return "c.loss_kwargs.update(P_mean=" + num(p[0]) + ", P_std=" + num(p[1]) +
                ")  # in train.py, after the --precond edm branch";
       },
       note});
  t.model = second ? "edm2-img512" : "edm";
  t.modelNote = second ? "the ImageNet-512 latent presets of train_edm2.py"
                       : "pixel-space EDM (train.py --precond edm)";
  m.defaultDraw = "lognormal";
  return m;
}

}  // namespace

ModelDefinition edm(const TrainerSettings& settings, const std::string&) {
  return lognormalModel(false, settings);
}
ModelDefinition edm2(const TrainerSettings& settings, const std::string&) {
  return lognormalModel(true, settings);
}

}  // namespace noisescope::schedule::trainers
