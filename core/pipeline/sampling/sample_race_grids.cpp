// The grids of the sample race (pipeline/sampling/sample_race.h): sampling-grid spec strings
// (schedule/sampling_grid.h) built through pipeline::samplingGrid, with the race's profile and the
// run's final π as the sources of the data-driven families.
#include <memory>
#include <optional>
#include <sstream>

#include "io/profile_io.h"
#include "pipeline/sampling/sample_race.h"
#include "pipeline/sampling/sampling_grids.h"
#include "util/error.h"

namespace noisescope::pipeline {
namespace {

struct Sources {
  std::shared_ptr<const Profile> profile;
  std::string profileSource;
  std::shared_ptr<const schedule::Schedule> pi;
  std::string piSource;
};

Sources readSources(const RaceGridContext& c) {
  Sources s;
  if (!c.profile.empty()) {
    s.profile = std::make_shared<const Profile>(readProfile(c.profile));
    s.profileSource = c.profile;
  }
  if (!c.runDirectory.empty()) {
    try {
      s.pi =
          std::make_shared<const schedule::Schedule>(runFinalSchedule(c.runDirectory, &s.piSource));
    } catch (const InputError&) {
      // A run without a recorded π simply has no π-quantile grid.
    }
  }
  return s;
}

RaceGrid makeGrid(const std::string& spec, const Sources& s) {
  GridSources sources{s.profile.get(), s.profileSource, s.pi.get(), s.piSource};
  // Built once here so that a bad spec or a missing source fails before any sampling.
  const SamplingGridResult probe = samplingGrid(spec, 4, sources);
  std::string rule = probe.rule;
  if (!probe.source.empty()) rule += " (from " + probe.source + ")";
  return {spec, rule, [spec, s](int64_t steps) {
            GridSources inner{s.profile.get(), s.profileSource, s.pi.get(), s.piSource};
            auto sigma = samplingGrid(spec, int(steps), inner).sigma;
            sigma.pop_back();  // the final 0: the race appends it
            return sigma;
          }};
}

std::string range(const RaceGridContext& c) {
  if (c.sigmaMin == schedule::defaults::kSigmaMin && c.sigmaMax == schedule::defaults::kSigmaMax)
    return "";
  std::ostringstream out;
  out.precision(17);
  out << "sigma_min=" << c.sigmaMin << "&sigma_max=" << c.sigmaMax;
  return out.str();
}

std::string withRange(const std::string& head, const std::string& keys, const std::string& r) {
  if (keys.empty() && r.empty()) return head;
  return head + "?" + keys + (keys.empty() || r.empty() ? "" : "&") + r;
}

}  // namespace

std::vector<RaceGrid> raceGrids(const std::vector<std::string>& specs,
                                const RaceGridContext& context) {
  const Sources sources = readSources(context);
  std::vector<RaceGrid> grids;
  for (const auto& spec : specs) grids.push_back(makeGrid(spec, sources));
  return grids;
}

std::vector<RaceGridAttempt> tryRaceGrids(const std::vector<std::string>& specs,
                                          const RaceGridContext& context) {
  std::vector<RaceGridAttempt> attempts;
  std::optional<Sources> sources;
  std::string sourceError;  // an unreadable profile: every spec gets its message
  try {
    sources = readSources(context);
  } catch (const std::exception& e) {
    sourceError = e.what();
  }
  for (const auto& spec : specs) {
    RaceGridAttempt a{spec, std::nullopt, sourceError};
    if (sources) {
      try {
        a.grid = makeGrid(spec, *sources);
      } catch (const std::exception& e) {
        a.error = e.what();
      }
    }
    attempts.push_back(std::move(a));
  }
  return attempts;
}

std::vector<std::string> defaultRaceGridSpecs(const RaceGridContext& c) {
  const std::string r = range(c);
  std::vector<std::string> specs{
      withRange("karras", "rho=7", r),   withRange("karras", "rho=3", r),
      withRange("uniform-sigma", "", r), withRange("log-sigma", "", r),
      "ddpm?spacing=trailing",           "ddpm?spacing=leading&steps_offset=1",
      "ddpm?spacing=linspace",           withRange("flow", "shift=3", r)};
  if (!c.profile.empty()) {
    specs.push_back(withRange("entropic", "increment=rate", r));
    specs.push_back(withRange("entropic", "increment=sqrt-rate", r));
    // The data-derived grid (THEORY §6), on the profile and the other files of its bracket.
    specs.push_back(withRange("auto", "", r));
  }
  if (!c.runDirectory.empty() && readSources(c).pi) specs.push_back("quantiles?of=pi");
  return specs;
}

std::vector<std::string> quickRaceGridSpecs(const RaceGridContext& c) {
  const std::string r = range(c);
  std::vector<std::string> specs{withRange("karras", "rho=7", r), withRange("log-sigma", "", r)};
  if (!c.profile.empty())
    specs.push_back(withRange("auto", "", r));
  else if (!c.runDirectory.empty() && readSources(c).pi)
    specs.push_back("quantiles?of=pi");
  return specs;
}

std::vector<RaceGrid> defaultRaceGrids(const RaceGridContext& context) {
  return raceGrids(defaultRaceGridSpecs(context), context);
}

}  // namespace noisescope::pipeline
