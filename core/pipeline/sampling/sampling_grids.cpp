#include "pipeline/sampling/sampling_grids.h"

#include <cstdio>
#include <filesystem>
#include <optional>

#include "io/profile_io.h"
#include "io/run_events.h"
#include "io/schedule_io.h"
#include "schedule/entropic.h"
#include "util/error.h"
#include "util/number_text.h"

namespace noisescope::pipeline {

using namespace noisescope::schedule;

namespace {

// The last schedule event of a run's events.jsonl, as a binned schedule.
std::optional<Schedule> lastScheduleEvent(const std::string& events) {
  RunEventsFollower follower(events);
  std::optional<Schedule> last;
  for (int64_t before = -1; follower.offset() != before;) {
    before = follower.offset();
    const RunEventsFollower::Batch batch = follower.poll();
    for (const RunEvent& e : batch.events) {
      if (e.kind != RunEvent::Kind::Schedule || e.pi.empty() ||
          e.logSigmaEdges.size() != e.pi.size() + 1)
        continue;
      last = Schedule::fromBinMasses(LogSigmaGrid{e.logSigmaEdges}, e.pi);
      last->info.kind = "run";
      last->info.label = e.sampler + " π at step " + std::to_string(e.step);
    }
  }
  return last;
}

bool readsSamplingRate(const SamplingGridSpec& spec) {
  return spec.family == GridFamily::Auto || spec.sigmaMinFromRate || spec.gateAuto ||
         (spec.family == GridFamily::Entropic && spec.rate == EntropicRate::Sampling);
}

const char* const kBracketKinds[] = {"empirical",      "held-out", "held-out-wiener",
                                     "held-out-patch", "gaussian", "bound"};

}  // namespace

std::vector<std::string> bracketProfileFiles(const std::string& path) {
  namespace fs = std::filesystem;
  std::string stem = path;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0)
    stem.resize(stem.size() - 5);
  for (const char* kind : kBracketKinds) {
    const std::string suffix = std::string(".") + kind;
    if (stem.size() > suffix.size() &&
        stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0) {
      stem.resize(stem.size() - suffix.size());
      break;
    }
  }
  std::vector<std::string> files;
  for (const char* kind : kBracketKinds) {
    const std::string file = stem + "." + kind + ".json";
    if (fs::exists(file)) files.push_back(file);
  }
  if (files.empty() && fs::exists(path)) files.push_back(path);
  return files;
}

Schedule runFinalSchedule(const std::string& runDirectory, std::string* from) {
  namespace fs = std::filesystem;
  const fs::path run(runDirectory);
  if (!fs::is_directory(run))
    throw InputError(runDirectory, "is not a run directory (no such folder)");
  for (const char* name : {"final.schedule.json", "latest.schedule.json"}) {
    const fs::path file = run / "schedules" / name;
    if (fs::exists(file)) {
      if (from) *from = file.string();
      return readSchedule(file.string());
    }
  }
  const fs::path events = run / "events.jsonl";
  if (fs::exists(events)) {
    if (auto last = lastScheduleEvent(events.string())) {
      if (from) *from = events.string();
      return *last;
    }
  }
  throw InputError(runDirectory,
                   "holds no training schedule (schedules/final.schedule.json, "
                   "schedules/latest.schedule.json or a schedule event in events.jsonl)");
}

SamplingGridResult samplingGrid(const std::string& specText, int steps,
                                const GridSources& sources) {
  SamplingGridResult r;
  r.spec = parseSamplingGridSpec(specText);
  SamplingGridInputs inputs;
  std::optional<Profile> profileFile;
  std::optional<RateProfile> rate;
  std::optional<Schedule> scheduleFile;
  if (r.spec.family == GridFamily::Entropic && r.spec.rate == EntropicRate::Profile) {
    const Profile* profile = sources.profile;
    r.source = sources.profileSource;
    if (!r.spec.profile.empty()) {
      profileFile = readProfile(r.spec.profile);
      profile = &*profileFile;
      r.source = r.spec.profile;
    }
    if (!profile)
      throw InputError(specText, "the entropic grid needs a profile: profile=FILE (or --profile)");
    rate = rateProfileFrom(*profile, r.source);
    inputs.profile = &*rate;
  } else if (r.spec.family == GridFamily::Quantiles) {
    inputs.schedule = sources.schedule;
    r.source = sources.scheduleLabel;
    if (!r.spec.run.empty()) {
      std::string from;
      scheduleFile = runFinalSchedule(r.spec.run, &from);
      r.source = from;
    } else if (!r.spec.schedule.empty()) {
      scheduleFile = readSchedule(r.spec.schedule);
      r.source = r.spec.schedule;
    }
    if (scheduleFile) inputs.schedule = &*scheduleFile;
    if (!inputs.schedule)
      throw InputError(specText,
                       "the quantile grid needs a schedule: run=DIR or schedule=FILE (or a "
                       "selected schedule)");
  }
  // The sampling rate, for the grids that read it: the face's profile (or profile=FILE) and the
  // other files of its bracket.
  std::vector<Profile> rateFiles;
  if (readsSamplingRate(r.spec)) {
    const std::string path = !r.spec.profile.empty() ? r.spec.profile : sources.profileSource;
    std::vector<const Profile*> profiles;
    for (const std::string& file :
         path.empty() ? std::vector<std::string>{} : bracketProfileFiles(path)) {
      rateFiles.push_back(readProfile(file));
      r.notes.push_back("sampling rate reads " + file + " (" + rateFiles.back().kind + ")");
    }
    for (const Profile& p : rateFiles) profiles.push_back(&p);
    if (profiles.empty() && sources.profile) {
      profiles.push_back(sources.profile);
      r.notes.push_back("sampling rate reads " + sources.profileSource + " (" +
                        sources.profile->kind + ")");
    }
    try {
      if (!profiles.empty()) r.rate = samplingRateFromProfiles(profiles, &r.notes);
    } catch (const InputError& e) {
      if (r.spec.family != GridFamily::Auto) throw;
      r.notes.push_back(std::string("auto: no sampling rate (") + e.what() + ")");
    }
    if (r.rate) {
      inputs.rate = &*r.rate;
      r.source = path.empty() ? sources.profileSource : path;
    }
  }
  const ResolvedGrid resolved = resolveSamplingGrid(r.spec, inputs);
  r.notes.insert(r.notes.end(), resolved.notes.begin(), resolved.notes.end());
  r.sigma = buildSamplingGrid(r.spec, steps, inputs);
  r.steps = steps;
  r.canonical = canonicalSpec(r.spec);
  // A grid that decided something from the rate is labelled and described by what it decided.
  r.label = gridLabel(resolved.spec);
  if (r.spec.family == GridFamily::Auto) r.label = "auto: " + r.label;
  r.rule = gridRule(resolved.spec);
  r.largestRatio = largestStepRatio(r.sigma);
  const double top = r.sigma.front(), bottom = r.sigma[steps - 1];
  r.ratioLimit = ratioLimit(steps, bottom, top, r.spec.margin);
  for (int i : stepsOverRatio(r.sigma, r.ratioLimit))
    r.warnings.push_back("step " + std::to_string(i + 1) +
                         " goes from σ = " + numberText(r.sigma[i], 4) + " to " +
                         numberText(r.sigma[i + 1], 4) + ", a ratio of " +
                         numberText(r.sigma[i] / r.sigma[i + 1], 4) + ", above the limit " +
                         numberText(r.ratioLimit, 4) + " (" + numberText(r.spec.margin, 4) +
                         " × Karras ρ=7's largest step at N = " + std::to_string(steps) +
                         "); the sampler's error there is unchecked (guard=cap reshapes the grid)");
  r.exports = gridExports(r.spec, r.sigma);
  return r;
}

const std::vector<schedule::GridFamilyInfo>& samplingGridFamilyList() {
  return schedule::samplingGridFamilies();
}

std::string canonicalSamplingGridSpec(const std::string& spec) {
  return schedule::canonicalSpec(schedule::parseSamplingGridSpec(spec));
}

}  // namespace noisescope::pipeline
