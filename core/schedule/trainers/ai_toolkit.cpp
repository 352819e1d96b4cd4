// ai-toolkit, per architecture (docs/trainers.md). jobs/process/BaseSDTrainProcess.py draws an
// index i into the scheduler's 1000-entry training grid (uniform on 0 … 998, or ⌊1000·U³⌋ for
// content_or_style "content", ⌊1000·(1 − U³)⌋ for "style"); the grid is built by
// toolkit/samplers/custom_flowmatch_sampler.py set_train_timesteps per timestep_type, with the
// architecture's own scheduler config (static shift, or Flux's μ rule, Qwen's terminal stretch);
// extensions_built_in/sd_trainer/SDTrainer.py trains the velocity, times the fixed
// default_weighing_scheme table for "weighted" and a bell for linear_timesteps(2). The linear,
// weighted and lognorm_blend grids lie on the 0.001 steps of t; the shift grid is trained at its
// own entries (add_noise takes t = timestep/1000); the sigmoid grid's random entries are put on the
// next 0.001 step.
#include <cmath>
#include <unordered_map>

#include "schedule/trainers/ai_toolkit_random_grids.h"
#include "schedule/trainers/tools.h"

namespace noisescope::schedule::trainers {
namespace {

// toolkit/timestep_weighing/default_weighing_scheme.py (ai-toolkit 27a03a9), every 25th of its
// 1000 entries and the last: the loss weight by grid index, linear between these. Against the
// full table this moves φ by TV 0.003 on 16 log-σ bins.
constexpr double kWeighingStep = 25.0;
constexpr double kWeighing[] = {0.906, 1.220, 1.375, 1.471, 1.507, 1.522, 1.507, 1.481, 1.441,
                                1.400, 1.355, 1.309, 1.264, 1.218, 1.172, 1.126, 1.083, 1.041,
                                1.000, 0.962, 0.925, 0.891, 0.860, 0.831, 0.805, 0.782, 0.762,
                                0.745, 0.731, 0.721, 0.715, 0.714, 0.716, 0.721, 0.729, 0.732,
                                0.716, 0.666, 0.582, 0.493, 0.447};

double weighingAt(double index) {
  const int last = static_cast<int>(std::size(kWeighing)) - 1;
  const double position = std::clamp(index, 0.0, 999.0) / kWeighingStep;
  const int j = std::min(static_cast<int>(position), last - 1);
  const double right = j + 1 == last ? 999.0 / kWeighingStep : j + 1.0;
  const double f = std::clamp((position - j) / (right - j), 0.0, 1.0);
  return kWeighing[j] + (kWeighing[j + 1] - kWeighing[j]) * f;
}

// An architecture's flowmatch scheduler config (get_train_scheduler of its model class).
struct Architecture {
  std::string model, note, defaultType;
  bool dynamic = false;       // use_dynamic_shifting: σ × e^μ
  double shift = 1.0;         // the static shift otherwise
  double maxShift = 1.15;     // μ at maxTokens
  double maxTokens = 4096.0;  // μ is 0.5 at 256 tokens
  double terminal = 0.0;      // shift_terminal: the grid stretched to end at this t
  // Two experts (is_multistage, Wan 2.2 14B): the high-noise one trains the grid's entries above
  // t = boundary, the low-noise one the rest, on alternate steps; 0: one model.
  double boundary = 0.0;
  bool trainsHigh = true, trainsLow = true;  // model_kwargs train_high_noise / train_low_noise
};

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> list = {
      {"flux", "Flux.1 (toolkit/sampler.py flux_config): dynamic shift", "sigmoid", true},
      {"flux2", "Flux.2 and klein: dynamic shift", "weighted", true},
      {"chroma", "Chroma: dynamic shift", "sigmoid", true},
      {"qwen", "Qwen-Image: dynamic shift 0.5 … 0.9 over 256 … 8192 tokens, terminal 0.02",
       "weighted", true, 1.0, 0.9, 8192.0, 0.02},
      {"zimage", "Z-Image: static shift 3", "weighted", false, 3.0},
      {"wan22-5b", "Wan 2.2 5B: static shift 5", "weighted", false, 5.0},
      {"hidream", "HiDream: static shift 3", "shift", false, 3.0},
      {"lumina2", "Lumina 2: static shift 6", "sigmoid", false, 6.0},
      {"sd3", "SD3 (sd_flow_config): static shift 3", "sigmoid", false, 3.0},
      // extensions_built_in/diffusion_models/wan22/wan22_14b_model.py Wan2214bModel: the 5B's
      // scheduler config (static shift 5), multistage_boundaries [0.875, 0.0] for T2V and I2V
      // alike (boundary_ratio_i2v is used only when sampling).
      {"wan22-14b",
       "Wan 2.2 14B (T2V, I2V): static shift 5; two experts split at t = 0.875, trained on "
       "alternate steps",
       "linear", false, 5.0, 1.15, 4096.0, 0.0, 0.875, true, true},
      {"wan22-14b-high",
       "Wan 2.2 14B, the high-noise expert alone (model_kwargs train_low_noise: false): static "
       "shift 5, the grid above t = 0.875",
       "linear", false, 5.0, 1.15, 4096.0, 0.0, 0.875, true, false},
      {"wan22-14b-low",
       "Wan 2.2 14B, the low-noise expert alone (model_kwargs train_high_noise: false): static "
       "shift 5, the grid from t = 0.875 down",
       "linear", false, 5.0, 1.15, 4096.0, 0.0, 0.875, false, true},
  };
  return list;
}

// The shift-type grid: s from the scheduler's σ_max (1) to its σ_min in 1000 steps, shifted
// (again, for a static shift: σ_min is already the shifted table's end) or by e^μ, then stretched
// to the terminal. t at grid position x (entry i at x = i; continuous between entries).
struct ShiftGrid {
  Architecture a;
  double mu;

  double sMin() const { return a.dynamic ? 0.001 : shiftFlowTime(0.001, a.shift); }
  double shifted(double s) const { return shiftFlowTime(s, a.dynamic ? std::exp(mu) : a.shift); }
  double stretched(double t) const {
    if (!(a.terminal > 0.0)) return t;
    const double scale = (1.0 - shifted(sMin())) / (1.0 - a.terminal);
    return 1.0 - (1.0 - t) / scale;
  }
  double t(double x) const { return stretched(shifted(1.0 - x * (1.0 - sMin()) / 999.0)); }
};

using aitk::ExpertSplit;
using aitk::IndexLaw;
using aitk::IndexStyle;
using aitk::indexStyle;
using aitk::lognormBlendDensity;
using aitk::lognormBlendExpertDensity;
using aitk::sigmoidExpertGridDensity;
using aitk::sigmoidGridDensity;
using aitk::windowOf;

// Density of the grid position x: entry i's probability spread over [i, i + 1).
double indexDensity(double x, const IndexLaw& law) {
  if (!(x >= 0.0 && x < 1000.0)) return 0.0;
  return law.probability(static_cast<int>(x));
}

// The grid position x that gives t on the linear (and weighted) grid, and |dx/dt|: x ∈ [i, i + 1)
// is t ∈ ((999 − i)/1000, (1000 − i)/1000], which the tool's table (quantised to the upper edge)
// trains at entry i's t = (1000 − i)/1000, exactly.
std::pair<double, double> gridIndex(double t) {
  return {1000.0 * (1.0 - t), 1000.0};
}

double indexProbability(int i, const IndexLaw& law) {
  return law.probability(i);
}

// linear_timesteps / linear_timesteps2 (custom_flowmatch_sampler.py,
// CustomFlowMatchEulerDiscreteScheduler.__init__; applied in SDTrainer.py's loss through
// get_weights_for_timesteps): y_i = exp(−2((i − 500)/1000)²) over the 1000 indices, its minimum
// subtracted, scaled to mean 1; the second version holds the indices from 500 on at the value of
// index 500 (its maximum there).
double bellWeight(double index, bool half) {
  static const double scale = [] {
    double sum = 0.0;
    for (int i = 0; i < 1000; ++i)
      sum += std::exp(-2.0 * std::pow((i - 500.0) / 1000.0, 2.0)) - std::exp(-0.5);
    return 1000.0 / sum;
  }();
  const int i = std::clamp(static_cast<int>(std::round(index)), 0, 999);
  const int at = half && i >= 500 ? 500 : i;
  return (std::exp(-2.0 * std::pow((at - 500.0) / 1000.0, 2.0)) - std::exp(-0.5)) * scale;
}

// The shift grid's entries fall between the table's 0.001 steps: each entry's probability is put
// in the step that holds it (so it is trained at most 0.001 above its own t), as a density per
// unit t. The 1000 step masses are computed once per grid, index law and thread.
double shiftGridDensity(double t, const IndexLaw& law, const ShiftGrid& grid) {
  if (!(t > 0.0 && t < 1.0)) return 0.0;
  struct Steps {
    std::string model;
    IndexLaw law;
    double mu = 0.0;
    std::vector<double> mass;
  };
  thread_local Steps steps;
  if (steps.mass.empty() || steps.model != grid.a.model || !(steps.law == law) ||
      steps.mu != grid.mu) {
    steps = {grid.a.model, law, grid.mu, std::vector<double>(1000, 0.0)};
    for (int i = 0; i < 1000; ++i) {
      const int k = std::clamp(static_cast<int>(std::ceil(1000.0 * grid.t(i))) - 1, 0, 999);
      steps.mass[k] += indexProbability(i, law);
    }
  }
  const int k = std::clamp(static_cast<int>(std::ceil(1000.0 * t)) - 1, 0, 999);
  return 1000.0 * steps.mass[k];
}

// The shift grid's 1000 entries as they are trained: add_noise uses t = timestep/1000 of the
// entry itself (not a 0.001 step), so φ is computed on the entries, each with its index
// probability (the density above stays the family's outline).
std::function<std::vector<std::pair<double, double>>(const Params&)> shiftGridAtoms(
    const ShiftGrid& grid, std::function<IndexLaw(const Params&)> lawOf) {
  return [grid, lawOf](const Params& p) {
    const IndexLaw law = lawOf(p);
    std::vector<std::pair<double, double>> atoms(1000);
    for (int i = 0; i < 1000; ++i) atoms[i] = {grid.t(i), indexProbability(i, law)};
    return atoms;
  };
}

std::string yaml(const std::string& type, const std::string& style) {
  return "train:\n  timestep_type: " + type + "\n  content_or_style: " + style;
}

// timestep_type's grids that the index picks from (weighted is the linear grid, loss weighted).
enum class GridType { Sigmoid, Linear, Shift };

GridType gridType(const std::string& word) {
  return word == "sigmoid" ? GridType::Sigmoid
         : word == "shift" ? GridType::Shift
                           : GridType::Linear;
}

// Density per unit t of a timestep_type's grid under an index law.
double gridDensity(GridType type, double u, const IndexLaw& law, const ShiftGrid& grid) {
  if (!(u > 0.0 && u < 1.0)) return 0.0;
  if (type == GridType::Sigmoid) return sigmoidGridDensity(u, law);
  if (type == GridType::Shift) return shiftGridDensity(u, law, grid);
  const auto [v, dvdt] = gridIndex(u);
  return indexDensity(v, law) * dvdt;
}

// What a multistage law trains, for a family's note.
std::string expertNote(const IndexLaw& law) {
  std::string text = "; indices [" + std::to_string(law.lo) + ", " + std::to_string(law.hi) + "]";
  if (law.hi2 >= law.lo2)
    text += " and [" + std::to_string(law.lo2) + ", " + std::to_string(law.hi2) +
            "], the two experts on alternate steps";
  return text;
}

// linear_timesteps, linear_timesteps2: the linear grid (whatever timestep_type says, unless it
// is weighted) and the loss × a bell over the indices (the second flat on the low-noise half),
// each index drawn by lawOf(content_or_style).
void addLinearTimestepFamilies(TrainerTool& t, const ShiftGrid& grid,
                               const std::function<IndexLaw(IndexStyle)>& lawOf, bool experts) {
  for (const std::string style : {"balanced", "content", "style"})
    for (const bool half : {false, true}) {
      const std::string key = half ? "linear_timesteps2" : "linear_timesteps";
      TrainerFamily f{style == "balanced" ? key : key + " + " + style,
                      {},
                      [grid, law = lawOf(indexStyle(style))](double u, const Params&) {
                        return gridDensity(GridType::Linear, u, law, grid);
                      },
                      [half](double sigma, const Params&) {
                        return bellWeight(1000.0 * (1.0 - flowT(sigma)), half);
                      },
                      [key, style](const Params&) {
                        return "train:\n  timestep_type: linear\n  " + key +
                               ": true\n  content_or_style: " + style;
                      },
                      std::string("uniform t grid, loss × the ") +
                          (half ? "half bell (flat from index 500, the low-noise half)"
                                : "bell exp(−2((i − 500)/1000)²) less its minimum") +
                          ", mean 1; no knob"};
      if (style != "balanced")
        f.note +=
            "; index U³ toward " + std::string(style == "content" ? "high noise" : "low noise");
      if (experts) f.note += expertNote(lawOf(indexStyle(style)));
      t.families.push_back(f);
    }
}

// The experts' windows of a multistage model on a grid of entries t(0) > t(1) > …
// (BaseSDTrainProcess.py, adjust_multistage_timesteps): an expert between t = b_max and b_min
// draws indices from [n(≥ b_max) − 1, n(> b_min) − 1], n counting the grid's timesteps 1000·t
// against 1000·b; the two experts alternate, so each has half the steps.
IndexLaw expertLaw(IndexStyle style, const Architecture& a, const std::function<double(int)>& t) {
  auto window = [&](double high, double low) {
    int atOrAbove = 0, above = 0;
    for (int i = 0; i < 1000; ++i) {
      const double timestep = 1000.0 * t(i);
      atOrAbove += timestep >= 1000.0 * high;
      above += timestep > 1000.0 * low;
    }
    if (above <= atOrAbove) return std::pair<int, int>{0, 999};  // the code's empty-range case
    return std::pair<int, int>{std::max(atOrAbove - 1, 0), std::min(above - 1, 999)};
  };
  const auto [highLo, highHi] = window(1.0, a.boundary);
  const auto [lowLo, lowHi] = window(a.boundary, 0.0);
  if (a.trainsHigh && a.trainsLow) return IndexLaw{style, highLo, highHi, lowLo, lowHi};
  return a.trainsHigh ? IndexLaw{style, highLo, highHi} : IndexLaw{style, lowLo, lowHi};
}

void addFamilies(TrainerTool& t, const Architecture& a, const TrainerSettings& settings) {
  const double tokens = std::floor(settings.height / 16.0) * std::floor(settings.width / 16.0);
  const double mu = 0.5 + (a.maxShift - 0.5) / (a.maxTokens - 256.0) * (tokens - 256.0);
  const ShiftGrid grid{a, mu};
  const std::string shiftText = a.dynamic ? "e^μ = " + num(std::exp(mu)) + " (μ = " + num(mu) +
                                                " at " + std::to_string(settings.width) + "×" +
                                                std::to_string(settings.height) + " px)"
                                          : "the static " + num(a.shift);
  const bool multistage = a.boundary > 0.0;
  // A multistage model's windows are read off the grid's entries; the sigmoid and lognorm_blend
  // grids are drawn afresh every step, and so are their windows (ai_toolkit_random_grids.h).
  auto lawOf = [&](IndexStyle style, GridType type) {
    if (!multistage) return IndexLaw{style};
    if (type == GridType::Shift) return expertLaw(style, a, [&](int i) { return grid.t(i); });
    return expertLaw(style, a, [](int i) { return (1000.0 - i) / 1000.0; });
  };
  for (const std::string style : {"balanced", "content", "style"})
    for (const std::string type : {"sigmoid", "linear", "weighted", "shift"}) {
      TrainerFamily f;
      f.name = style == "balanced" ? type : type + " + " + style;
      const IndexLaw law = lawOf(indexStyle(style), gridType(type));
      f.density = [law, grid, grid_type = gridType(type)](double u, const Params&) {
        return gridDensity(grid_type, u, law, grid);
      };
      const bool randomWindows = multistage && type == "sigmoid";
      if (randomWindows)
        f.density = [split = ExpertSplit{a.boundary, a.trainsHigh, a.trainsLow},
                     indices = indexStyle(style)](double u, const Params&) {
          return sigmoidExpertGridDensity(u, indices, split);
        };
      f.toolWeight =
          type == "weighted"
              ? std::function<double(double, const Params&)>([](double sigma, const Params&) {
                  return weighingAt(1000.0 * (1.0 - flowT(sigma)));
                })
              : std::function<double(double, const Params&)>(noWeight);
      if (type == "weighted") f.weighting = "weighted";
      if (type == "shift") f.atoms = shiftGridAtoms(grid, [law](const Params&) { return law; });
      f.snippet = [=](const Params&) { return yaml(type, style); };
      f.note = type == "sigmoid"    ? "1 − sigmoid(z) grid, no knob"
               : type == "linear"   ? "uniform t grid, no knob"
               : type == "weighted" ? "uniform t grid, loss × the fixed default_weighing_scheme"
                                    : "the architecture's shift, " + shiftText +
                                          " (also timestep_type flux_shift or lumina2_shift)";
      if (style != "balanced")
        f.note +=
            "; index U³ toward " + std::string(style == "content" ? "high noise" : "low noise");
      if (randomWindows)
        f.note += "; each step's expert window counted off that step's grid";
      else if (multistage)
        f.note += expertNote(law);
      t.families.push_back(f);
    }
  if (multistage) {
    addLinearTimestepFamilies(
        t, grid, [&](IndexStyle s) { return lawOf(s, GridType::Linear); }, true);
    // lognorm_blend, its expert windows counted off each step's grid.
    for (const std::string style : {"balanced", "content", "style"}) {
      TrainerFamily f{
          style == "balanced" ? "lognorm_blend" : "lognorm_blend + " + style,
          {},
          [split = ExpertSplit{a.boundary, a.trainsHigh, a.trainsLow}, indices = indexStyle(style)](
              double u, const Params&) { return lognormBlendExpertDensity(u, indices, split); },
          noWeight,
          [style](const Params&) { return yaml("lognorm_blend", style); },
          "75% sorted 1 − X/max X, X ~ LogNormal(0, 0.333), blended with 25% of the linear grid; "
          "no knob"};
      if (style != "balanced")
        f.note +=
            "; index U³ toward " + std::string(style == "content" ? "high noise" : "low noise");
      f.note += "; each step's expert window counted off that step's grid";
      t.families.push_back(f);
    }
    return;  // the experts' windows replace min/max_denoising_steps
  }
  // min_denoising_steps and max_denoising_steps: the window of indices the draw picks from, the
  // job YAML's only integer knobs of the draw: balanced randint(min, max); content and style their
  // U³ index value_map'ed from [0, 999] onto [min, max] (IndexLaw). A Wan 2.2 expert's window
  // (its multistage boundary) is such a window too.
  for (const std::string style : {"balanced", "content", "style"})
    for (const std::string type : {"sigmoid", "linear", "weighted", "shift"}) {
      const IndexStyle indices = indexStyle(style);
      TrainerFamily f{
          (style == "balanced" ? type : type + " + " + style) + " + window",
          {param("min_denoising_steps", 0.0, 0.0, 998.0),
           param("max_denoising_steps", 999.0, 1.0, 999.0)},
          [grid, grid_type = gridType(type), indices](double u, const Params& p) {
            return gridDensity(grid_type, u, windowOf(indices, p), grid);
          },
          noWeight,
          [type, style](const Params& p) {
            return yaml(type, style) + "\n  min_denoising_steps: " +
                   std::to_string(static_cast<int>(std::floor(p[0]))) +
                   "\n  max_denoising_steps: " + std::to_string(static_cast<int>(std::floor(p[1])));
          },
          (style == "balanced"
               ? "indices randint(min_denoising_steps, max_denoising_steps)"
               : "index U³ toward " + std::string(style == "content" ? "high" : "low") +
                     " noise, mapped onto [min_denoising_steps, "
                     "max_denoising_steps]") +
              " of the " + type + " grid (0 is the highest noise)"};
      for (auto& q : f.parameters) q.quantum = 1.0;
      if (type == "shift")
        f.atoms = shiftGridAtoms(grid, [indices](const Params& p) { return windowOf(indices, p); });
      if (type == "weighted") {
        f.toolWeight = [](double sigma, const Params&) {
          return weighingAt(1000.0 * (1.0 - flowT(sigma)));
        };
        f.weighting = "weighted";
      }
      t.families.push_back(f);
    }
  addLinearTimestepFamilies(
      t, grid, [](IndexStyle s) { return IndexLaw{s}; }, false);
  // lognorm_blend's grid reads no scheduler config: the same for every architecture.
  for (const std::string style : {"balanced", "content", "style"}) {
    TrainerFamily f{style == "balanced" ? "lognorm_blend" : "lognorm_blend + " + style,
                    {},
                    [law = IndexLaw{indexStyle(style)}](double u, const Params&) {
                      return lognormBlendDensity(u, law);
                    },
                    noWeight,
                    [style](const Params&) { return yaml("lognorm_blend", style); },
                    "75% sorted 1 − X/max X, X ~ LogNormal(0, 0.333), blended with 25% of the "
                    "linear grid; no knob"};
    if (style != "balanced")
      f.note += "; index U³ toward " + std::string(style == "content" ? "high noise" : "low noise");
    t.families.push_back(f);
    // The same grid under min/max_denoising_steps.
    TrainerFamily windowed = f;
    windowed.name += " + window";
    windowed.parameters = {param("min_denoising_steps", 0.0, 0.0, 998.0),
                           param("max_denoising_steps", 999.0, 1.0, 999.0)};
    for (auto& q : windowed.parameters) q.quantum = 1.0;
    windowed.density = [indices = indexStyle(style)](double u, const Params& p) {
      return lognormBlendDensity(u, windowOf(indices, p));
    };
    windowed.snippet = [style](const Params& p) {
      return yaml("lognorm_blend", style) +
             "\n  min_denoising_steps: " + std::to_string(static_cast<int>(std::floor(p[0]))) +
             "\n  max_denoising_steps: " + std::to_string(static_cast<int>(std::floor(p[1])));
    };
    windowed.note.replace(windowed.note.find("; no knob"), 9, "");
    windowed.note += "; indices [min_denoising_steps, max_denoising_steps] of each step's grid";
    t.families.push_back(windowed);
  }
  // A shift value is not a job-YAML key: it lives in the architecture's scheduler config.
  TrainerFamily custom{
      "shift (edit the scheduler)",
      {param("shift", 3.0, 0.02, 50.0, true)},
      [](double u, const Params& p) {
        return shiftedUniform(u, p[0]);  // the grid shifted from an unshifted table
      },
      noWeight,
      [](const Params& p) {
        return "train:\n  timestep_type: shift\n# no YAML key sets the shift: edit the model's "
               "scheduler config (get_train_scheduler in its toolkit/models or extensions_built_in "
               "class) to shift " +
               num(p[0]) + ", use_dynamic_shifting false";
      },
      "what a static shift would need to be; ai-toolkit cannot take it from the job YAML"};
  t.families.push_back(custom);
}

}  // namespace

std::vector<std::string> aiToolkitModels() {
  std::vector<std::string> names;
  for (const auto& a : architectures()) names.push_back(a.model);
  return names;
}

ModelDefinition aiToolkit(const TrainerSettings& settings, const std::string& model) {
  ModelDefinition m;
  TrainerTool& t = m.tool;
  t = flowTool("ai-toolkit", "the job YAML, config.process[0].train");
  for (const auto& a : architectures())
    if (a.model == model) {
      t.model = a.model;
      t.modelNote = a.note + "; velocity loss; the web UI's timestep_type for it: " + a.defaultType;
      t.discretisation =
          "1000-entry grids per timestep_type, an entry of 0 … 998 drawn; trained at the entry's "
          "own t (linear, weighted, lognorm_blend: the 0.001 steps)";
      // The linear, weighted and lognorm_blend grids are exactly t = k/1000; the shift families
      // carry their entries as atoms; the sigmoid grid's are placed on the next step (at most
      // 0.001 higher in t).
      t.tableEdges = tableEdges(1000);
      t.tableAtUpper = true;
      addFamilies(t, a, settings);
      m.defaultDraw = a.defaultType;
    }
  return m;
}

}  // namespace noisescope::schedule::trainers
