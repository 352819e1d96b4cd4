// The Training tab's run monitor on a hostile run directory: events cut off mid-line, holding
// wrong types, huge numbers, NaN tokens or binary bytes, growing while read and replaced under
// the reader. The monitor keeps running, exposes what it could read and notes every skipped line;
// a run stopped by the user is recorded as stopped in its folder; and a real (tiny) training
// run's events are read without a single note.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "data/statistics.h"
#include "train/train_config.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "ui/run_monitor.h"

using nlohmann::json;
using noisescope::pipeline::RunRecord;
using noisescope::ui::RunMonitor;

namespace {

json start() {
  return {{"event", "start"},
          {"step", 0},
          {"time", 1.0},
          {"steps", 400},
          {"world_size", 1},
          {"device", "cpu"},
          {"network", {{"kind", "mlp"}}},
          {"parameters", 10},
          {"sigma_data", 0.5},
          {"discrete", false},
          {"train_samples", 9},
          {"test_samples", 1},
          {"test", "split"},
          {"bins", 2}};
}
json train(int step, double loss) {
  return {
      {"event", "train"},   {"step", step},         {"time", 2.0},        {"loss", loss},
      {"lr", 1e-3},         {"samples_per_s", 1.0}, {"steps_per_s", 3.0}, {"bin_error", {0.1, 0.2}},
      {"bin_count", {1, 1}}};
}
json schedule(int step) {
  return {{"event", "schedule"},    {"step", step},    {"time", 3.0},
          {"sampler", "infonoise"}, {"refresh", 0},    {"log_sigma_edges", {-1.0, 0.0, 2.0}},
          {"sigma", {0.6, 2.7}},    {"pi", {0.5, 0.5}}};
}

// A stand-in for `noisescope-cli train --config C --out DIR`: creates DIR, writes a start and a
// train event (step 30) as the trainer does, then waits to be stopped.
QString standInTrainer(const QTemporaryDir& dir) {
  const QString path = dir.filePath("stand-in-cli.sh");
  std::ofstream script(path.toStdString());
  script << "#!/bin/sh\nmkdir -p \"$5\"\n"
         << "cat >> \"$5/events.jsonl\" <<'EOF'\n"
         << start().dump() << "\n"
         << train(30, 0.5).dump() << "\nEOF\nexec sleep 60\n";
  script.close();
  QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  return path;
}

json lastEvent(const QString& events) {
  std::ifstream in(events.toStdString());
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return json::parse(last);
}

void append(const QString& path, const std::string& bytes) {
  std::ofstream out(path.toStdString(), std::ios::app | std::ios::binary);
  out << bytes;
}

}  // namespace

class TestRunMonitor : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void hostileEventsAreSkippedWithNotes() {
    QTemporaryDir dir;
    const QString events = QDir(dir.path()).filePath("events.jsonl");
    RunMonitor monitor(dir.path());
    monitor.poll();  // no file yet
    QVERIFY(!monitor.record().started);
    QSignalSpy noted(&monitor, &RunMonitor::noted);
    QSignalSpy updated(&monitor, &RunMonitor::updated);

    json wrongType = train(20, 0.5);
    wrongType["loss"] = "low";
    json missing = schedule(30);
    missing.erase("pi");
    std::string nanLoss = train(40, 0.5).dump();
    nanLoss.replace(nanLoss.find("\"loss\":0.5"), 10, "\"loss\":NaN");
    std::string huge = train(50, 0.5).dump();
    huge.replace(huge.find("\"loss\":0.5"), 10, "\"loss\":1e400");
    const std::string binary("\x00\x01\xff\xfe garbage \x80\x81", 14);
    const std::string torn = train(70, 0.25).dump();
    append(events, start().dump() + "\n" +              // line 1: read
                       train(10, 0.9).dump() + "\n" +   // 2: read
                       wrongType.dump() + "\n" +        // 3: wrong type
                       missing.dump() + "\n" +          // 4: missing key
                       nanLoss + "\n" +                 // 5: NaN token
                       huge + "\n" +                    // 6: overflows a double
                       binary + "\n" +                  // 7: binary bytes
                       "{\"event\":\"train\",\"st\n" +  // 8: cut off by a kill
                       schedule(60).dump() + "\n" +     // 9: read
                       torn.substr(0, 25));             // 10: still being written
    monitor.poll();
    const RunRecord& s = monitor.record();
    QVERIFY(s.started);
    QCOMPARE(s.totalSteps, 400.0);
    QCOMPARE(s.train.size(), size_t{1});
    QCOMPARE(s.schedules.size(), size_t{1});
    QCOMPARE(s.schedules[0].density[1], 0.25);  // π per unit log σ
    QCOMPARE(s.malformedLines, 6);
    QCOMPARE(noted.count(), 6);
    QVERIFY(updated.count() >= 1);
    const std::vector<std::string> expected = {
        "events.jsonl:3: field 'loss' is string", "events.jsonl:4: missing field 'pi'",
        "events.jsonl:5: not valid JSON",         "events.jsonl:6: not valid JSON",
        "events.jsonl:7: not valid JSON",         "events.jsonl:8: not valid JSON"};
    QCOMPARE(s.notes.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
      QVERIFY2(s.notes[i].find(expected[i]) != std::string::npos, s.notes[i].c_str());

    // The torn line is completed: read, with no new note.
    append(events, torn.substr(25) + "\n");
    monitor.poll();
    QCOMPARE(monitor.record().train.size(), size_t{2});
    QCOMPARE(monitor.record().train.back().loss, 0.25);
    QCOMPARE(monitor.record().malformedLines, 6);

    // Replaced under the reader by a shorter file (what a resume does): read again from the top,
    // the earlier notes kept and one more saying so.
    const std::string tmp = (events + ".tmp").toStdString();
    {
      std::ofstream out(tmp, std::ios::binary);
      out << start().dump() << "\n" << train(10, 0.8).dump() << "\n";
    }
    std::filesystem::rename(tmp, events.toStdString());
    monitor.poll();
    QCOMPARE(monitor.record().restarts, 1);
    QCOMPARE(monitor.record().train.size(), size_t{1});
    QCOMPARE(monitor.record().train[0].loss, 0.8);
    QCOMPARE(monitor.record().schedules.size(), size_t{0});
    QVERIFY(monitor.record().notes.back().find("read again from the start") != std::string::npos);
    QCOMPARE(monitor.record().notes.size(), size_t{7});

    // Many bad lines: the note list stays bounded, the count does not.
    std::string bad;
    for (int i = 0; i < 50; ++i) bad += "not json\n";
    append(events, bad);
    monitor.poll();
    QCOMPARE(monitor.record().notes.size(), size_t{RunRecord::kMaxNotes});
    QCOMPARE(monitor.record().malformedLines, 50);  // counted since the file was read again
    QCOMPARE(monitor.record().train.size(), size_t{1});

    // An events "file" that is a folder, or unreadable: nothing read, nothing thrown.
    QTemporaryDir other;
    QVERIFY(QDir(other.path()).mkdir("events.jsonl"));
    RunMonitor odd(other.path());
    odd.poll();
    QVERIFY(!odd.record().started && odd.record().notes.empty());
  }

  // A run the user stopped is recorded as stopped in its own folder: a monitor that reopens the
  // run later (the workbench restarted) reads "stopped by you", not a run that died; a resume
  // clears it.
  void userStopIsRecordedInTheRunDirectory() {
    QTemporaryDir dir;
    const QString runDir = QDir(dir.path()).filePath("run");
    const QString events = QDir(runDir).filePath("events.jsonl");
    {
      RunMonitor monitor(runDir);
      QSignalSpy finished(&monitor, &RunMonitor::processFinished);
      monitor.start(standInTrainer(dir), dir.filePath("unused.config.json"));
      QTRY_VERIFY(QFile::exists(events));
      QTRY_COMPARE(monitor.record().train.size(), size_t{1});
      monitor.stop();
      QTRY_COMPARE(finished.count(), 1);
      QCOMPARE(finished[0][1].toString(), QString());  // no failure message
      QVERIFY(monitor.stoppedByUser());
    }
    const json stop = lastEvent(events);
    QCOMPARE(QString::fromStdString(stop["event"].get<std::string>()), QString("stop"));
    QCOMPARE(stop["step"].get<int>(), 30);

    RunMonitor reopened(runDir);
    reopened.poll();
    QVERIFY(reopened.record().notes.empty());
    QVERIFY(reopened.record().stoppedByUser);
    QVERIFY(reopened.stoppedByUser());
    QVERIFY(!reopened.isRunning());

    // Resumed: running again, no longer stopped.
    json resume = start();
    resume["event"] = "resume";
    resume["step"] = 30;
    append(events, resume.dump() + "\n");
    reopened.poll();
    QVERIFY(!reopened.stoppedByUser());

    // A run that never created its folder leaves nothing behind.
    const QString never = QDir(dir.path()).filePath("never");
    noisescope::pipeline::recordUserStop(never.toStdString(), 0);
    QVERIFY(!QFileInfo::exists(never));
  }

  void realRunIsReadWithoutNotes() {
    using namespace noisescope;
    QTemporaryDir dir;
    train::TrainingData data;
    std::mt19937 engine(3);
    std::normal_distribution<float> normal(0.0f, 0.3f);
    for (Dataset* d : {&data.train, &data.test}) {
      d->name = d->source = "points";
      d->kind = SampleKind::Points;
      d->sampleShape = {2};
      for (int i = 0; i < (d == &data.train ? 256 : 64) * 2; ++i)
        d->values.push_back(normal(engine));
    }
    data.testDescription = "a second draw";
    data.sigmaData = measureSigmaData(data.train);
    const train::TrainConfig config = train::parseTrainConfig(json::parse(R"({
      "dataset": {"path": "synthetic:unused"},
      "model": {"width": 16, "depth": 1, "embedding": 8},
      "optim": {"steps": 240, "batch_size": 16, "lr": 2e-3, "seed": 4, "device": "cpu"},
      "noise": {"sampler": "infonoise", "warmup_steps": 60, "refresh_every": 60,
                "min_bin_count": 1, "bins": 8},
      "eval": {"every": 120, "samples": 32, "levels": 4},
      "checkpoint": {"every": 120, "keep": 1},
      "log_every": 40})"),
                                                              "tiny.json");
    train::TrainerOptions options;
    options.runDir = dir.path().toStdString();
    train::Trainer(config, data, options).run();

    RunMonitor monitor(dir.path());
    monitor.poll();
    const RunRecord& s = monitor.record();
    QVERIFY2(s.notes.empty(), s.notes.empty() ? "" : s.notes.front().c_str());
    QVERIFY(s.started && s.ended);
    QCOMPARE(s.totalSteps, 240.0);
    QCOMPARE(s.train.size(), size_t{6});
    QVERIFY(s.schedules.size() >= 2);  // the initial π and at least one refresh
    QVERIFY(!s.schedules.back().mhat.empty());
    QVERIFY(!s.evals.empty());
  }
};

QTEST_GUILESS_MAIN(TestRunMonitor)
#include "test_run_monitor.moc"
