// Every snippet `fit` prints, for every tool, model, family and loss weighting, read back against
// that tool's option table (tests/core/schedule/data/trainer_options/<tool>.json, transcribed from
// its parser or config schema with file and line): each flag or key must exist, each value must
// have the option's type and, for a choice, be one of its choices.
#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTest>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "schedule/trainer_fit.h"
#include "test_paths.h"

using namespace noisescope::schedule;
using nlohmann::json;

namespace {

struct Option {
  std::string type;
  std::set<std::string> choices;  // the union over the scripts that take it
};

struct Table {
  std::string form;
  std::map<std::string, Option> options;
};

Table readTable(const std::string& tool) {
  const std::string path = noisescope::test::sourcePath() +
                           "/tests/core/schedule/data/trainer_options/" + tool + ".json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  const json j = json::parse(in);
  Table t;
  t.form = j.at("form").get<std::string>();
  for (const auto& o : j.at("options")) {
    Option& option = t.options[o.at("name").get<std::string>()];
    option.type = o.at("type").get<std::string>();
    if (o.contains("choices"))
      for (const auto& c : o.at("choices")) option.choices.insert(c.get<std::string>());
  }
  return t;
}

// The snippet without its comment lines and trailing comments.
std::string withoutComments(const std::string& snippet) {
  std::istringstream in(snippet);
  std::string line, out;
  while (std::getline(in, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    out += line + "\n";
  }
  return out;
}

bool isNumber(const std::string& text, bool integer) {
  static const std::regex real(R"(-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)"), whole(R"(-?\d+)");
  return std::regex_match(text, integer ? whole : real);
}

// A problem with `value` for the option, or "".
std::string checkValue(const std::string& name, const Option& o, const std::string& value) {
  if (o.type == "choice" && !o.choices.count(value)) return name + " takes no '" + value + "'";
  if ((o.type == "float" || o.type == "int") && !isNumber(value, o.type == "int"))
    return name + " wants " + o.type + ", got '" + value + "'";
  if (o.type == "bool" && value != "true" && value != "false" && value != "")
    return name + " is a switch, got '" + value + "'";
  return "";
}

std::vector<std::string> checkCommandLine(const Table& t, const std::string& snippet) {
  std::vector<std::string> problems;
  std::istringstream in(withoutComments(snippet));
  std::vector<std::string> tokens;
  for (std::string token; in >> token;) tokens.push_back(token);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].rfind("--", 0) != 0) continue;
    const auto it = t.options.find(tokens[i]);
    if (it == t.options.end()) {
      problems.push_back("unknown flag " + tokens[i]);
      continue;
    }
    const bool hasValue = i + 1 < tokens.size() && tokens[i + 1].rfind("--", 0) != 0;
    if (it->second.type == "bool") {
      if (hasValue) problems.push_back(tokens[i] + " is a switch but is given a value");
    } else if (!hasValue) {
      problems.push_back(tokens[i] + " has no value");
    } else {
      const auto p = checkValue(tokens[i], it->second, tokens[i + 1]);
      if (!p.empty()) problems.push_back(p);
    }
  }
  return problems;
}

// Flattens a JSON object into dotted keys with their values as text.
void flatten(const json& j, const std::string& prefix, std::map<std::string, std::string>& out) {
  for (const auto& [key, value] : j.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object())
      flatten(value, name, out);
    else
      out[name] = value.is_string() ? value.get<std::string>() : value.dump();
  }
}

std::vector<std::string> checkKeys(const Table& t, const std::map<std::string, std::string>& keys) {
  std::vector<std::string> problems;
  for (const auto& [name, value] : keys) {
    const auto it = t.options.find(name);
    if (it == t.options.end()) {
      problems.push_back("unknown key " + name);
      continue;
    }
    const auto p = checkValue(name, it->second, value);
    if (!p.empty()) problems.push_back(p);
  }
  return problems;
}

std::vector<std::string> checkSnippet(const std::string& tool, const Table& t,
                                      const std::string& snippet) {
  if (t.form == "command-line") return checkCommandLine(t, snippet);
  std::map<std::string, std::string> keys;
  const std::string text = withoutComments(snippet);
  if (t.form == "json-config") {
    json j = json::parse("{" + text + "}");
    if (tool == "k-diffusion") j = json{{"model", j}};  // its keys live in the config's "model"
    flatten(j, "", keys);
  } else if (t.form == "yaml-config") {  // "train:" then "  key: value" lines
    static const std::regex line(R"(^\s+([A-Za-z_0-9]+):\s*(\S+)\s*$)");
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      std::smatch m;
      if (std::regex_match(l, m, line)) keys[m[1]] = m[2];
    }
  } else if (t.form == "python-kwargs") {  // name=value inside a call
    static const std::regex kwarg(R"(([A-Za-z_]+)=([-0-9.eE]+))");
    for (std::sregex_iterator it(text.begin(), text.end(), kwarg), end; it != end; ++it)
      keys[(*it)[1]] = (*it)[2];
  }
  return checkKeys(t, keys);
}

}  // namespace

class TestTrainerSnippets : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void everySnippetIsAcceptedByItsTool() {
    int snippets = 0;
    for (const auto& tool : trainerToolNames()) {
      const Table table = readTable(tool);
      for (const auto& model : trainerModelNames(tool)) {
        TrainerSettings settings;
        settings.model = model;
        std::vector<std::string> weightings{""};
        for (const auto& w : trainerLossWeightings(tool, settings)) weightings.push_back(w);
        for (const auto& weighting : weightings) {
          settings.lossWeighting = weighting;
          const TrainerTool t = trainerTool(tool, settings);
          for (const auto& f : t.families) {
            std::vector<double> p;
            for (const auto& d : f.parameters) p.push_back(d.initial);
            const std::string snippet = f.snippet(p);
            std::vector<std::string> problems;
            try {
              problems = checkSnippet(tool, table, snippet);
            } catch (const std::exception& e) {  // a JSON snippet that does not parse
              problems.push_back(e.what());
            }
            const QByteArray where =
                QByteArray::fromStdString(tool + " " + model + " " + f.name + ":\n" + snippet);
            QVERIFY2(problems.empty(),
                     where + "\n" + QByteArray::fromStdString(problems.empty() ? "" : problems[0]));
            ++snippets;
          }
        }
      }
    }
    QVERIFY(snippets > 100);
  }

  void theCheckerCatchesWhatTheToolsReject() {
    // sd3_train_network.py's parser has no --timestep_sampling; diffusers' SD3 scripts no `none`.
    const Table sdScripts = readTable("sd-scripts"), diffusers = readTable("diffusers");
    QVERIFY(!checkCommandLine(sdScripts, "--timestep_sampling bogus").empty());
    QVERIFY(!checkCommandLine(sdScripts, "--no_such_flag 1").empty());
    QVERIFY(!checkCommandLine(diffusers, "--logit_mean abc").empty());
    QVERIFY(!checkCommandLine(diffusers, "--timestep_bias_strategy middle").empty());
    QVERIFY(!checkCommandLine(diffusers, "--timestep_bias_begin 150.5").empty());
    QVERIFY(!checkCommandLine(sdScripts, "--debiased_estimation_loss 1").empty());
    QVERIFY(checkCommandLine(sdScripts, "--min_snr_gamma 5 --debiased_estimation_loss").empty());
    QVERIFY(!checkSnippet("onetrainer", readTable("onetrainer"),
                          "\"timestep_distribution\": \"GAUSSIAN\"")
                 .empty());
  }
};

QTEST_APPLESS_MAIN(TestTrainerSnippets)
#include "test_trainer_snippets.moc"
