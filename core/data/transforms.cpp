#include "data/transforms.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"
#include "util/number_text.h"
#include "util/seeded_split.h"

namespace noisescope {

Dataset scaleToSymmetricUnit(const Dataset& dataset) {
  Dataset out = dataset;
  if (dataset.scaling == "[-1,1]" || dataset.scaling == "{-1,+1}" ||
      dataset.scaling == "one-hot ±1")
    return out;  // already within [−1, 1]
  double lo, hi;
  if (dataset.sourceDtype == "uint8" && dataset.scaling == "raw") {
    lo = 0.0;
    hi = 255.0;
  } else {
    lo = INFINITY;
    hi = -INFINITY;
    for (float v : dataset.values) {
      lo = std::min(lo, static_cast<double>(v));
      hi = std::max(hi, static_cast<double>(v));
    }
  }
  if (hi > lo) {
    const double scale = 2.0 / (hi - lo), offset = -1.0 - lo * scale;
    for (float& v : out.values) v = static_cast<float>(v * scale + offset);
  } else {
    std::fill(out.values.begin(), out.values.end(), 0.0f);
  }
  out.scaling = "[-1,1]";
  out.transforms.push_back("scaled [" + numberText(lo, 6) + ", " + numberText(hi, 6) +
                           "] to [-1, 1]");
  return out;
}

Dataset binarize(const Dataset& dataset, float threshold) {
  Dataset out = scaleToSymmetricUnit(dataset);
  for (float& v : out.values) v = v > threshold ? 1.0f : -1.0f;
  out.scaling = "{-1,+1}";
  out.transforms.push_back("binarized at " + numberText(threshold, 6));
  return out;
}

Dataset recognisePlusMinusOne(Dataset dataset) {
  if (dataset.scaling != "[-1,1]" || dataset.values.empty()) return dataset;
  bool sawMinus = false, sawPlus = false;
  for (float v : dataset.values) {
    if (v == 1.0f)
      sawPlus = true;
    else if (v == -1.0f)
      sawMinus = true;
    else
      return dataset;
  }
  // One value only is a constant set, not binary data.
  if (!(sawMinus && sawPlus)) return dataset;
  dataset.scaling = "{-1,+1}";
  dataset.transforms.push_back("every value is -1 or +1: read as binary (±1) data");
  return dataset;
}

Dataset randomSubset(const Dataset& dataset, int64_t n, uint64_t seed) {
  if (n < 1) throw InputError("subset size", "must be at least 1 (got " + std::to_string(n) + ")");
  std::vector<int64_t> rows = seededPermutation(dataset.size(), seed);
  if (n < dataset.size()) rows.resize(static_cast<size_t>(n));
  Dataset out = selectRows(dataset, rows);
  out.transforms.push_back("random subset of " + std::to_string(rows.size()) + " from " +
                           std::to_string(dataset.size()) + " (seed " + std::to_string(seed) + ")");
  return out;
}

std::pair<Dataset, Dataset> trainTestSplit(const Dataset& dataset, double testFraction,
                                           uint64_t seed) {
  if (!(testFraction > 0.0 && testFraction < 1.0))
    throw InputError("test fraction",
                     "must lie strictly between 0 and 1 (got " + numberText(testFraction, 6) + ")");
  const int64_t n = dataset.size();
  if (n < 2) throw InputError(dataset.source, "has fewer than 2 samples; cannot split it");
  const RowSplit rows = seededSplit(n, heldOutCount(n, testFraction, "test fraction"), seed);
  Dataset train = selectRows(dataset, rows.kept), test = selectRows(dataset, rows.held);
  const std::string what =
      "split " + numberText(testFraction, 6) + " test (seed " + std::to_string(seed) + "): ";
  train.split = "train";
  test.split = "test";
  train.transforms.push_back(what + "train part, " + std::to_string(train.size()) + " samples");
  test.transforms.push_back(what + "test part, " + std::to_string(test.size()) + " samples");
  return {std::move(train), std::move(test)};
}

}  // namespace noisescope
