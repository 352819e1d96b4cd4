#include "data/kmer_spectrum.h"

#include <cmath>
#include <string>

#include "util/error.h"

namespace noisescope {
namespace {

void requireDna(const Dataset& d) {
  if (d.sampleShape.size() != 2 || d.sampleShape[1] != 4)
    throw InputError(d.sourceOrName(),
                     "the k-mer spectrum needs DNA windows shaped L×4, got " + d.shapeString());
}

}  // namespace

std::vector<int8_t> argmaxBases(const Dataset& windows) {
  requireDna(windows);
  const int64_t positions = windows.size() * windows.sampleShape[0];
  std::vector<int8_t> bases(size_t(positions), -1);
  const float* v = windows.values.data();
  for (int64_t p = 0; p < positions; ++p) {
    const float* c = v + 4 * p;
    int best = 0;
    for (int j = 1; j < 4; ++j)
      if (c[j] > c[best]) best = j;
    if (c[best] > -1.0f) bases[size_t(p)] = int8_t(best);
  }
  return bases;
}

std::vector<double> kmerCounts(const Dataset& windows, int k) {
  if (k < 1 || k > 8)
    throw InputError("k-mer spectrum", "k must be in 1…8, got " + std::to_string(k));
  const auto bases = argmaxBases(windows);
  const int64_t length = windows.sampleShape[0];
  const uint32_t mask = (1u << (2 * k)) - 1u;
  std::vector<double> counts(size_t(1) << (2 * k), 0.0);
  for (int64_t w = 0; w < windows.size(); ++w) {
    uint32_t code = 0;
    int run = 0;  // known bases ending at the current position
    for (int64_t i = 0; i < length; ++i) {
      const int8_t b = bases[size_t(w * length + i)];
      if (b < 0) {
        run = 0;
        code = 0;
        continue;
      }
      code = ((code << 2) | uint32_t(b)) & mask;
      if (++run >= k) counts[code] += 1.0;
    }
  }
  return counts;
}

double jensenShannonBits(const std::vector<double>& p, const std::vector<double>& q,
                         const char* what) {
  if (p.size() != q.size()) throw InputError(what, "spectra of different sizes cannot be compared");
  double sp = 0, sq = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    sp += p[i];
    sq += q[i];
  }
  if (sp <= 0 || sq <= 0) throw InputError(what, "one of the spectra has no counts");
  // JS = ½ KL(P‖M) + ½ KL(Q‖M), M = ½(P + Q); terms with a zero probability contribute 0.
  double js = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double a = p[i] / sp, b = q[i] / sq, m = 0.5 * (a + b);
    if (a > 0) js += 0.5 * a * std::log2(a / m);
    if (b > 0) js += 0.5 * b * std::log2(b / m);
  }
  return js < 0 ? 0.0 : (js > 1 ? 1.0 : js);
}

KmerDistance kmerSpectrumDistance(const Dataset& a, const Dataset& b, int kMax) {
  requireDna(a);
  requireDna(b);
  if (kMax < 1 || kMax > 8)
    throw InputError("k-mer spectrum", "k_max must be in 1…8, got " + std::to_string(kMax));
  KmerDistance r;
  for (int k = 1; k <= kMax; ++k)
    r.jsBits.push_back(jensenShannonBits(kmerCounts(a, k), kmerCounts(b, k)));
  double sum = 0;
  for (double js : r.jsBits) sum += js;
  r.mean = sum / double(kMax);
  return r;
}

}  // namespace noisescope
