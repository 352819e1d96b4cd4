// bench_sampling_rate PROFILE.json [MORE.json ...]: the sampling rate the profiles give
// (schedule/sampling_rate.h: per level the estimate, its source and why), where it vanishes, and
// the grids `auto`, `karras-profile` and Karras ρ = 7 at N = 4, 8 and 16 (docs/sampling-steps.md,
// "The sampling rate on the sample data"). Measures nothing; prints.
#include <cstdio>
#include <string>
#include <vector>

#include "io/profile_io.h"
#include "schedule/sampling_grid.h"
#include "schedule/sampling_rate.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PROFILE.json [MORE.json ...]\n", argv[0]);
    return 2;
  }
  try {
    std::vector<Profile> files;
    for (int i = 1; i < argc; ++i) files.push_back(readProfile(argv[i]));
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
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
