// The pipeline's run watch folds a run's events.jsonl into the record the faces draw: the start,
// the loss, schedules as densities per unit log σ, evaluations, the error that stopped the run,
// a skipped line noted, a rewritten file read again with its notes kept, the ETA, and the phase a
// run is finishing after its last step.
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "pipeline/training/run_watch.h"

using nlohmann::json;
using noisescope::pipeline::RunRecord;
using noisescope::pipeline::RunWatch;

namespace {

json startEvent(int steps) {
  return {
      {"event", "start"},  {"step", 0},         {"time", 1000.0},    {"steps", steps},
      {"world_size", 1},   {"device", "cpu"},   {"threads", 2},      {"network", {{"kind", "mlp"}}},
      {"parameters", 10},  {"sigma_data", 0.5}, {"discrete", false}, {"train_samples", 9},
      {"test_samples", 1}, {"test", "split"},   {"bins", 2}};
}
json trainEvent(int step, double time, double loss) {
  return {
      {"event", "train"},   {"step", step},         {"time", time},       {"loss", loss},
      {"lr", 1e-3},         {"samples_per_s", 1.0}, {"steps_per_s", 3.0}, {"bin_error", {0.1, 0.2}},
      {"bin_count", {1, 1}}};
}
json scheduleEvent(int step) {
  return {{"event", "schedule"},    {"step", step},      {"time", 1005.0},
          {"sampler", "infonoise"}, {"refresh", 1},      {"log_sigma_edges", {-1.0, 0.0, 2.0}},
          {"sigma", {0.6, 2.7}},    {"pi", {0.25, 0.75}}};
}
json evalEvent(int step) {
  return {{"event", "eval"},
          {"step", step},
          {"time", 1010.0},
          {"sigma", {0.1, 1.0}},
          {"error", {0.01, 0.2}},
          {"elbo", 1.5},
          {"edm", 0.7},
          {"quality", 1.5},
          {"reference", "elbo"},
          {"fd", 12.5},
          {"quality_samples", 64},
          {"heun_steps", 8},
          {"feature_network", "/models/net.features.pt"}};
}

void append(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::app | std::ios::binary);
  out << bytes;
}

}  // namespace

class TestRunWatch : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void foldsARunsEvents() {
    QTemporaryDir dir;
    const std::string events = dir.filePath("events.jsonl").toStdString();
    RunWatch watch(events);
    QCOMPARE(watch.eventsPath(), events);
    RunWatch::Change change = watch.poll();  // no file yet: nothing, and no note
    QVERIFY(!change.changed && change.notes.empty());
    QVERIFY(!watch.record().started);
    QCOMPARE(noisescope::pipeline::runEta(watch.record()).text, std::string("ETA estimating…"));

    const std::string torn = trainEvent(100, 1020.0, 0.5).dump();
    append(events, startEvent(1100).dump() + "\n" + trainEvent(50, 1010.0, 0.9).dump() + "\n" +
                       scheduleEvent(50).dump() + "\n" + "{\"event\":\"train\",\"st\n" +
                       evalEvent(50).dump() + "\n" + torn.substr(0, 30));
    change = watch.poll();
    const RunRecord& r = watch.record();
    QVERIFY(change.changed);
    QVERIFY(r.started && !r.ended);
    QCOMPARE(r.totalSteps, 1100.0);
    QCOMPARE(r.threads, 2);
    QCOMPARE(r.train.size(), size_t{1});
    QCOMPARE(r.train[0].loss, 0.9);
    QCOMPARE(r.train[0].time, 1010.0);
    // π per unit log σ: each bin's mass over its width (1 and 2 here).
    QCOMPARE(r.schedules.size(), size_t{1});
    QCOMPARE(r.schedules[0].density, (std::vector<double>{0.25, 0.375}));
    QCOMPARE(r.schedules[0].refresh, 1);
    QCOMPARE(r.sampler, std::string("infonoise"));
    QCOMPARE(r.evals.size(), size_t{1});
    QCOMPARE(r.evals[0].fd, 12.5);
    QVERIFY(std::isnan(r.evals[0].kmerJs));
    QCOMPARE(r.evals[0].featureNetwork, std::string("/models/net.features.pt"));
    QCOMPARE(r.reference, std::string("elbo"));
    // The line cut off by a kill is noted by file and line; the one still being written waits.
    QCOMPARE(r.malformedLines, 1);
    QCOMPARE(change.notes.size(), size_t{1});
    QVERIFY2(change.notes[0].find("events.jsonl:4: not valid JSON") != std::string::npos,
             change.notes[0].c_str());
    QCOMPARE(r.notes, change.notes);
    // One train event: no rate yet.
    QVERIFY(!noisescope::pipeline::runEta(r).secondsLeft);

    // The torn line completed: 50 steps in 10 s, so the 1000 left take 200 s.
    append(events, torn.substr(30) + "\n");
    change = watch.poll();
    QVERIFY(change.changed && change.notes.empty());
    QCOMPARE(r.train.size(), size_t{2});
    const auto eta = noisescope::pipeline::runEta(r);
    QVERIFY(eta.secondsLeft);
    QCOMPARE(*eta.secondsLeft, 200.0);
    QCOMPARE(eta.text, std::string("ETA 3 min 20 s"));

    // Nothing new: nothing changed.
    QVERIFY(!watch.poll().changed);

    // The run stops on an error: kept, and noted.
    append(events, json{{"event", "error"},
                        {"step", 100},
                        {"time", 1030.0},
                        {"message", "cannot write checkpoint"},
                        {"last_checkpoint", ""}}
                           .dump() +
                       "\n");
    change = watch.poll();
    QCOMPARE(r.error, std::string("cannot write checkpoint"));
    QCOMPARE(change.notes, std::vector<std::string>{"the run stopped: cannot write checkpoint"});

    // Rewritten shorter (a resume drops the steps after its checkpoint): read again from the top,
    // the earlier notes kept and one more saying so.
    const std::string tmp = events + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      out << startEvent(1100).dump() << "\n" << trainEvent(50, 1010.0, 0.8).dump() << "\n";
    }
    std::filesystem::rename(tmp, events);
    change = watch.poll();
    QVERIFY(change.changed);
    QCOMPARE(r.restarts, 1);
    QCOMPARE(r.train.size(), size_t{1});
    QCOMPARE(r.train[0].loss, 0.8);
    QVERIFY(r.schedules.empty() && r.evals.empty() && r.error.empty());
    QCOMPARE(r.malformedLines, 0);  // counted since the file was read again
    QCOMPARE(r.notes.size(), size_t{3});
    QVERIFY(r.notes.back().find("replaced or shortened; read again from the start") !=
            std::string::npos);
    QCOMPARE(change.notes.size(), size_t{1});

    // Many bad lines: the notes stay bounded to the latest, the count does not.
    std::string bad;
    for (int i = 0; i < 30; ++i) bad += "not json " + std::to_string(i) + "\n";
    append(events, bad);
    change = watch.poll();
    QCOMPARE(change.notes.size(), size_t{30});
    QCOMPARE(r.notes.size(), size_t{RunRecord::kMaxNotes});
    QCOMPARE(r.notes.back(), change.notes.back());
    QCOMPARE(r.malformedLines, 30);

    // The run ends.
    append(
        events,
        json{{"event", "end"}, {"step", 1100}, {"time", 1200.0}, {"seconds", 200.0}}.dump() + "\n");
    watch.poll();
    QVERIFY(r.ended);
  }

  // After its last step the trainer evaluates, writes its checkpoint and export, then its final
  // schedule: the ETA names each phase instead of "ETA 0 s", and the finished run has none.
  void finishingPhaseAfterTheLastStep() {
    QTemporaryDir dir;
    const std::string events = dir.filePath("events.jsonl").toStdString();
    RunWatch watch(events);
    const RunRecord& r = watch.record();
    append(events, startEvent(300).dump() + "\n" + trainEvent(250, 1050.0, 0.5).dump() + "\n" +
                       trainEvent(300, 1060.0, 0.4).dump() + "\n");
    watch.poll();
    auto eta = noisescope::pipeline::runEta(r);
    QVERIFY(eta.finishing);
    QCOMPARE(eta.text, std::string("finishing: final evaluation…"));
    append(events, evalEvent(300).dump() + "\n");
    watch.poll();
    QCOMPARE(noisescope::pipeline::runEta(r).text,
             std::string("finishing: writing checkpoint and export…"));
    append(events, json{{"event", "checkpoint"},
                        {"step", 300},
                        {"time", 1090.0},
                        {"path", "checkpoints/step-300.ckpt"}}
                           .dump() +
                       "\n");
    watch.poll();
    QCOMPARE(r.lastCheckpointStep, 300.0);
    QCOMPARE(noisescope::pipeline::runEta(r).text,
             std::string("finishing: writing the final schedule…"));
    append(
        events,
        json{{"event", "end"}, {"step", 300}, {"time", 1095.0}, {"seconds", 95.0}}.dump() + "\n");
    watch.poll();
    QVERIFY(!noisescope::pipeline::runEta(r).finishing);
  }
};

QTEST_GUILESS_MAIN(TestRunWatch)
#include "test_run_watch.moc"
