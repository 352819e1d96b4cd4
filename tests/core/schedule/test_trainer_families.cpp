// Other trainers' sampling families: each implemented density against a few-line re-implementation
// of that tool's own draw (KS test), parameter recovery for targets that are family members, and
// an honest mismatch for a target no family can express.
#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>

#include "ai_toolkit_lognorm_blend.h"
#include "schedule/trainer_fit.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kDraws = 20000;

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
double flowLogSigma(double t) {
  return std::log(t / (1.0 - t));
}  // t = 1 → +inf

// log σ of SD's scaled-linear table, written out again here (betas from √β linspace).
double ddpmLogSigma(int k) {
  static const std::vector<double> table = [] {
    std::vector<double> t;
    double alphaBar = 1.0;
    for (int i = 0; i < 1000; ++i) {
      const double r = std::sqrt(0.00085) + (std::sqrt(0.012) - std::sqrt(0.00085)) * i / 999.0;
      alphaBar *= 1.0 - r * r;
      t.push_back(0.5 * std::log((1.0 - alphaBar) / alphaBar));
    }
    return t;
  }();
  return table[std::clamp(k, 0, 999)];
}

// Flux's μ rule as the trainers write it: lin((h//8//2)·(w//8//2)) through (256, 0.5), (4096, max).
double fluxMu(int w, int h, double maxShift) {
  const double m = (maxShift - 0.5) / (4096.0 - 256.0);
  return m * ((h / 8 / 2) * (w / 8 / 2)) + (0.5 - m * 256.0);
}

struct Case {
  std::string tool, family;
  std::vector<double> params;
  std::function<double(std::mt19937_64&)> drawLogSigma;  // the tool's draw, as ℓ = log σ
  double lower = -20.0, upper = 20.0;                    // ℓ range the draw is cut to
  std::string model = "";                                // empty: the tool's default
};

const TrainerFamily& familyOf(const TrainerTool& tool, const std::string& name) {
  for (const auto& f : tool.families)
    if (f.name == name) return f;
  throw std::runtime_error("no family " + name + " in " + tool.name);
}

std::vector<Case> cases() {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  // diffusers: u from the density, index ⌊1000u⌋ into descending timesteps 1000 … 1: t = 1 −
  // k/1000.
  auto diffusersT = [](double u) { return (1000.0 - std::floor(u * 1000.0)) / 1000.0; };
  auto mode = [](double u, double s) {
    return 1.0 - u - s * (std::pow(std::cos(kPi * u / 2.0), 2.0) - 1.0 + u);
  };
  auto shift = [](double t, double a) { return a * t / (1.0 + (a - 1.0) * t); };
  std::vector<Case> c;
  c.push_back({"diffusers", "logit_normal", {0.3, 1.1}, [=](auto& g) mutable {
                 return flowLogSigma(diffusersT(sigmoid(0.3 + 1.1 * normal(g))));
               }});
  c.push_back({"diffusers", "mode", {1.29}, [=](auto& g) mutable {
                 return flowLogSigma(diffusersT(mode(uniform(g), 1.29)));
               }});
  for (const std::string family : {"cosmap", "sigma_sqrt", "none"})  // uniform u; weights differ
    c.push_back({"diffusers", family, {}, [=](auto& g) mutable {
                   return flowLogSigma(diffusersT(uniform(g)));
                 }});
  for (const std::string tool : {"sd-scripts", "musubi-tuner"}) {
    c.push_back({tool, "shift", {0.8, 3.1}, [=](auto& g) mutable {
                   return flowLogSigma(shift(sigmoid(0.8 * normal(g)), 3.1));
                 }});
    c.push_back({tool, "sigmoid", {1.3}, [=](auto& g) mutable {
                   return flowLogSigma(sigmoid(1.3 * normal(g)));
                 }});
    c.push_back({tool, "flux_shift", {0.9}, [=](auto& g) mutable {
                   const double t = sigmoid(0.9 * normal(g)),
                                e = std::exp(fluxMu(1024, 1024, 1.15));
                   return flowLogSigma(e / (e + (1.0 / t - 1.0)));
                 }});
    c.push_back({tool, "uniform", {}, [=](auto& g) mutable { return flowLogSigma(uniform(g)); }});
  }
  c.push_back({"simpletuner", "sigmoid", {1.2, 2.0}, [=](auto& g) mutable {
                 return flowLogSigma(shift(sigmoid(1.2 * normal(g)), 2.0));
               }});
  // SimpleTuner's auto shift: μ from (latent W · latent H) // 4 tokens, Flux's (256, 0.5)–(4096,
  // 1.15), applied as sigmas·e^μ / (1 + (e^μ − 1)·sigmas).
  c.push_back({"simpletuner", "auto_shift", {1.1}, [=](auto& g) mutable {
                 const int tokens = (1024 / 8) * (1024 / 8) / 4;
                 const double m = (1.15 - 0.5) / (4096.0 - 256.0);
                 const double e = std::exp(m * tokens + (0.5 - m * 256.0));
                 return flowLogSigma(shift(sigmoid(1.1 * normal(g)), e));
               }});
  c.push_back({"simpletuner", "beta", {3.0, 1.5}, [](auto& g) {
                 std::gamma_distribution<double> a(3.0, 1.0), b(1.5, 1.0);
                 const double x = a(g), y = b(g);
                 return flowLogSigma(x / (x + y));
               }});
  c.push_back({"simpletuner", "uniform", {4.0}, [=](auto& g) mutable {
                 return flowLogSigma(shift(uniform(g), 4.0));
               }});
  // ai-toolkit: an evenly spaced grid of 1000 t, one picked at random.
  auto pick = [](std::mt19937_64& g) {
    return std::uniform_int_distribution<int>(0, 999)(g) / 999.0 * (1.0 - 0.001) + 0.001;
  };
  c.push_back({"ai-toolkit", "shift (edit the scheduler)", {2.5}, [=](auto& g) {
                 return flowLogSigma(shift(pick(g), 2.5));
               }});
  c.push_back({"ai-toolkit", "sigmoid", {}, [=](auto& g) mutable {
                 return flowLogSigma(1.0 - sigmoid(normal(g)));
               }});
  // Flux's scheduler config shifts dynamically, max_shift 1.15 (toolkit/sampler.py flux_config).
  c.push_back({"ai-toolkit", "shift", {}, [=](auto& g) {
                 const double e = std::exp(fluxMu(1024, 1024, 1.15)), t = pick(g);
                 return flowLogSigma(e / (e + (1.0 / t - 1.0)));
               }});
  c.push_back({"ai-toolkit", "linear", {}, [=](auto& g) { return flowLogSigma(pick(g)); }});
  // linear_timesteps(2): the linear grid; their bell weights the loss, not the draw.
  for (const std::string family : {"linear_timesteps", "linear_timesteps2"})
    c.push_back({"ai-toolkit", family, {}, [=](auto& g) { return flowLogSigma(pick(g)); }});
  // weighted: the linear grid; its fixed table weights the loss, not the draw.
  c.push_back({"ai-toolkit", "weighted", {}, [=](auto& g) { return flowLogSigma(pick(g)); }});
  // lognorm_blend (toolkit/samplers/custom_flowmatch_sampler.py set_train_timesteps): 750
  // LogNormal(0, 0.333) draws as (1 − x/max x)·1000 and linspace(1000, 1, 250), sorted
  // descending, .to(torch.int); BaseSDTrainProcess.py picks randint(0, 999) of a fresh grid each
  // step (here every 100 draws). t = 0 and t = 1 clamp to the ℓ range's ends.
  auto lognormBlend = [](std::function<int(std::mt19937_64&)> index) {
    return [grid = std::vector<int>(), n = 0, index](std::mt19937_64& g) mutable {
      if (n++ % 100 == 0) {
        grid = aiToolkitLognormBlendGrid(g);
      }
      return flowLogSigma(grid[index(g)] / 1000.0);
    };
  };
  c.push_back({"ai-toolkit", "lognorm_blend", {}, lognormBlend([](std::mt19937_64& g) {
                 return std::uniform_int_distribution<int>(0, 998)(g);
               })});
  // sd-scripts Flux's default mode: ⌊1000·u⌋ into FlowMatchEulerDiscreteScheduler(shift = 3)'s
  // sigmas, shift₃((1000 − i)/1000).
  c.push_back({"sd-scripts", "sigma", {3.0}, [=](auto& g) {
                 const int i = std::uniform_int_distribution<int>(0, 999)(g);
                 return flowLogSigma(shift((1000.0 - i) / 1000.0, 3.0));
               }});
  // musubi-tuner (training/trainer_base.py): logsnr, t = sigmoid(−logsnr/2), so ℓ = −logsnr/2;
  // qwen_shift and flux2_shift: ℓ = scale·z + μ of their token lines at 1024 px.
  c.push_back({"musubi-tuner", "logsnr", {-1.0, 1.2}, [=](auto& g) mutable {
                 return -(-1.0 + 1.2 * normal(g)) / 2.0;
               }});
  c.push_back({"musubi-tuner", "qwen_shift", {1.3}, [=](auto& g) mutable {
                 return 1.3 * normal(g) + 0.5 + (0.9 - 0.5) / (8192.0 - 256.0) * (4096.0 - 256.0);
               }});
  c.push_back({"musubi-tuner", "flux2_shift", {1.1}, [=](auto& g) mutable {
                 return 1.1 * normal(g) + fluxMu(1024, 1024, 1.15);
               }});
  // krea2_shift: μ = lin((256, 0.5), (6400, 1.15)) of (h//2)(w//2), h = w = 1024/8.
  c.push_back({"musubi-tuner", "krea2_shift", {0.9}, [=](auto& g) mutable {
                 return 0.9 * normal(g) + 0.5 + (1.15 - 0.5) / (6400.0 - 256.0) * (4096.0 - 256.0);
               }});
  // ideogram4_shift (training/timesteps.py compute_ideogram4_shift_timestep): logit t = ½ ln(64·16
  // · 64·16 / 512²) + 1.5·z, t clamped to [1 − sigmoid(7.5), 1 − sigmoid(−9)].
  c.push_back({"musubi-tuner", "ideogram4_shift", {}, [=](auto& g) mutable {
                 const double t =
                     sigmoid(0.5 * std::log(1024.0 * 1024.0 / (512.0 * 512.0)) + 1.5 * normal(g));
                 return flowLogSigma(std::clamp(t, 1.0 - sigmoid(7.5), 1.0 - sigmoid(-9.0)));
               }});
  // qinglong_flux / qinglong_qwen: a uniform decision per sample picks the shifted draw (below
  // 0.79 / 0.95), logsnr N(logit_mean, logit_std) (Flux only, 0.79 … 0.9) or logsnr N(5.36, 1).
  c.push_back({"musubi-tuner", "qinglong_flux", {0.8, -1.0, 1.2}, [=](auto& g) mutable {
                 const double decision = uniform(g), z = normal(g);
                 if (decision < 0.79) return 0.8 * z + fluxMu(1024, 1024, 1.15);
                 if (decision < 0.9) return -(-1.0 + 1.2 * z) / 2.0;
                 return -(5.36 + z) / 2.0;
               }});
  c.push_back({"musubi-tuner", "qinglong_qwen", {1.2}, [=](auto& g) mutable {
                 const double decision = uniform(g), z = normal(g);
                 if (decision < 0.95)
                   return 1.2 * z + 0.5 + (0.9 - 0.5) / (8192.0 - 256.0) * (4096.0 - 256.0);
                 return -(5.36 + z) / 2.0;
               }});
  // sigma, musubi's default: ⌊1000·u⌋ (u uniform for weighting_scheme none) into
  // FlowMatchDiscreteScheduler's unshifted sigmas linspace(1, 0, 1001).
  c.push_back({"musubi-tuner", "sigma", {}, [=](auto& g) mutable {
                 return flowLogSigma(1.0 - std::floor(uniform(g) * 1000.0) / 1000.0);
               }});
  // k-diffusion (k_diffusion/utils.py): rand_split_log_normal and rand_cosine_interpolated
  // (image_d 1024, σ_d 0.5, cut at 1e-3 and 1e3).
  c.push_back({"k-diffusion", "split-lognormal", {-1.0, 1.5, 0.8}, [=](auto& g) mutable {
                 const double n = std::abs(normal(g)), u = uniform(g);
                 return u < 1.5 / 2.3 ? -1.0 - 1.5 * n : -1.0 + 0.8 * n;
               }});
  // (Cut to its own range: the density has integrable infinities where the interpolated map turns
  // back, which the integral check's quadrature would miss; the KS distance still sees them.)
  c.push_back({"k-diffusion",
               "cosine-interpolated",
               {32.0, 1024.0},
               [=](auto& g) mutable {
                 auto cosine = [](double t, double lo, double hi) {
                   const double a = std::atan(std::exp(-0.5 * hi)),
                                b = std::atan(std::exp(-0.5 * lo));
                   return -2.0 * std::log(std::tan(a + t * (b - a)));
                 };
                 auto shifted = [&](double t, double d, double lo, double hi) {
                   const double sh = 2.0 * std::log(d / 1024.0);
                   return cosine(t, lo - sh, hi - sh) + sh;
                 };
                 const double lo = -2.0 * std::log(1e3 / 0.5), hi = -2.0 * std::log(1e-3 / 0.5);
                 const double u = uniform(g);
                 const double a = shifted(u, 32.0, lo, hi), b = shifted(u, 1024.0, lo, hi);
                 return std::log(0.5) - (a + (b - a) * u) / 2.0;
               },
               std::log(1e-3),
               std::log(1e3)});
  // OneTrainer: a continuous draw scaled to 1000 and truncated to an integer timestep.
  auto step = [](double x) { return ddpmLogSigma(static_cast<int>(x * 1000.0)); };
  c.push_back({"onetrainer", "LOGIT_NORMAL", {-0.4, 0.3}, [=](auto& g) mutable {
                 return step(sigmoid(-0.4 + 1.3 * normal(g)));
               }});
  c.push_back({"onetrainer", "HEAVY_TAIL", {0.6, 1.0}, [=](auto& g) mutable {
                 return step(mode(uniform(g), 0.6));
               }});
  c.push_back({"onetrainer", "UNIFORM", {2.0}, [=](auto& g) mutable {
                 const double ts = 1000.0 * uniform(g);
                 return ddpmLogSigma(static_cast<int>(1000.0 * 2.0 * ts / (1.0 * ts + 1000.0)));
               }});
  {
    // SIGMOID with timestep_shift 2: the linspace inverse-shifted, inverse-shifted again inside
    // the sigmoid, times the derivative of one inverse shift.
    std::vector<double> w;
    for (int k = 0; k < 1000; ++k) {
      const double x = k / 999.0, once = x / (2.0 - 2.0 * x + x),
                   twice = once / (2.0 - 2.0 * once + once);
      w.push_back(sigmoid(6.0 * (twice - (0.1 + 0.5))) * 2.0 / std::pow(2.0 + x - 2.0 * x, 2.0));
    }
    auto table = std::make_shared<std::discrete_distribution<int>>(w.begin(), w.end());
    c.push_back({"onetrainer", "SIGMOID", {0.1, 6.0, 2.0}, [table](auto& g) {
                   return ddpmLogSigma((*table)(g));
                 }});
  }
  // BETA under timestep_shift 2: 1000·x shifted to 1000·a·ts/((a − 1)·ts + 1000), truncated.
  c.push_back({"onetrainer", "BETA", {3.0, 1.5, 2.0}, [=](auto& g) {
                 std::gamma_distribution<double> a(3.0, 1.0), b(1.5, 1.0);
                 const double x = a(g), y = b(g), ts = 1000.0 * x / (x + y);
                 return ddpmLogSigma(static_cast<int>(1000.0 * 2.0 * ts / (1.0 * ts + 1000.0)));
               }});
  // COS_MAP and INVERTED_PARABOLA (_get_timestep_discrete): torch.multinomial over weights
  // g(x′)·dx′ at x = i/999, x′ = x/(a − a·x + x), dx′ = a/(a + x − x·a)².
  auto table = [](double a, std::function<double(double)> g) {
    std::vector<double> w(1000);
    for (int i = 0; i < 1000; ++i) {
      const double x = i / 999.0;
      w[i] = g(x / (a - a * x + x)) * a / std::pow(a + x - x * a, 2.0);
    }
    return std::discrete_distribution<int>(w.begin(), w.end());
  };
  c.push_back(
      {"onetrainer", "COS_MAP", {2.0}, [draw = table(2.0, [](double y) {
                                          return 2.0 / (kPi * (1 - 2 * y + 2 * y * y));
                                        })](auto& g) mutable { return ddpmLogSigma(draw(g)); }});
  c.push_back({"onetrainer",
               "INVERTED_PARABOLA",
               {0.1, 4.0, 1.0},
               [draw = table(1.0, [](double y) {
                  return std::max(0.0, 2.0 - 4.0 * (y - 0.6) * (y - 0.6));
                })](auto& g) mutable { return ddpmLogSigma(draw(g)); }});
  for (auto& onetrainer : c)  // these are its SD 1.5/SDXL draws, on the DDPM table
    if (onetrainer.tool == "onetrainer") onetrainer.model = "sdxl";
  c.push_back(
      {"edm", "lognormal", {-1.2, 1.2}, [=](auto& g) mutable { return -1.2 + 1.2 * normal(g); }});
  c.push_back(
      {"edm2", "lognormal", {-0.4, 1.0}, [=](auto& g) mutable { return -0.4 + normal(g); }});
  c.push_back({"k-diffusion", "lognormal", {-0.5, 1.5}, [=](auto& g) mutable {
                 return -0.5 + 1.5 * normal(g);
               }});
  const double lo = std::log(0.002), hi = std::log(80.0);
  c.push_back({"k-diffusion",
               "loglogistic",
               {-1.0, 0.7},
               [=](auto& g) mutable {
                 // u uniform between the logistic CDFs of the bounds, then its quantile.
                 const double a = sigmoid((lo + 1.0) / 0.7), b = sigmoid((hi + 1.0) / 0.7);
                 const double u = a + (b - a) * uniform(g);
                 return std::log(u / (1.0 - u)) * 0.7 - 1.0;
               },
               lo,
               hi});
  c.push_back({"k-diffusion", "loguniform", {0.01, 20.0}, [=](auto& g) mutable {
                 return std::log(0.01) + (std::log(20.0) - std::log(0.01)) * uniform(g);
               }});
  c.push_back({"k-diffusion",
               "v-diffusion",
               {0.002, 80.0},
               [=](auto& g) mutable {
                 const double a = std::atan(0.002 / 0.5) * 2.0 / kPi,
                              b = std::atan(80.0 / 0.5) * 2.0 / kPi;
                 return std::log(std::tan((a + (b - a) * uniform(g)) * kPi / 2.0) * 0.5);
               },
               lo,
               hi});
  return c;
}

// Kolmogorov–Smirnov distance between the draws and the family's CDF in ℓ on [lower, upper].
TrainerTool toolOf(const Case& c) {
  TrainerSettings settings;
  settings.model = c.model;
  return trainerTool(c.tool, settings);
}

double ksDistance(const Case& c, double* total) {
  const TrainerTool tool = toolOf(c);
  const TrainerFamily& family = familyOf(tool, c.family);
  const int points = 80001;
  const double h = (c.upper - c.lower) / (points - 1);
  std::vector<double> cdf(points, 0.0);
  double previous = trainerDensityLogSigma(tool, family, c.params, c.lower);
  for (int i = 1; i < points; ++i) {
    const double d = trainerDensityLogSigma(tool, family, c.params, c.lower + i * h);
    cdf[i] = cdf[i - 1] + 0.5 * (previous + d) * h;
    previous = d;
  }
  *total = cdf.back();
  std::mt19937_64 generator(20);
  std::vector<double> draws(kDraws);
  for (auto& x : draws) x = std::clamp(c.drawLogSigma(generator), c.lower, c.upper);
  std::sort(draws.begin(), draws.end());
  double distance = 0.0;
  for (int i = 0; i < kDraws; ++i) {
    const double position = (draws[i] - c.lower) / h;
    const int k = std::min(static_cast<int>(position), points - 2);
    const double f = (cdf[k] + (position - k) * (cdf[k + 1] - cdf[k])) / cdf.back();
    distance = std::max(
        {distance, std::abs(f - double(i) / kDraws), std::abs(f - double(i + 1) / kDraws)});
  }
  return distance;
}

std::vector<double> fitParameters(const TrainerFamilyFit& fit) {
  std::vector<double> p;
  for (const auto& [name, value] : fit.parameters) p.push_back(value);
  return p;
}

}  // namespace

class TestTrainerFamilies : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void densitiesMatchTheToolsOwnDraws() {
    int checked = 0;
    std::map<std::string, int> drawsOfTool;  // the draws (no weighting combined) per tool and model
    for (const auto& c : cases()) {
      int draws = 0;
      // Free-form families, and those that are atoms only (no density to draw against, e.g.
      // SimpleTuner's flux_fast_schedule), are replayed by test_trainer_models.
      for (const auto& f : toolOf(c).families) {
        std::vector<double> initial;
        for (const auto& q : f.parameters) initial.push_back(q.initial);
        const bool atomsOnly = f.atoms && f.density(0.5, initial) == 0.0;
        draws += f.name.find(" + ") == std::string::npos && !f.fromDrawDensity && !atomsOnly;
      }
      drawsOfTool[c.tool + " " + c.model] = draws;
      double total = 0.0;
      const double d = ksDistance(c, &total);
      const QByteArray name = QByteArray::fromStdString(c.tool + " " + c.family);
      // 1.63/√n is the 1 % critical value; the integer timesteps of some tools add < 0.004.
      QVERIFY2(d < 1.63 / std::sqrt(double(kDraws)) + 0.004, name + " KS " + QByteArray::number(d));
      if (c.lower == -20.0)
        QVERIFY2(std::abs(total - 1.0) < 2e-3,
                 name + " integrates to " + QByteArray::number(total));
      ++checked;
    }
    // Every draw of every tool (OneTrainer's on the DDPM table) has a case; test_trainer_models
    // checks the other models' draws with their loss weights.
    int families = 0;
    for (const auto& [tool, draws] : drawsOfTool) families += draws;
    QCOMPARE(checked, families);
    QCOMPARE(int(drawsOfTool.size()), int(trainerToolNames().size()));
  }

  void recoversMembersOfAFamily() {
    const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
    struct Member {
      std::string tool, family;
      std::vector<double> params;
    };
    for (const Member& m : std::vector<Member>{{"diffusers", "logit_normal", {0.3, 1.1}},
                                               {"edm", "lognormal", {-0.8, 1.4}},
                                               {"edm2", "lognormal", {-0.4, 1.0}},
                                               {"sd-scripts", "shift", {0.8, 2.5}},
                                               {"simpletuner", "beta", {3.0, 1.5}},
                                               {"onetrainer", "LOGIT_NORMAL", {-0.4, 0.3}}}) {
      const TrainerTool tool = trainerTool(m.tool);
      const TrainerFamily& family = familyOf(tool, m.family);
      const auto target = familyAllocationMasses(tool, family, m.params, grid);
      const TrainerFamilyFit fit = fitTrainerFamily(tool, family, grid, target);
      const auto p = fitParameters(fit);
      const QByteArray name = QByteArray::fromStdString(m.tool + " " + m.family);
      for (std::size_t i = 0; i < p.size(); ++i)
        QVERIFY2(
            std::abs(p[i] - m.params[i]) < 0.01 * std::max(1.0, std::abs(m.params[i])),
            name + " parameter " + QByteArray::number(int(i)) + " = " + QByteArray::number(p[i]));
      QVERIFY2(fit.kl < 1e-6 && fit.tv < 1e-3, name);
    }
  }

  void twoBumpsGetAnHonestMismatch() {
    const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
    std::vector<double> target(grid.bins());
    double total = 0.0;
    for (int b = 0; b < grid.bins(); ++b) {
      const double l = grid.center(b);
      target[b] = std::exp(-0.5 * std::pow((l + 3.0) / 0.3, 2)) +
                  std::exp(-0.5 * std::pow((l - 1.5) / 0.3, 2));
      total += target[b];
    }
    for (auto& t : target) t /= total;
    for (const auto& name : trainerToolNames()) {
      TrainerTool tool = trainerTool(name);
      // A free-form family (SimpleTuner's cubic knots) draws the target itself, two bumps
      // included: it must, and the parametric ones must not.
      std::vector<TrainerFamily> freeForm;
      for (auto it = tool.families.begin(); it != tool.families.end();)
        if (it->fromDrawDensity)
          freeForm.push_back(*it), it = tool.families.erase(it);
        else
          ++it;
      for (const auto& f : freeForm) {
        const auto fit = fitTrainerFamily(tool, f, grid, target);
        QVERIFY2(fit.kl < 0.05, QByteArray::fromStdString(name + " " + f.name) + " KL " +
                                    QByteArray::number(fit.kl));
      }
      const auto fits = fitTrainerTool(tool, grid, target);
      QVERIFY(!fits.empty());
      QVERIFY2(fits.front().kl > 0.5 && fits.front().tv > 0.2,
               QByteArray::fromStdString(name) + " best KL " + QByteArray::number(fits.front().kl));
      for (std::size_t i = 1; i < fits.size(); ++i) QVERIFY(fits[i].kl >= fits[i - 1].kl);
    }
  }

  void unknownToolNamesTheFlag() {
    try {
      trainerTool("kohya");
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString(settings::kTrainerTool));
      QVERIFY(QString(e.what()).contains("musubi-tuner"));
    }
  }
};

QTEST_APPLESS_MAIN(TestTrainerFamilies)
#include "test_trainer_families.moc"
