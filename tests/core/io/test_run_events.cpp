// The events.jsonl reader against what a run directory can hold while another process writes it,
// or after something went wrong: lines cut off, completed later, holding wrong types, missing
// keys, huge numbers, NaN tokens, garbage and binary bytes; files that grow between reads, are
// cut, rewritten or replaced. Every bad line is a note naming file and line, never an exception.
#include <QDir>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "io/run_events.h"

using namespace noisescope;
using nlohmann::json;

namespace {

// Events as core/train writes them (docs/training.md).
json startEvent() {
  return {{"event", "start"},
          {"step", 0},
          {"time", 1700000000.5},
          {"steps", 2000},
          {"world_size", 1},
          {"device", "cpu"},
          {"network", {{"kind", "mlp"}, {"sample_shape", {2}}}},
          {"parameters", 12345},
          {"sigma_data", 0.5},
          {"discrete", false},
          {"train_samples", 900},
          {"test_samples", 100},
          {"test", "held-out 10 %"},
          {"bins", 3}};
}
json trainEvent(int step) {
  return {{"event", "train"},
          {"step", step},
          {"time", 1700000001.0},
          {"loss", 0.25},
          {"lr", 1e-3},
          {"samples_per_s", 5000.0},
          {"steps_per_s", 40.0},
          {"bin_error", {0.1, nullptr, 0.3}},
          {"bin_count", {5, 0, 7}}};
}
json scheduleEvent(bool refreshed) {
  json e{{"event", "schedule"},          {"step", refreshed ? 500 : 0},
         {"time", 1700000002.0},         {"sampler", "infonoise"},
         {"refresh", refreshed ? 1 : 0}, {"log_sigma_edges", {-2.0, -1.0, 0.0, 2.0}},
         {"sigma", {0.22, 0.6, 2.7}},    {"pi", {0.2, 0.5, 0.3}}};
  if (refreshed) {
    e["mhat"] = {0.01, 0.2, 0.9};
    e["rho"] = {0.3, 0.4, 0.3};
    e["cdf_change"] = 0.05;
  }
  return e;
}
json evalEvent() {
  return {{"event", "eval"},          {"step", 1000}, {"time", 1700000003.0}, {"sigma", {0.1, 1.0}},
          {"error", {0.01, nullptr}}, {"elbo", 1.5},  {"edm", 0.7},           {"quality", 1.5},
          {"reference", "elbo"}};
}
json checkpointEvent() {
  return {{"event", "checkpoint"},
          {"step", 1000},
          {"time", 1700000004.0},
          {"path", "checkpoints/step-000001000.ckpt"},
          {"export", "checkpoints/step-000001000.denoiser.pt"}};
}
json endEvent() {
  return {{"event", "end"}, {"step", 2000}, {"time", 1700000005.0}, {"seconds", 42.0}};
}

// What a run that skipped something on resume, or stopped on a failed write, records.
json noteEvent() {
  return {{"event", "note"},
          {"step", 1000},
          {"time", 1700000006.0},
          {"message", "checkpoints/step-000001250.ckpt: damaged checkpoint: cut short; skipped"}};
}
json errorEvent() {
  return {{"event", "error"},
          {"step", 1250},
          {"time", 1700000007.0},
          {"message", "checkpoints/step-000001250.ckpt: write failed: No space left on device"},
          {"last_checkpoint", "checkpoints/step-000001000.ckpt"}};
}
// What the workbench appends when the user stopped the run (pipeline/training/run_watch.h).
json stopEvent() {
  return {{"event", "stop"},
          {"step", 1100},
          {"time", 1700000008.0},
          {"message", "stopped by the user at step 1100"}};
}

RunEventParse parse(const std::string& line, int64_t number = 7) {
  return parseRunEvent(line, "run/events.jsonl", number);
}

// The line is refused, with a note that names file and line and contains `why`.
bool refused(const std::string& line, const std::string& why) {
  const RunEventParse r = parse(line);
  if (r.event) {
    qWarning("accepted: %s", line.c_str());
    return false;
  }
  if (r.note.rfind("run/events.jsonl:7: ", 0) != 0 || r.note.find(why) == std::string::npos) {
    qWarning("note '%s' does not say '%s'", r.note.c_str(), why.c_str());
    return false;
  }
  for (unsigned char c : r.note)
    if (c < 0x20 && c != '\t') return false;  // notes quote printable bytes only
  return true;
}

class Scratch {
 public:
  Scratch() : path_(QDir(dir_.path()).filePath("events.jsonl").toStdString()) {}
  const std::string& path() const { return path_; }
  void append(const std::string& bytes) const {
    std::ofstream out(path_, std::ios::app | std::ios::binary);
    out << bytes;
  }
  // Writes a new file and renames it over the old one (another inode, as an atomic rewrite).
  void replace(const std::string& bytes) const {
    const std::string tmp = path_ + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << bytes;
    }
    std::filesystem::rename(tmp, path_);
  }
  // Rewrites the same file in place (same inode).
  void overwrite(const std::string& bytes) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out << bytes;
  }

 private:
  QTemporaryDir dir_;
  std::string path_;
};

std::string lines(std::initializer_list<json> events) {
  std::string out;
  for (const json& e : events) out += e.dump() + "\n";
  return out;
}

}  // namespace

class TestRunEvents : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void readsEveryKindAsWritten() {
    const RunEventParse start = parse(startEvent().dump());
    QVERIFY2(start.event, start.note.c_str());
    QCOMPARE(int(start.event->kind), int(RunEvent::Kind::Start));
    QCOMPARE(start.event->steps, int64_t{2000});
    QCOMPARE(start.event->networkKind, std::string("mlp"));
    QCOMPARE(start.event->sigmaData, 0.5);
    QCOMPARE(start.event->threads, int64_t{0});  // not recorded: older runs, other writers
    json shared = startEvent();
    shared["threads"] = 2;  // the run's share of the machine's cores
    QCOMPARE(parse(shared.dump()).event->threads, int64_t{2});
    shared["threads"] = "two";
    QVERIFY(refused(shared.dump(), "field 'threads'"));

    const RunEventParse train = parse(trainEvent(50).dump());
    QVERIFY2(train.event, train.note.c_str());
    QCOMPARE(train.event->step, int64_t{50});
    QCOMPARE(train.event->loss, 0.25);
    QCOMPARE(train.event->binError.size(), size_t{3});
    QVERIFY(std::isnan(train.event->binError[1]));  // an empty bin is written as null

    const RunEventParse initial = parse(scheduleEvent(false).dump());
    QVERIFY2(initial.event, initial.note.c_str());
    QVERIFY(initial.event->mhat.empty() && std::isnan(initial.event->cdfChange));
    const RunEventParse refreshed = parse(scheduleEvent(true).dump());
    QVERIFY2(refreshed.event, refreshed.note.c_str());
    QCOMPARE(refreshed.event->mhat.size(), size_t{3});
    QCOMPARE(refreshed.event->pi[1], 0.5);

    const RunEventParse eval = parse(evalEvent().dump());
    QVERIFY2(eval.event, eval.note.c_str());
    QCOMPARE(eval.event->reference, std::string("elbo"));
    QVERIFY(std::isnan(eval.event->swd));
    const RunEventParse checkpoint = parse(checkpointEvent().dump());
    QVERIFY2(checkpoint.event, checkpoint.note.c_str());
    QCOMPARE(checkpoint.event->exportPath, std::string("checkpoints/step-000001000.denoiser.pt"));
    const RunEventParse end = parse(endEvent().dump() + "\r");  // CRLF line end
    QVERIFY2(end.event, end.note.c_str());
    QCOMPARE(end.event->seconds, 42.0);
    const RunEventParse note = parse(noteEvent().dump());
    QVERIFY2(note.event, note.note.c_str());
    QCOMPARE(int(note.event->kind), int(RunEvent::Kind::Note));
    QVERIFY(note.event->message.find("cut short") != std::string::npos);
    const RunEventParse error = parse(errorEvent().dump());
    QVERIFY2(error.event, error.note.c_str());
    QCOMPARE(int(error.event->kind), int(RunEvent::Kind::Error));
    QCOMPARE(error.event->lastCheckpoint, std::string("checkpoints/step-000001000.ckpt"));
    const RunEventParse stop = parse(stopEvent().dump());
    QVERIFY2(stop.event, stop.note.c_str());
    QCOMPARE(int(stop.event->kind), int(RunEvent::Kind::Stop));
    QCOMPARE(stop.event->step, int64_t{1100});
    json early = errorEvent();
    early.erase("last_checkpoint");  // stopped before its first checkpoint
    QVERIFY(parse(early.dump()).event);
    json numbered = errorEvent();
    numbered["message"] = 3;
    QVERIFY(refused(numbered.dump(), "field 'message' is number"));

    // A blank line is neither an event nor a note.
    QVERIFY(!parse("   ").event && parse("   ").note.empty());
  }

  // runEventJson, the trainer's one writer, is the reader's inverse: a line read and written
  // again is the same object, for every kind, with the optional fields present and absent.
  void writerIsTheReadersInverse() {
    json start = startEvent();
    start["threads"] = 2;
    start["gate_c"] = 0.15;
    start["gate"] = "auto";
    start["loss_weight"] = {{"kind", "edm"},
                            {"label", "EDM (σ_d = 0.5)"},
                            {"sigma_data", 0.5},
                            {"gamma", 5.0},
                            {"from", "config"}};
    json resume = start;
    resume["event"] = "resume";
    resume["step"] = 1000;
    json quality = evalEvent();
    quality["swd"] = 0.02;
    quality["quality_samples"] = 256;
    quality["heun_steps"] = 32;
    quality["fd"] = 3.5;
    quality["feature_network"] = "features.pt";
    quality["feature_accuracy"] = 0.9;
    json bare = checkpointEvent();
    bare.erase("export");
    json firstError = errorEvent();  // a fault before the first checkpoint
    firstError.erase("last_checkpoint");
    for (const json& line : {start, resume, trainEvent(50), scheduleEvent(false),
                             scheduleEvent(true), evalEvent(), quality, checkpointEvent(), bare,
                             endEvent(), noteEvent(), errorEvent(), firstError, stopEvent()}) {
      const RunEventParse read = parse(line.dump());
      QVERIFY2(read.event, read.note.c_str());
      // Through text, as a line goes out: NaN becomes null there.
      const json written = json::parse(runEventJson(*read.event).dump());
      QVERIFY2(written == line, (line.dump() + "\n  written as\n" + written.dump()).c_str());
    }
    // NaN (an empty bin, a diverged loss) goes out as null, which the reader takes back as NaN.
    RunEvent train = *parse(trainEvent(50).dump()).event;
    train.loss = std::numeric_limits<double>::quiet_NaN();
    const json written = json::parse(runEventJson(train).dump());
    QVERIFY(written["loss"].is_null() && written["bin_error"][1].is_null());
    QVERIFY(std::isnan(parse(written.dump()).event->loss));
  }

  void missingKeysAreNamed() {
    const std::set<std::string> optional = {"mhat",   "rho", "cdf_change",
                                            "export", "swd", "last_checkpoint"};
    int cases = 0;
    for (const json& full :
         {startEvent(), trainEvent(5), scheduleEvent(true), evalEvent(), checkpointEvent(),
          endEvent(), noteEvent(), errorEvent(), stopEvent()}) {
      for (const auto& item : full.items()) {
        if (optional.count(item.key())) continue;
        json cut = full;
        cut.erase(item.key());
        QVERIFY2(refused(cut.dump(), "missing field '" + item.key() + "'"), item.key().c_str());
        ++cases;
      }
    }
    QVERIFY(cases >= 40);
    json network = startEvent();
    network["network"].erase("kind");
    QVERIFY(refused(network.dump(), "missing field 'kind'"));
  }

  void wrongTypesAreNamed() {
    auto with = [](json e, const char* key, json value) {
      e[key] = std::move(value);
      return e.dump();
    };
    QVERIFY(refused(with(trainEvent(5), "step", "12"), "field 'step' is string"));
    QVERIFY(refused(with(trainEvent(5), "step", -3), "field 'step' is negative"));
    QVERIFY(refused(with(trainEvent(5), "step", 2.5), "field 'step'"));
    QVERIFY(refused(with(trainEvent(5), "loss", "low"), "field 'loss' is string"));
    QVERIFY(refused(with(trainEvent(5), "lr", nullptr), "field 'lr' is null"));
    QVERIFY(refused(with(trainEvent(5), "bin_error", 0.1), "field 'bin_error' is number"));
    QVERIFY(refused(with(trainEvent(5), "bin_count", {1, 2}), "field 'bin_count' has 2"));
    QVERIFY(refused(with(scheduleEvent(true), "pi", {0.2, "x", 0.3}), "field 'pi' is string"));
    QVERIFY(refused(with(scheduleEvent(true), "pi", {0.5, 0.5}), "field 'pi' has 2 entries"));
    QVERIFY(refused(with(scheduleEvent(true), "pi", {0.5, -0.1, 0.6}), "negative mass"));
    QVERIFY(refused(with(scheduleEvent(true), "mhat", {1, 2}), "field 'mhat' has 2 entries"));
    QVERIFY(refused(with(scheduleEvent(true), "log_sigma_edges", {0.0, 1.0, 1.0, 2.0}),
                    "not increasing"));
    QVERIFY(refused(with(scheduleEvent(true), "sampler", 3), "field 'sampler' is number"));
    QVERIFY(refused(with(evalEvent(), "error", {0.1}), "field 'error' has 1 entries"));
    QVERIFY(refused(with(startEvent(), "discrete", 1), "field 'discrete' is number"));
    QVERIFY(refused(with(startEvent(), "network", json::array()), "field 'network' is array"));
    QVERIFY(refused(with(endEvent(), "event", 7), "field 'event' is number"));
    QVERIFY(refused(with(endEvent(), "event", "explode"), "unknown event 'explode'"));
    QVERIFY(refused(json::array({1, 2}).dump(), "not a JSON object but array"));
    QVERIFY(refused("null", "not a JSON object but null"));
  }

  void hugeNumbersAndNanTokens() {
    auto lossLine = [](const std::string& token) {
      std::string line = trainEvent(5).dump();
      const std::string key = "\"loss\":0.25";
      line.replace(line.find(key), key.size(), "\"loss\":" + token);
      return line;
    };
    QVERIFY(parse(lossLine("1e299")).event);
    QVERIFY(refused(lossLine("1e308"), "beyond the largest accepted magnitude"));
    QVERIFY(refused(lossLine("-1e308"), "beyond the largest accepted magnitude"));
    QVERIFY(refused(lossLine("1e400"), "not valid JSON"));  // overflows the double
    QVERIFY(refused(lossLine("NaN"), "not valid JSON"));
    QVERIFY(refused(lossLine("Infinity"), "not valid JSON"));
    QVERIFY(refused(lossLine("-Infinity"), "not valid JSON"));
    const RunEventParse nullLoss = parse(lossLine("null"));  // what a diverged run writes
    QVERIFY(nullLoss.event && std::isnan(nullLoss.event->loss));
    std::string step = trainEvent(5).dump();
    step.replace(step.find("\"step\":5"), 8, "\"step\":1e20");
    QVERIFY(refused(step, "field 'step'"));
    step = trainEvent(5).dump();
    step.replace(step.find("\"step\":5"), 8, "\"step\":184467440737095516150");
    QVERIFY(refused(step, "field 'step'"));
  }

  void garbageAndBinaryBytes() {
    QVERIFY(refused("hello world", "not valid JSON"));
    QVERIFY(refused("{\"event\":\"train\",\"step\":5,", "not valid JSON"));  // cut off
    QVERIFY(refused(trainEvent(5).dump() + "}", "not valid JSON"));
    const std::string binary("\x00\xff\xfe{\x01\x7f\x80\n", 8);
    QVERIFY(refused(binary, "not valid JSON"));
    std::string badUtf8 = endEvent().dump();
    badUtf8.replace(badUtf8.find("end"), 3, "\xc3\x28");
    QVERIFY(refused(badUtf8, "not valid JSON"));
    QVERIFY(refused(std::string(1, '\0'), "not valid JSON"));
  }

  void tornLineWaitsForItsNewline() {
    Scratch file;
    RunEventsFollower follower(file.path());
    QVERIFY(follower.poll().events.empty());  // no file yet: nothing, and no complaint
    const std::string line = trainEvent(10).dump();
    file.append(startEvent().dump() + "\n" + line.substr(0, 30));
    RunEventsFollower::Batch b = follower.poll();
    QCOMPARE(b.events.size(), size_t{1});
    QVERIFY(b.notes.empty());
    QVERIFY(follower.poll().events.empty());  // still torn
    file.append(line.substr(30) + "\n");
    b = follower.poll();
    QCOMPARE(b.events.size(), size_t{1});
    QCOMPARE(b.events[0].step, int64_t{10});
    QVERIFY(b.notes.empty() && !b.restarted);
    QCOMPARE(follower.lines(), int64_t{2});
  }

  void lineCutOffByAKillIsNotedAndTheNextOneRead() {
    Scratch file;
    // The writer died mid-line; whatever comes next starts on the same line.
    file.append(startEvent().dump() + "\n{\"event\":\"train\",\"st");
    RunEventsFollower follower(file.path());
    QCOMPARE(follower.poll().events.size(), size_t{1});
    file.append("\n" + trainEvent(20).dump() + "\n");
    const RunEventsFollower::Batch b = follower.poll();
    QCOMPARE(b.events.size(), size_t{1});
    QCOMPARE(b.notes.size(), size_t{1});
    QVERIFY2(b.notes[0].find(file.path() + ":2: not valid JSON") == 0, b.notes[0].c_str());
  }

  void fileGrowingBetweenReads() {
    Scratch file;
    RunEventsFollower follower(file.path());
    std::string all;
    for (int i = 1; i <= 40; ++i) all += trainEvent(i * 10).dump() + "\n";
    // Appended in uneven pieces, with a poll after each: every event once, in order.
    std::vector<int64_t> steps;
    size_t at = 0;
    for (size_t piece = 1; at < all.size(); piece = piece * 3 % 97 + 1) {
      file.append(all.substr(at, piece));
      at += piece;
      const RunEventsFollower::Batch b = follower.poll();
      QVERIFY(b.notes.empty() && !b.restarted);
      for (const RunEvent& e : b.events) steps.push_back(e.step);
    }
    QCOMPARE(steps.size(), size_t{40});
    for (size_t i = 0; i < steps.size(); ++i) QCOMPARE(steps[i], int64_t(10 * (i + 1)));
  }

  void fileReplacedByAShorterOne() {
    Scratch file;
    file.append(lines({startEvent(), trainEvent(10), trainEvent(20), trainEvent(30)}));
    RunEventsFollower follower(file.path());
    QCOMPARE(follower.poll().events.size(), size_t{4});
    // A resume rewrites the file without the steps after its checkpoint.
    json resume = startEvent();
    resume["event"] = "resume";
    resume["step"] = 10;
    file.replace(lines({startEvent(), trainEvent(10), resume}));
    RunEventsFollower::Batch b = follower.poll();
    QVERIFY(b.restarted);
    QCOMPARE(b.events.size(), size_t{3});
    QCOMPARE(int(b.events[2].kind), int(RunEvent::Kind::Resume));
    QCOMPARE(follower.lines(), int64_t{3});
    // Cut in place (same inode, shorter).
    file.overwrite(lines({startEvent()}));
    b = follower.poll();
    QVERIFY(b.restarted);
    QCOMPARE(b.events.size(), size_t{1});
    // Rewritten in place at the same length or longer, with other first bytes.
    json other = startEvent();
    other["device"] = "gpu";
    file.overwrite(lines({other, trainEvent(10)}));
    b = follower.poll();
    QVERIFY(b.restarted);
    QCOMPARE(b.events.size(), size_t{2});
    QCOMPARE(b.events[0].device, std::string("gpu"));
    // Replaced by a file with a torn first line: nothing yet, then the line.
    file.replace(endEvent().dump().substr(0, 10));
    b = follower.poll();
    QVERIFY(b.restarted && b.events.empty() && b.notes.empty());
    file.append(endEvent().dump().substr(10) + "\n");
    b = follower.poll();
    QVERIFY(!b.restarted);
    QCOMPARE(b.events.size(), size_t{1});
    // Removed: nothing, and the follower waits for it to come back.
    std::filesystem::remove(file.path());
    b = follower.poll();
    QVERIFY(b.events.empty() && b.notes.empty());
    file.append(lines({startEvent()}));
    b = follower.poll();
    QVERIFY(b.restarted);
    QCOMPARE(b.events.size(), size_t{1});
  }

  void overlongLineIsSkippedWithANote() {
    Scratch file;
    RunEventsFollower follower(file.path(), /*maxLineBytes=*/4096, /*maxBytesPerPoll=*/1000);
    file.append(startEvent().dump() + "\n" + std::string(10000, 'x') + "\n" +
                trainEvent(30).dump() + "\n");
    std::vector<RunEvent> events;
    std::vector<std::string> notes;
    for (int i = 0; i < 20; ++i) {  // 1000 bytes per poll
      RunEventsFollower::Batch b = follower.poll();
      for (auto& e : b.events) events.push_back(e);
      for (auto& n : b.notes) notes.push_back(n);
    }
    QCOMPARE(events.size(), size_t{2});
    QCOMPARE(events[1].step, int64_t{30});
    QCOMPARE(notes.size(), size_t{1});
    QVERIFY2(notes[0].find(":2: line longer than 4096 bytes") != std::string::npos,
             notes[0].c_str());
    QCOMPARE(follower.lines(), int64_t{3});
  }
};

QTEST_APPLESS_MAIN(TestRunEvents)
#include "test_run_events.moc"
