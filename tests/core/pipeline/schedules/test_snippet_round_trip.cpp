// What `fit` prints is what the tool is told: every family's snippet, at knobs away from its
// defaults, written as the tool's own settings file and read back by `fit --current`'s reader,
// trains the same φ (the family it names, or a twin with the same draw and weight). Together with
// test_trainer_models (knobs → the tool's own draw and loss → φ) this closes the loop from the
// printed knobs to the φ fit reports.
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "io/trainer_config_file.h"
#include "pipeline/schedules/fit_current.h"
#include "schedule/trainer_families.h"
#include "schedule/trainer_fit.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {

// The settings file a user pastes a tool's snippet into, and its format.
std::string formatOf(const std::string& tool) {
  if (tool == "onetrainer" || tool == "simpletuner" || tool == "k-diffusion") return "json";
  if (tool == "ai-toolkit") return "yaml";
  return "command-line";
}

// The snippet without its comment lines (notes to the reader), as a file of that format.
std::string settingsText(const std::string& snippet, const std::string& format) {
  std::istringstream lines(snippet);
  std::string line, text;
  while (std::getline(lines, line))
    if (line.rfind('#', 0) != 0) text += line + "\n";
  return format == "json" ? "{\n" + text + "}\n" : text;
}

// Knobs away from the defaults: 30 % into the range for the first, 60 % for the second, …
// (so a window's min stays below its max), integers where the tool reads integers; a list knob
// (SimpleTuner's cubic weights) a bump.
std::vector<double> knobsOf(const TrainerFamily& f) {
  std::vector<double> p;
  const bool list =
      !f.parameters.empty() && f.parameters.front().name.find('[') != std::string::npos;
  for (std::size_t j = 0; j < f.parameters.size(); ++j) {
    const auto& q = f.parameters[j];
    if (list) {
      const double x = double(j) / (f.parameters.size() - 1);
      p.push_back(0.05 + std::exp(-std::pow((x - 0.4) / 0.2, 2.0)));
      continue;
    }
    double v = q.lower + (j % 2 == 0 ? 0.3 : 0.6) * (q.upper - q.lower);
    if (q.logScale && q.lower > 0.0)
      v = std::exp(std::log(q.lower) + (j % 2 == 0 ? 0.3 : 0.6) * std::log(q.upper / q.lower));
    if (q.quantum > 0.0) v = std::round(v / q.quantum) * q.quantum;
    p.push_back(v);
  }
  return p;
}

// TV on 16 coarse bins (of 16 fine ones each), as test_trainer_models measures: a table's
// atoms moved by a printed value's last digit may cross a fine bin's edge.
double coarseTv(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (std::size_t start = 0; start < a.size(); start += 16) {
    double d = 0.0;
    for (std::size_t i = start; i < start + 16 && i < a.size() && i < b.size(); ++i)
      d += a[i] - b[i];
    sum += std::abs(d);
  }
  return 0.5 * sum;
}

}  // namespace

class TestSnippetRoundTrip : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everySnippetReadsBackAsTheSamePhi() {
    const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
    const std::vector<double> flat(grid.bins(), 1.0 / grid.bins());
    int checked = 0;
    double worst = 0.0;
    for (const std::string& tool : trainerToolNames()) {
      if (tool == "edm") continue;  // its knob is a line of train.py, not a settings file
      const std::string format = formatOf(tool);
      for (const std::string& model : trainerModelNames(tool)) {
        TrainerSettings settings;
        settings.model = model;
        std::vector<TrainerTool> tools = {trainerTool(tool, settings)};
        for (const auto& w : trainerLossWeightings(tool, settings)) {
          TrainerSettings weighted = settings;
          weighted.lossWeighting = w;
          tools.push_back(trainerTool(tool, weighted));
        }
        for (const TrainerTool& t : tools)
          for (const TrainerFamily& f : t.families) {
            // A knob no settings file can set (ai-toolkit's scheduler shift) reads back as the
            // architecture's own: its snippet says so.
            if (f.name.find("(edit") != std::string::npos) continue;
            const std::vector<double> p = knobsOf(f);
            const std::string label = tool + " " + model + " " + f.name;
            const std::string text = settingsText(f.snippet(p), format);
            // The tool's default draw with no knob prints no line: nothing to write.
            if (text.find_first_not_of(" \n{}") == std::string::npos) continue;
            pipeline::CurrentSettings read;
            try {
              read = pipeline::readCurrentSettings(io::parseTrainerConfig(text, format, label),
                                                   tool, settings);
            } catch (const InputError& e) {
              QFAIL(qPrintable(QString::fromStdString(label + ": " + e.what() + "\n" + text)));
            }
            const auto printed = evaluateTrainerFamily(t, f, p, grid, flat);
            const auto readBack =
                evaluateTrainerFamily(read.tool, read.family, read.params, grid, flat);
            const double distance = coarseTv(printed.masses, readBack.masses);
            worst = std::max(worst, distance);
            QVERIFY2(distance < 0.005,
                     qPrintable(QString::fromStdString(label + " read back as " + read.family.name +
                                                       ", TV ") +
                                QString::number(distance) + "\n" + QString::fromStdString(text)));
            ++checked;
          }
      }
    }
    qInfo("%d snippets read back, largest TV %.4f", checked, worst);
    QVERIFY(checked > 300);
  }
};

QTEST_GUILESS_MAIN(TestSnippetRoundTrip)
#include "test_snippet_round_trip.moc"
