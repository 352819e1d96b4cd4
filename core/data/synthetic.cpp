#include "data/synthetic.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "data/formats/input_file.h"
#include "util/error.h"
#include "util/number_text.h"
#include "util/random_source.h"
#include "util/spec_string.h"

namespace noisescope {

using namespace data_detail;

namespace {

constexpr const char* kPrefix = "synthetic:";
const char* const kKinds[] = {"dirac-mixture", "gaussian",   "circle",
                              "two-moons",     "swiss-roll", "hypercube"};
constexpr int64_t kMaxCount = 100'000'000;
constexpr int64_t kMaxDimension = 10'000'000;

bool isKnownKind(const std::string& kind) {
  for (const char* k : kKinds)
    if (kind == k) return true;
  return false;
}

std::string kindList() {
  std::string text;
  for (const char* k : kKinds) text += std::string(text.empty() ? "" : ", ") + k;
  return text;
}

bool isPlanar(const std::string& kind) {
  return kind == "circle" || kind == "two-moons" || kind == "swiss-roll";
}

void validate(const SyntheticSpec& spec, const std::string& source) {
  if (!isKnownKind(spec.kind))
    throw InputError(source, "unknown synthetic kind '" + spec.kind + "'; known: " + kindList());
  if (spec.count < 1 || spec.count > kMaxCount)
    throw InputError(source, "n must be between 1 and " + std::to_string(kMaxCount));
  if (spec.dimension < 1 || spec.dimension > kMaxDimension)
    throw InputError(source, "d must be between 1 and " + std::to_string(kMaxDimension));
  if (isPlanar(spec.kind) && spec.dimension != 2)
    throw InputError(source, spec.kind + " is a 2-D set; d must be 2");
  if (spec.components < 1 || spec.components > kMaxCount)
    throw InputError(source, "k must be between 1 and " + std::to_string(kMaxCount));
  if (!(spec.scale > 0.0) || !std::isfinite(spec.scale))
    throw InputError(source, "scale must be a positive number");
  if (!(spec.noise >= 0.0) || !std::isfinite(spec.noise))
    throw InputError(source, "noise must be a non-negative number");
  checkAllocation(source, static_cast<uint64_t>(spec.count) * spec.dimension * sizeof(float),
                  "the synthetic set");
  // The mixture's atoms are held in double too (k·d of them).
  if (spec.kind == "dirac-mixture")
    checkAllocation(source,
                    static_cast<uint64_t>(spec.components) * spec.dimension * sizeof(double),
                    "the mixture's atoms");
}

// The seed is unsigned 64-bit, beyond specInteger's int64 range.
uint64_t parseSeed(const std::string& source, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno == ERANGE)
    throw InputError(source, "seed=" + text + " is not a non-negative integer");
  return value;
}

}  // namespace

Dataset makeSynthetic(const SyntheticSpec& spec) {
  const std::string source = formatSyntheticSpec(spec);
  validate(spec, source);
  RandomSource random(spec.seed);
  const int64_t n = spec.count, d = spec.dimension;

  Dataset dataset;
  dataset.name = spec.kind;
  dataset.source = source;
  dataset.sourceDtype = "synthetic";
  dataset.kind = d <= 3 ? SampleKind::Points : SampleKind::Vector;
  dataset.sampleShape = {d};
  dataset.values.resize(static_cast<size_t>(n * d));
  auto at = [&](int64_t i, int64_t j) -> float& { return dataset.values[i * d + j]; };

  if (spec.kind == "dirac-mixture") {
    // K atoms drawn uniformly in [−scale, scale]^d; each sample is one of them (label = atom).
    std::vector<double> atoms(static_cast<size_t>(spec.components * d));
    for (double& a : atoms) a = spec.scale * (2.0 * random.uniform() - 1.0);
    dataset.labels.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = static_cast<int64_t>(random.below(spec.components));
      dataset.labels[i] = static_cast<int32_t>(k);
      for (int64_t j = 0; j < d; ++j) at(i, j) = static_cast<float>(atoms[k * d + j]);
    }
  } else if (spec.kind == "gaussian") {
    for (float& v : dataset.values) v = static_cast<float>(spec.scale * random.normal());
  } else if (spec.kind == "circle") {
    for (int64_t i = 0; i < n; ++i) {
      const double angle = 2.0 * M_PI * random.uniform();
      at(i, 0) = static_cast<float>(spec.scale * std::cos(angle));
      at(i, 1) = static_cast<float>(spec.scale * std::sin(angle));
    }
  } else if (spec.kind == "two-moons") {
    // Alternating upper and lower moon (labels 0 and 1), centred on the origin.
    dataset.labels.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      const double t = M_PI * random.uniform();
      const bool lower = i % 2 == 1;
      const double x = lower ? 1.0 - std::cos(t) : std::cos(t);
      const double y = lower ? 0.5 - std::sin(t) : std::sin(t);
      at(i, 0) = static_cast<float>(spec.scale * (x - 0.5));
      at(i, 1) = static_cast<float>(spec.scale * (y - 0.25));
      dataset.labels[i] = lower ? 1 : 0;
    }
  } else if (spec.kind == "swiss-roll") {
    // The planar spiral r = t, t ∈ [1.5π, 4.5π], shrunk so that it fits in the unit disc.
    for (int64_t i = 0; i < n; ++i) {
      const double t = 1.5 * M_PI * (1.0 + 2.0 * random.uniform());
      at(i, 0) = static_cast<float>(spec.scale * t * std::cos(t) / (4.5 * M_PI));
      at(i, 1) = static_cast<float>(spec.scale * t * std::sin(t) / (4.5 * M_PI));
    }
  } else {  // hypercube
    for (float& v : dataset.values)
      v = static_cast<float>(random.uniform() < 0.5 ? -spec.scale : spec.scale);
  }

  if (spec.noise > 0.0)
    for (float& v : dataset.values) v = static_cast<float>(v + spec.noise * random.normal());
  dataset.scaling =
      spec.kind == "hypercube" && spec.scale == 1.0 && spec.noise == 0.0 ? "{-1,+1}" : "raw";
  dataset.sourceRangeKnown = false;
  dataset.validate();
  return dataset;
}

SyntheticSpec parseSyntheticSpec(const std::string& text) {
  const std::string prefix = kPrefix;
  if (text.compare(0, prefix.size(), prefix) != 0)
    throw InputError(text, "is not a synthetic spec (expected synthetic:KIND?key=value&…)");
  const SpecString parsed = parseSpecString(text);  // key=value syntax, keys given once
  SyntheticSpec spec;
  spec.kind = parsed.head.substr(prefix.size());
  if (!isKnownKind(spec.kind))
    throw InputError(text, "unknown synthetic kind '" + spec.kind + "'; known: " + kindList());
  // Ranges are checked by validate() below, with messages that name the setting.
  constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
  for (const auto& [key, value] : parsed.pairs) {
    if (key == "n")
      spec.count = specInteger(text, key, value, -kAny, kAny);
    else if (key == "d")
      spec.dimension = specInteger(text, key, value, -kAny, kAny);
    else if (key == "k")
      spec.components = specInteger(text, key, value, -kAny, kAny);
    else if (key == "scale")
      spec.scale = specNumber(text, key, value);
    else if (key == "noise")
      spec.noise = specNumber(text, key, value);
    else if (key == "seed")
      spec.seed = parseSeed(text, value);
    else
      throw InputError(text, "unknown key '" + key + "'; known: n, d, k, scale, noise, seed");
  }
  validate(spec, text);
  return spec;
}

std::string formatSyntheticSpec(const SyntheticSpec& spec) {
  std::string text = kPrefix + spec.kind + "?n=" + std::to_string(spec.count) +
                     "&d=" + std::to_string(spec.dimension);
  if (spec.kind == "dirac-mixture") text += "&k=" + std::to_string(spec.components);
  text += "&scale=" + shortestNumberText(spec.scale) + "&noise=" + shortestNumberText(spec.noise) +
          "&seed=" + std::to_string(spec.seed);
  return text;
}

}  // namespace noisescope
