#include "pipeline/schedules/fit_current.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::pipeline {
namespace {

using schedule::TrainerFamily;
using schedule::TrainerFamilyFit;
using schedule::TrainerSettings;
using schedule::TrainerTool;
using Keys = std::map<std::string, std::string>;

// A snippet's keys, read with the settings reader in the snippet's own form: a JSON fragment, a
// YAML job section or a command line. Comment lines are dropped. Empty when it sets none (EDM's
// is Python code).
Keys snippetKeys(const std::string& snippet) {
  std::string text;
  std::istringstream in(snippet);
  for (std::string line; std::getline(in, line);) {
    const auto start = line.find_first_not_of(" \t");
    if (start != std::string::npos && line[start] == '#') continue;
    text += line + "\n";
  }
  const auto first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos) return {};
  try {
    if (text[first] == '"')
      return io::parseTrainerConfig("{" + text + "}", "json", "snippet").values;
    if (text.find(":\n") != std::string::npos && text.find("--") == std::string::npos)
      return io::parseTrainerConfig(text, "yaml", "snippet").values;
    return io::parseTrainerConfig(text, "command-line", "snippet").values;
  } catch (const InputError&) {
    return {};
  }
}

// The file's value for a snippet key: the same key, or one ending in "." + key (a snippet's
// "sigma_data" is a k-diffusion config's "model.sigma_data", ai-toolkit's "train.timestep_type"
// the job's "config.process.0.train.timestep_type").
const std::string* lookUp(const Keys& file, const std::string& key) {
  if (const auto it = file.find(key); it != file.end()) return &it->second;
  for (const auto& [k, v] : file)
    if (k.size() > key.size() && k.compare(k.size() - key.size(), key.size(), key) == 0 &&
        k[k.size() - key.size() - 1] == '.')
      return &v;
  return nullptr;
}

bool parseNumber(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' && std::isfinite(value);
}

bool sameValue(const std::string& a, const std::string& b) {
  double x = 0.0, y = 0.0;
  if (parseNumber(a, x) && parseNumber(b, y))
    return std::abs(x - y) <= 1e-6 * std::max({1.0, std::abs(x), std::abs(y)});
  auto lower = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  return lower(a) == lower(b);
}

// Values a tool trains alike, read from its code: a file that sets one agrees with a family whose
// snippet prints the other.
struct SameSetting {
  std::string tool, key, value, as;
};

const std::vector<SameSetting>& sameSettings() {
  static const std::vector<SameSetting> same = {
      // sd-scripts library/flux_train_utils.py apply_model_prediction_type: additive compares
      // F + x_t with noise − x0, the velocity error raw takes on F, and returns no weighting, as
      // raw does; so φ is raw's.
      {"sd-scripts", "model_prediction_type", "additive", "raw"},
      // sd-scripts library/train_util.py add_dit_training_arguments: "uniform and none are the
      // same behavior" (both fall to the uniform draw and ones for the weight).
      {"sd-scripts", "weighting_scheme", "uniform", "none"},
  };
  return same;
}

// Whether the file's value of `key` selects what the family's value does for `tool`.
bool agrees(const std::string& tool, const std::string& key, const std::string& fileValue,
            const std::string& familyValue) {
  if (sameValue(fileValue, familyValue)) return true;
  for (const auto& s : sameSettings())
    if (s.tool == tool && s.key == key &&
        ((sameValue(fileValue, s.value) && sameValue(familyValue, s.as)) ||
         (sameValue(fileValue, s.as) && sameValue(familyValue, s.value))))
      return true;
  return false;
}

// A list knob's values from the file: a JSON array or comma/semicolon-separated numbers.
std::vector<double> parseList(const std::string& text, const std::string& key,
                              const std::string& source) {
  std::string t = text;
  for (auto& c : t)
    if (c == '[' || c == ']' || c == ',' || c == ';') c = ' ';
  std::istringstream in(t);
  std::vector<double> values;
  for (std::string word; in >> word;) {
    double v = 0.0;
    if (!parseNumber(word, v) || v < 0.0)
      throw InputError(source, key + " holds '" + word + "', not a non-negative number");
    values.push_back(v);
  }
  if (values.empty()) throw InputError(source, key + " is an empty list");
  // SimpleTuner refuses it too (timestep_distribution.py): a density needs some weight.
  if (values.size() > 1 &&
      std::all_of(values.begin(), values.end(), [](double v) { return v == 0.0; }))
    throw InputError(source, key + " is all zeros: no density to draw from");
  return values;
}

// One family as its snippet shows it: the keys that select it, the key of each knob.
struct FamilyKeys {
  const TrainerFamily* family = nullptr;
  Keys selectors;
  std::vector<std::string> knobKeys;  // per parameter ("" when no key moves with it)
  bool listKnob = false;              // one key holds every parameter (a list)
};

FamilyKeys keysOf(const TrainerFamily& f) {
  FamilyKeys k;
  k.family = &f;
  std::vector<double> p;
  for (const auto& q : f.parameters) p.push_back(q.initial);
  const Keys base = snippetKeys(f.snippet(p));
  k.listKnob = !f.parameters.empty() && f.parameters.front().name.find('[') != std::string::npos;
  std::set<std::string> moving;
  auto keyMovedBy = [&](const std::vector<double>& q) {
    std::string key;
    for (const auto& [name, value] : snippetKeys(f.snippet(q)))
      if (!base.count(name) || base.at(name) != value) key = name;
    return key;
  };
  for (std::size_t j = 0; j < p.size(); ++j) {
    auto q = p;
    const auto& d = f.parameters[j];
    q[j] = std::clamp(q[j] * 1.37 + 0.11, d.lower, d.upper);
    if (q[j] == p[j]) q[j] = 0.5 * (d.lower + d.upper);
    std::string key = keyMovedBy(q);
    // A knob the snippet prints as an integer (diffusers' --timestep_bias_begin 0) does not show
    // a small move: try the middle of its range.
    if (key.empty()) {
      q[j] = 0.5 * (d.lower + d.upper);
      key = keyMovedBy(q);
    }
    k.knobKeys.push_back(key);
    if (!key.empty()) moving.insert(key);
  }
  for (const auto& [name, value] : base)
    if (!moving.count(name)) k.selectors[name] = value;
  return k;
}

// The key a tool's settings file names its model with, and NoiseScope's model for each value:
// OneTrainer's modules/util/enum/ModelType.py (model_type), ai-toolkit's
// toolkit/config_modules.py ModelConfig (model.arch, a ":variant" suffix stripped; the Flux.2
// klein and Qwen-Image edit classes inherit their base class's get_train_scheduler), SimpleTuner's
// model_family (the names helpers/models/*/model.py give ModelRegistry.register; the auto shift
// of helpers/training/custom_schedule.py apply_flow_schedule_shift reads each family's scheduler
// config, so SD3.x and Chroma, whose checkpoints keep diffusers' defaults, train as Flux does).
// Only values whose model NoiseScope models the same way are listed; any other is named, not
// guessed.
struct ModelKey {
  std::string tool, key;
  std::map<std::string, std::string> models;  // the file's value → NoiseScope's model
};

const std::vector<ModelKey>& modelKeys() {
  static const std::vector<ModelKey> keys = {
      {"onetrainer",
       "model_type",
       {{"FLUX_DEV_1", "flux"},
        {"FLUX_FILL_DEV_1", "flux"},
        {"FLUX_2", "flux"},
        {"STABLE_DIFFUSION_3", "sd3"},
        {"STABLE_DIFFUSION_35", "sd3"},
        {"CHROMA_1", "chroma"},
        {"QWEN", "qwen"},
        {"STABLE_DIFFUSION_XL_10_BASE", "sdxl"},
        {"STABLE_DIFFUSION_XL_10_BASE_INPAINTING", "sdxl"},
        {"STABLE_DIFFUSION_15", "sd15"},
        {"STABLE_DIFFUSION_15_INPAINTING", "sd15"},
        {"STABLE_DIFFUSION_20", "sd2-v"},
        {"STABLE_DIFFUSION_21", "sd2-v"}}},
      {"ai-toolkit",
       "model.arch",
       {{"flux", "flux"},
        {"flux2", "flux2"},
        {"flux2_klein_4b", "flux2"},
        {"flux2_klein_9b", "flux2"},
        {"chroma", "chroma"},
        {"qwen_image", "qwen"},
        {"qwen_image_edit", "qwen"},
        {"qwen_image_edit_plus", "qwen"},
        {"zimage", "zimage"},
        {"wan22_5b", "wan22-5b"},
        {"wan22_14b", "wan22-14b"},
        {"wan22_14b_i2v", "wan22-14b"},
        {"hidream", "hidream"},
        {"lumina2", "lumina2"},
        {"sd3", "sd3"}}},
      {"simpletuner",
       "model_family",
       {{"flux", "flux"},
        {"flux2", "flux2"},
        {"qwen_image", "qwen"},
        {"krea2", "krea2"},
        {"sd3", "flux"},
        {"chroma", "flux"},
        {"ideogram", "ideogram"},
        {"omnigen", "omnigen"},
        {"sana", "sana"},
        {"sanavideo", "sana"},
        {"anima", "anima"},
        {"longcat_image", "longcat-image"},
        {"wan", "wan"},
        {"wan_s2v", "wan"},
        {"infinitetalk", "wan"},
        {"hunyuanvideo", "hunyuanvideo"},
        {"ltxvideo", "ltxvideo"},
        {"ltxvideo2", "ltxvideo"},
        {"longcat_video", "longcat-video"},
        {"kandinsky5-video", "kandinsky5-video"}}},
  };
  return keys;
}

// The model a settings file names, how that was found, and the file's keys that named it.
struct NamedModel {
  std::string model, source, fileKey;   // all empty when the file names none
  std::vector<std::string> expertKeys;  // ai-toolkit's model_kwargs that chose one expert
};

// ai-toolkit's Wan 2.2 14B trains one expert alone when model.model_kwargs sets
// train_high_noise or train_low_noise false (wan22_14b_model.py Wan2214bModel.__init__).
void expertOf(const io::TrainerConfigFile& settings, NamedModel& named) {
  if (named.model != "wan22-14b") return;
  bool trains[2] = {true, true};
  const char* keys[2] = {"model_kwargs.train_high_noise", "model_kwargs.train_low_noise"};
  // The job is read by PyYAML, whose booleans (YAML 1.1) include yes/no and on/off.
  auto isWord = [](const std::string& value, std::initializer_list<const char*> words) {
    return std::any_of(words.begin(), words.end(),
                       [&](const char* w) { return sameValue(value, w); });
  };
  for (int e = 0; e < 2; ++e)
    if (const std::string* value = lookUp(settings.values, keys[e])) {
      const bool yes = isWord(*value, {"true", "yes", "on"});
      if (!yes && !isWord(*value, {"false", "no", "off"}))
        throw InputError(settings.path,
                         std::string(keys[e]) + " = '" + *value + "' is not true or false");
      trains[e] = yes;
      for (const auto& [name, v] : settings.values)
        if (&v == value) named.expertKeys.push_back(name);
    }
  if (!trains[0] && !trains[1])
    throw InputError(settings.path, "model_kwargs trains neither Wan 2.2 expert");
  if (trains[0] != trains[1]) {
    named.model = trains[0] ? "wan22-14b-high" : "wan22-14b-low";
    named.source += trains[0] ? ", train_low_noise false" : ", train_high_noise false";
  }
}

// The model the file names for `tool`; empty when the tool's files have no model key or this
// file does not set it. Throws InputError(path, …) for a value NoiseScope does not map.
NamedModel modelNamedBy(const io::TrainerConfigFile& settings, const std::string& tool) {
  for (const auto& k : modelKeys()) {
    if (k.tool != tool) continue;
    const std::string* value = lookUp(settings.values, k.key);
    if (!value) return {};
    const std::string name = value->substr(0, value->find(':'));
    const auto it = k.models.find(name);
    if (it == k.models.end()) {
      std::string known;
      for (const auto& [v, m] : k.models) known += (known.empty() ? "" : ", ") + v;
      throw InputError(settings.path, k.key + " = " + *value +
                                          " is not a model NoiseScope models for " + tool +
                                          " (it reads " + known +
                                          "); give --model to say which modelled model it "
                                          "trains like");
    }
    std::string fileKey;
    for (const auto& [name, v] : settings.values)
      if (&v == value) fileKey = name;
    NamedModel named{it->second, "inferred from the file's " + k.key + " = " + *value, fileKey};
    expertOf(settings, named);
    return named;
  }
  return {};
}

// The settings a file holds that shape every family but are never fitted: OneTrainer's
// noising-strength window (ModelSetupNoiseMixin._get_timestep_discrete) and musubi-tuner's
// timestep window (NetworkTrainer.get_noisy_model_input_and_timesteps). Read into `trainer`, so
// the families are built as the file trains them and their snippets agree with the file.
void heldSettingsOf(const io::TrainerConfigFile& settings, const std::string& tool,
                    TrainerSettings& trainer) {
  auto read = [&](const std::string& key, auto& into) {
    const std::string* value = lookUp(settings.values, key);
    double v = 0.0;
    if (!value) return;
    if (!parseNumber(*value, v))
      throw InputError(settings.path, key + " = '" + *value + "' is not a number");
    if constexpr (std::is_same_v<std::decay_t<decltype(into)>, int>) {
      if (v != std::floor(v))
        throw InputError(settings.path, key + " = '" + *value + "' is not an integer");
      into = static_cast<int>(std::clamp(v, -1e6, 1e6));
    } else {
      into = v;
    }
  };
  if (tool == "onetrainer") {
    read("min_noising_strength", trainer.noisingStrengthMin);
    read("max_noising_strength", trainer.noisingStrengthMax);
  } else if (tool == "musubi-tuner") {
    read("min_timestep", trainer.timestepMin);
    read("max_timestep", trainer.timestepMax);
    if (const std::string* flag = lookUp(settings.values, "preserve_distribution_shape")) {
      if (!sameValue(*flag, "true") && !sameValue(*flag, "false"))
        throw InputError(settings.path,
                         "preserve_distribution_shape = '" + *flag + "' is not true or false");
      trainer.preserveDistributionShape = sameValue(*flag, "true");
    }
  } else {
    return;
  }
  try {
    schedule::trainerTool(tool, trainer);
  } catch (const InputError& e) {
    if (e.source() == settings::kNoisingStrength || e.source() == settings::kTimestepWindow)
      throw InputError(settings.path, e.problem());
    throw;
  }
}

}  // namespace

CurrentSettings readCurrentSettings(const io::TrainerConfigFile& settings, const std::string& tool,
                                    const TrainerSettings& given) {
  // The model: given, else the one the file names, else the tool's default.
  TrainerSettings trainer = given;
  NamedModel named;
  std::string modelSource = "as given (--model, or the Export dialog's Model)";
  if (trainer.model.empty()) {
    named = modelNamedBy(settings, tool);
    trainer.model = named.model;
    modelSource = named.model.empty() ? "not named in the file: the tool's default" : named.source;
  }
  heldSettingsOf(settings, tool, trainer);

  // Every family of the tool for this model, under each of its loss weightings.
  std::vector<TrainerTool> tools;
  TrainerSettings all = trainer;
  all.lossWeighting.clear();
  tools.push_back(schedule::trainerTool(tool, all));
  for (const auto& w : schedule::trainerLossWeightings(tool, all)) {
    TrainerSettings s = all;
    s.lossWeighting = w;
    tools.push_back(schedule::trainerTool(tool, s));
  }
  const TrainerTool& t = tools.front();
  std::vector<std::pair<const TrainerTool*, FamilyKeys>> families;
  std::set<std::string> seen, toolKeys;
  for (const auto& each : tools)
    for (const auto& f : each.families)
      if (seen.insert(f.name).second) {
        families.emplace_back(&each, keysOf(f));
        for (const auto& [k, v] : families.back().second.selectors) toolKeys.insert(k);
        for (const auto& k : families.back().second.knobKeys)
          if (!k.empty()) toolKeys.insert(k);
      }

  // The file's keys any family reads, and the rest.
  CurrentSettings out;
  out.trainer = trainer;
  out.modelSource = modelSource;
  std::set<std::string> readKeys;
  for (const auto& k : toolKeys)
    for (const auto& [name, value] : settings.values)
      if (name == k ||
          (name.size() > k.size() && name.compare(name.size() - k.size(), k.size(), k) == 0 &&
           name[name.size() - k.size() - 1] == '.'))
        readKeys.insert(name);
  const bool setsADrawKey = !readKeys.empty();
  if (!named.fileKey.empty()) readKeys.insert(named.fileKey);  // it chose the model
  for (const auto& k : named.expertKeys) readKeys.insert(k);
  for (const auto& [name, value] : settings.values)
    if (!readKeys.count(name)) out.unreadKeys.push_back(name);

  // The family the file trains: every selecting key it sets agrees, and it explains the most of
  // the keys the tool reads; ties go to the tool's default family, then to the first.
  const TrainerTool* chosenTool = nullptr;
  const FamilyKeys* chosen = nullptr;
  int best = -1000000, closestRejected = 0;
  std::string disagreement;  // of the rejected family that agreed on the most keys
  for (const auto& [owner, keys] : families) {
    int score = 0, agreeing = 0;
    std::string differs;
    std::set<std::string> explained;
    for (const auto& [k, v] : keys.selectors)
      if (const std::string* value = lookUp(settings.values, k)) {
        if (!agrees(t.name, k, *value, v)) {
          if (differs.empty())
            differs = k + " = " + *value + " where " + keys.family->name + " has " + v;
        } else {
          ++agreeing;
        }
        ++score;
        explained.insert(k);
      } else if (const auto d = t.optionDefaults.find(k);
                 d != t.optionDefaults.end() && !agrees(t.name, k, d->second, v)) {
        // Left out, the option is the parser's default, which selects another family.
        if (differs.empty())
          differs = k + " left out (the tool's default " + d->second + ") where " +
                    keys.family->name + " has " + v;
      }
    for (const auto& k : keys.knobKeys)
      if (!k.empty() && lookUp(settings.values, k)) ++score, explained.insert(k);
    if (!differs.empty()) {
      if (agreeing >= closestRejected) closestRejected = agreeing, disagreement = differs;
      continue;
    }
    for (const auto& k : toolKeys)
      if (!explained.count(k) && lookUp(settings.values, k)) --score;
    const bool preferred = keys.family->name == t.defaultFamily;
    if (score > best ||
        (score == best && preferred && chosen && chosen->family->name != t.defaultFamily)) {
      best = score, chosen = &keys, chosenTool = owner;
    }
  }
  // A model whose own draw has no option (SimpleTuner's OmniGen) trains it whenever the file
  // sets no other family's keys.
  const bool keyless = chosen && chosen->selectors.empty() &&
                       std::all_of(chosen->knobKeys.begin(), chosen->knobKeys.end(),
                                   [](const std::string& k) { return k.empty(); });
  if (!chosen || (!setsADrawKey && !keyless))
    throw InputError(settings.path,
                     "sets none of " + t.name +
                         "'s noise-draw options in a way NoiseScope models " + "for " + t.model +
                         (disagreement.empty() ? "" : " (closest: " + disagreement + ")") +
                         "; --for, --model, --sigma-data and --resolution say what is trained");
  out.tool = *chosenTool;
  out.family = *chosen->family;
  out.knobKeys = chosen->knobKeys;

  // Its knobs: from the file, else the tool's default.
  const TrainerFamily& f = *chosen->family;
  std::vector<double>& p = out.params;
  for (std::size_t j = 0; j < f.parameters.size(); ++j) {
    const std::string& key = chosen->knobKeys[j];
    const std::string* value = key.empty() ? nullptr : lookUp(settings.values, key);
    if (chosen->listKnob) {
      if (value) {
        p = parseList(*value, key, settings.path);
      } else {
        for (const auto& d : f.parameters) p.push_back(d.initial);
        out.assumedDefaults.push_back(key.empty() ? f.parameters[j].name : key);
      }
      break;
    }
    double v = f.parameters[j].initial;
    if (value && !parseNumber(*value, v))
      throw InputError(settings.path, key + " = '" + *value + "' is not a number");
    if (!value) out.assumedDefaults.push_back(key.empty() ? f.parameters[j].name : key);
    p.push_back(v);
  }
  // A window's ends (min_X, max_X of one family) in the wrong order train nothing the family
  // describes: ai-toolkit's balanced randint fails on them, its cube draws clamp to one index.
  auto text = [](double v) {
    char s[32];
    std::snprintf(s, sizeof s, "%g", v);
    return std::string(s);
  };
  for (std::size_t j = 0; j < f.parameters.size() && j < p.size(); ++j) {
    const std::string& low = f.parameters[j].name;
    if (low.rfind("min_", 0) != 0) continue;
    for (std::size_t k = 0; k < f.parameters.size() && k < p.size(); ++k)
      if (f.parameters[k].name == "max_" + low.substr(4) && p[j] > p[k])
        throw InputError(settings.path, low + " = " + text(p[j]) + " is above " +
                                            f.parameters[k].name + " = " + text(p[k]));
  }

  return out;
}

io::CurrentFit fitCurrentSettings(const FitTarget& target, const io::TrainerConfigFile& settings,
                                  const std::string& tool, const TrainerSettings& given) {
  const CurrentSettings read = readCurrentSettings(settings, tool, given);
  // In CurrentFit's order: tool, model, settings path and format, how the model was chosen, the
  // family, the knobs taken at their defaults, the keys no family reads.
  io::CurrentFit out{read.tool.name,   read.tool.model,  settings.path,        settings.format,
                     read.modelSource, read.family.name, read.assumedDefaults, read.unreadKeys};
  const io::ToolFit whole = fitForTool(target, tool, read.trainer);
  out.current = schedule::evaluateTrainerFamily(read.tool, read.family, read.params, whole.grid,
                                                whole.target);
  out.bestInFamily = schedule::fitTrainerFamily(read.tool, read.family, whole.grid, whole.target);
  out.bestOverall = whole.fits.front();
  const auto from = io::knobValues(out.current), to = io::knobValues(out.bestInFamily);
  for (std::size_t i = 0; i < from.size() && i < to.size(); ++i) {
    const auto& [name, a] = from[i];
    const auto& b = to[i].second;
    bool moves = a.size() != b.size();
    for (std::size_t k = 0; !moves && k < a.size(); ++k)
      moves = std::abs(a[k] - b[k]) > 0.01 * std::max(std::abs(a[k]), 1e-3);
    if (!moves) continue;
    auto text = [](const std::vector<double>& v) {
      char s[32];
      if (v.size() == 1) {
        std::snprintf(s, sizeof s, "%.4g", v.front());
        return std::string(s);
      }
      return "[" + std::to_string(v.size()) + " knots]";
    };
    const std::string key = read.knobKeys[std::min(i, read.knobKeys.size() - 1)];
    out.changes.push_back({key.empty() ? name : key, text(a), text(b)});
  }
  return out;
}

io::CurrentFit fitCurrentSettingsFile(const FitTarget& target, const std::string& path,
                                      const std::string& tool, const TrainerSettings& trainer) {
  return fitCurrentSettings(target, io::readTrainerConfigFile(path), tool, trainer);
}

}  // namespace noisescope::pipeline
