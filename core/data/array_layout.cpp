#include "data/array_layout.h"

#include <algorithm>
#include <cmath>

#include "data/input_file.h"
#include "util/error.h"

namespace noisescope::data_detail {

std::string formatShape(const std::vector<int64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1) text += ",";
  return text + ")";
}

namespace {

bool isChannelCount(int64_t c) {
  return c == 1 || c == 3;
}

// [N, H, W, C] → [N, C, H, W], one sample at a time so only one sample's worth of extra memory.
void channelsLastToFirst(std::vector<float>& values, int64_t n, int64_t h, int64_t w, int64_t c) {
  const int64_t d = h * w * c;
  std::vector<float> sample(static_cast<size_t>(d));
  for (int64_t i = 0; i < n; ++i) {
    float* data = values.data() + i * d;
    std::copy(data, data + d, sample.begin());
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t k = 0; k < c; ++k) data[(k * h + y) * w + x] = sample[(y * w + x) * c + k];
  }
}

// {0, 1} or {−1, +1} throughout: how one-hot DNA is stored.
bool isOneHotLike(const std::vector<float>& values) {
  return std::all_of(values.begin(), values.end(),
                     [](float v) { return v == 0.0f || v == 1.0f; }) ||
         std::all_of(values.begin(), values.end(), [](float v) { return v == -1.0f || v == 1.0f; });
}

void affine(std::vector<float>& values, double scale, double offset) {
  for (float& v : values) v = static_cast<float>(v * scale + offset);
}

}  // namespace

void finishArrayDataset(Dataset& dataset, const std::string& path,
                        const std::vector<int64_t>& shape, const std::string& sourceDtype,
                        std::vector<float>&& values) {
  if (shape.empty()) throw InputError(path, "holds a single scalar, not a set of samples");
  for (int64_t s : shape)
    if (s <= 0)
      throw InputError(path, "has shape " + formatShape(shape) + " with an empty axis: no samples");
  const int64_t n = shape[0];
  std::vector<int64_t> rest(shape.begin() + 1, shape.end());

  dataset.sourceDtype = sourceDtype;
  switch (rest.size()) {
    case 0:
      dataset.kind = SampleKind::Points;
      dataset.sampleShape = {1};
      break;
    case 1:
      dataset.kind = rest[0] <= 3 ? SampleKind::Points : SampleKind::Vector;
      dataset.sampleShape = rest;
      break;
    case 2:
      if (rest[1] == 4 && isOneHotLike(values)) {
        dataset.kind = SampleKind::Sequence;
        dataset.sampleShape = rest;
      } else {
        dataset.kind = SampleKind::Image;
        dataset.sampleShape = {1, rest[0], rest[1]};
      }
      break;
    case 3:
      if (isChannelCount(rest[0])) {
        dataset.kind = SampleKind::Image;
        dataset.sampleShape = rest;
      } else if (isChannelCount(rest[2])) {
        dataset.kind = SampleKind::Image;
        dataset.sampleShape = {rest[2], rest[0], rest[1]};
        channelsLastToFirst(values, n, rest[0], rest[1], rest[2]);
        dataset.notes.push_back("channels-last array " + formatShape(shape) +
                                " transposed to channels-first");
      } else {
        dataset.kind = SampleKind::Vector;
        int64_t d = rest[0] * rest[1] * rest[2];
        dataset.sampleShape = {d};
        dataset.notes.push_back("sample shape " + formatShape(rest) +
                                " is not an image layout; samples flattened to vectors");
      }
      break;
    default: {
      int64_t d = 1;
      for (int64_t s : rest) d *= s;
      dataset.kind = SampleKind::Vector;
      dataset.sampleShape = {d};
      dataset.notes.push_back("sample shape " + formatShape(rest) + " flattened to vectors");
    }
  }

  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < values.size(); ++i) {
    const float v = values[i];
    if (!std::isfinite(v))
      throw InputError(
          path, "holds a non-finite value (NaN or infinity) in sample " +
                    std::to_string(static_cast<int64_t>(i) / std::max<int64_t>(1, dataset.dim())));
    lo = std::min(lo, static_cast<double>(v));
    hi = std::max(hi, static_cast<double>(v));
  }
  dataset.sourceRangeKnown = true;
  dataset.sourceMin = lo;
  dataset.sourceMax = hi;

  if (sourceDtype == "uint8") {
    const float* table = byteToSymmetricTable();
    for (float& v : values) v = table[static_cast<int>(v)];
    dataset.scaling = "[-1,1]";
  } else if (dataset.kind == SampleKind::Image) {
    dataset.scaling = "[-1,1]";
    if (lo >= 0.0 && hi <= 1.0) {
      affine(values, 2.0, -1.0);
    } else if (lo >= -1.0 && hi <= 1.0) {
      // already in the working scaling
    } else if (hi > lo) {
      affine(values, 2.0 / (hi - lo), -1.0 - 2.0 * lo / (hi - lo));
      dataset.notes.push_back("image values in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                              "] mapped affinely to [-1, 1]");
    } else {
      std::fill(values.begin(), values.end(), 0.0f);
      dataset.notes.push_back("every image value is " + std::to_string(lo) + "; mapped to 0");
    }
  } else if (dataset.kind == SampleKind::Sequence) {
    // Chosen only for one-hot values (see above): {0, 1} becomes ±1, {−1, +1} stays.
    if (lo == 0.0) affine(values, 2.0, -1.0);
    dataset.scaling = "one-hot ±1";
  } else {
    dataset.scaling = "raw";
  }
  dataset.values = std::move(values);
}

}  // namespace noisescope::data_detail
