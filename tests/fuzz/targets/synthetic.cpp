// A "synthetic:KIND?key=value" spec: parsed, written back and parsed again (the two specs must
// agree), and, when the set is small, generated.
#include <string>

#include "data/synthetic.h"
#include "targets.h"

namespace noisescope::fuzz {

namespace {
// k means something only for the Dirac mixture, and only there is it written back.
bool same(const SyntheticSpec& a, const SyntheticSpec& b) {
  return a.kind == b.kind && a.count == b.count && a.dimension == b.dimension &&
         (a.kind != "dirac-mixture" || a.components == b.components) && a.scale == b.scale &&
         a.noise == b.noise && a.seed == b.seed;
}
}  // namespace

Outcome synthetic(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  SyntheticSpec spec;
  const Outcome outcome = acceptOrReject([&] { spec = parseSyntheticSpec(text); });
  if (outcome == Outcome::Rejected) return outcome;
  const std::string written = formatSyntheticSpec(spec);
  SyntheticSpec again;
  if (acceptOrReject([&] { again = parseSyntheticSpec(written); }) == Outcome::Rejected ||
      !same(spec, again))
    fail("'" + text + "' parses, but its written form '" + written + "' does not read back");
  // Generation costs n·d (and k·d for the atoms): only small sets, to keep executions fast.
  if (spec.count * spec.dimension <= (1 << 16) && spec.components * spec.dimension <= (1 << 16))
    makeSynthetic(spec);
  return outcome;
}

}  // namespace noisescope::fuzz
