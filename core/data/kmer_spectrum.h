#pragma once
// The k-mer spectrum distance between two sets of DNA windows (THEORY §11): each window is read as
// bases by taking the argmax over its four channels at every position (so generated, continuous
// samples and one-hot data are read alike), the k-mers inside each window are counted (none spans
// two windows), and the two frequency spectra are compared by the Jensen–Shannon divergence in
// bits (0 = same spectrum, 1 = disjoint). Positions whose four channels are all ≤ −1 (an unknown
// base kept as all-negative) break the k-mers through them.
#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace noisescope {

struct KmerDistance {
  std::vector<double> jsBits;  // jsBits[k − 1] for k = 1 … kMax
  double mean = 0.0;           // the average over k, the one-number summary
};

// Base index 0–3 (A, C, G, T) per position of every window, −1 for an unknown position.
// Throws InputError when the dataset is not shaped {L, 4}.
std::vector<int8_t> argmaxBases(const Dataset& windows);

// k-mer counts of one dataset, 4^k entries (the k-mer's bases read as a base-4 number).
std::vector<double> kmerCounts(const Dataset& windows, int k);

// Jensen–Shannon divergence in bits between two count vectors of equal size (each normalised to a
// distribution; an all-zero vector throws InputError naming `what`).
double jensenShannonBits(const std::vector<double>& p, const std::vector<double>& q,
                         const char* what = "k-mer spectrum");

// JS over k = 1 … kMax (kMax in 1 … 8). Throws InputError for shapes that differ in the channel
// count or are not DNA.
KmerDistance kmerSpectrumDistance(const Dataset& a, const Dataset& b, int kMax = 6);

}  // namespace noisescope
