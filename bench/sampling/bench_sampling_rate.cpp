// bench_sampling_rate [--write-rate OUT.json] PROFILE.json [MORE.json ...]: the sampling rate the
// profiles give (schedule/sampling_rate.h: per level the estimate, its source and why), where it
// vanishes, and the grids `auto`, `karras-profile` and Karras ρ = 7 at N = 4, 8 and 16
// (docs/sampling-steps.md). Measures nothing; prints.
//
// --write-rate writes the estimate as a profile (kind "table", 513 levels on [0.002, 80]) and
// prints the spec that builds auto's grid from that file with the plain entropic family
// (rate=profile): a way to race auto's levels with a `sample-race` that reads one profile. The
// grids built both ways are compared here and must agree.
#include <cstdio>
#include <string>
#include <vector>

#include <cmath>

#include "io/profile_io.h"
#include "io/sigma_steps_io.h"
#include "profile/profile.h"
#include "schedule/sampling_grid.h"
#include "schedule/sampling_rate.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

int main(int argc, char** argv) {
  std::string writeRate;
  int first = 1;
  if (argc > 2 && std::string(argv[1]) == "--write-rate") {
    writeRate = argv[2];
    first = 3;
  }
  if (argc <= first) {
    std::fprintf(stderr, "usage: %s [--write-rate OUT.json] PROFILE.json [MORE.json ...]\n",
                 argv[0]);
    return 2;
  }
  try {
    std::vector<Profile> files;
    for (int i = first; i < argc; ++i) files.push_back(readProfile(argv[i]));
    std::vector<const Profile*> profiles;
    for (const Profile& p : files) profiles.push_back(&p);
    std::vector<std::string> ignored;
    const SamplingRate rate = samplingRateFromProfiles(profiles, &ignored);
    for (const auto& line : ignored) std::printf("left out: %s\n", line.c_str());
    std::printf(
        "D = %lld, ±1 data: %s\n\n| σ | estimate MMSE/D | upper/D | source | why |\n"
        "|---|---|---|---|---|\n",
        static_cast<long long>(rate.dim), rate.plusMinusOne ? "yes" : "no");
    const double d = rate.dim > 0 ? double(rate.dim) : 1.0;
    for (size_t i = 0; i < rate.sigma.size(); ++i)
      std::printf("| %.4g | %.3g | %.3g | %s | %s |\n", rate.sigma[i], rate.mmse[i] / d,
                  rate.upper[i] / d, toString(rate.source[i]), rate.why[i].c_str());
    std::printf("\n%s\n%s\n", rate.extensionBelow().c_str(), rate.extensionAbove().c_str());
    const double vanish = rate.vanishingSigma(defaults::kSigmaMin, defaults::kSigmaMax);
    std::printf("vanishes below σ = %.4g (0: does not)\n\n", vanish);
    SamplingGridInputs inputs;
    inputs.rate = &rate;
    for (const char* spec : {"auto", "karras-profile", "karras?rho=7"}) {
      const auto resolved = resolveSamplingGrid(parseSamplingGridSpec(spec), inputs);
      for (const auto& note : resolved.notes) std::printf("%s: %s\n", spec, note.c_str());
      for (int n : {4, 8, 16}) {
        const auto sigma = buildSamplingGrid(parseSamplingGridSpec(spec), n, inputs);
        std::printf("%s N=%d:", spec, n);
        for (double s : sigma) std::printf(" %.4g", s);
        std::printf("\n");
      }
    }
    if (!writeRate.empty()) {
      const RateProfile dense = rate.asRateProfile(defaults::kSigmaMin, defaults::kSigmaMax);
      Profile out;
      out.kind = "table";
      out.sigma = dense.sigma;
      out.dim = rate.dim;
      out.sigmaData = rate.sigmaData;
      MmseEstimate e;
      e.name = "sampling_rate";
      e.description = "the sampling rate estimate of THEORY §6 (schedule/sampling_rate.h)";
      e.mean = dense.mmse;
      e.standardError.assign(dense.mmse.size(), 0.0);
      e.ciLow = e.ciHigh = dense.mmse;
      out.estimates = {e};
      out.rates = computeRates(out.sigma, e);
      out.provenance["sampling_rate"] = samplingRateJson(rate);
      writeProfile(writeRate, out);
      const AutoGridChoice c = chooseAutoGrid(rate, defaults::kSigmaMin, defaults::kSigmaMax);
      char spec[512];
      std::snprintf(spec, sizeof spec,
                    "entropic?increment=%s&balance=log-sigma%s&sigma_min=%.10g&sigma_max=80",
                    incrementName(c.increment),
                    c.gateC > 0.0 ? ("&gate_c=" + std::to_string(c.gateC)).c_str() : "",
                    c.sigmaMin);
      const RateProfile back = rateProfileFrom(readProfile(writeRate), writeRate);
      SamplingGridInputs fromFile;
      fromFile.profile = &back;
      double worst = 0.0;
      for (int n : {4, 8, 16, 32}) {
        const auto a = buildSamplingGrid(parseSamplingGridSpec("auto"), n, inputs);
        const auto b = buildSamplingGrid(parseSamplingGridSpec(spec), n, fromFile);
        for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(std::log(a[i] / b[i])));
      }
      std::printf(
          "\nrate written to %s; auto's grid from it: %s&profile=%s\n"
          "largest |log σ| difference from auto at N = 4, 8, 16, 32: %.2g\n",
          writeRate.c_str(), spec, writeRate.c_str(), worst);
      if (worst > 1e-3) return 1;  // the two dense grids differ: 2e-4 in log σ on the DNA bracket
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
