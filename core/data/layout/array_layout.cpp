#include "data/layout/array_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "data/formats/input_file.h"
#include "util/error.h"
#include "util/number_text.h"

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
void channelsLastToFirst(float* values, int64_t n, int64_t h, int64_t w, int64_t c) {
  const int64_t d = h * w * c;
  std::vector<float> sample(static_cast<size_t>(d));
  for (int64_t i = 0; i < n; ++i) {
    float* data = values + i * d;
    std::copy(data, data + d, sample.begin());
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t k = 0; k < c; ++k) data[(k * h + y) * w + x] = sample[(y * w + x) * c + k];
  }
}

void affineInPlace(float* values, int64_t count, double scale, double offset) {
  for (int64_t i = 0; i < count; ++i) values[i] = static_cast<float>(values[i] * scale + offset);
}

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// The map the scaling rules give values of type `ruleDtype` spanning [lo, hi] on disk (any kind
// but Sequence), for values of type `valueDtype` (the byte table indexes uint8 values only).
void chooseScaling(ArrayLayout& layout, const std::string& ruleDtype, const std::string& valueDtype,
                   double lo, double hi) {
  if (ruleDtype == "uint8") {
    layout.scaling = "[-1,1]";
    if (valueDtype == "uint8")
      layout.byteTable = true;
    else
      layout.affine = true, layout.scale = 1.0 / 127.5, layout.offset = -1.0;
  } else if (layout.kind == SampleKind::Image) {
    layout.scaling = "[-1,1]";
    if (lo >= 0.0 && hi <= 1.0) {
      layout.affine = true, layout.scale = 2.0, layout.offset = -1.0;
    } else if (lo >= -1.0 && hi <= 1.0) {
      // already in the working scaling
    } else if (hi > lo) {
      layout.affine = true;
      layout.scale = 2.0 / (hi - lo);
      layout.offset = -1.0 - 2.0 * lo / (hi - lo);
      layout.notes.push_back("image values in [" + numberText(lo, 6) + ", " + numberText(hi, 6) +
                             "] mapped affinely to [-1, 1]");
    } else {
      layout.zero = true;
      layout.notes.push_back("every image value is " + numberText(lo, 6) + "; mapped to 0");
    }
  }
}

// Refuses values spanning `own` on disk as not on the scale of `reference`, which spans
// [lo, hi]: they reach beyond it by more than 5 % of its width, or span less than half of it.
void checkOnOneScale(const std::string& path, const ArrayValueSummary& own,
                     const std::string& reference, double lo, double hi) {
  const double width = hi - lo;
  const bool beyond = own.lo < lo - 0.05 * width || own.hi > hi + 0.05 * width;
  const bool narrow = own.hi - own.lo < 0.5 * width;
  if (beyond || narrow)
    throw InputError(path, "holds values in [" + formatNumber(own.lo) + ", " +
                               formatNumber(own.hi) + "] on disk and is read on the scale of " +
                               reference + ", which holds values in [" + formatNumber(lo) + ", " +
                               formatNumber(hi) +
                               "]: the two files are not on one scale (bring them to one range "
                               "first)");
}

// The scaling of an array read onto `reference`'s scale (see the header).
void scaleOntoReference(ArrayLayout& layout, const std::string& path, const std::string& dtype,
                        const ArrayValueSummary& summary, const ScaleReference& reference) {
  const bool referenceBytes = reference.dtype == "uint8";
  if (!reference.rangeKnown && !referenceBytes) {
    chooseScaling(layout, dtype, dtype, summary.lo, summary.hi);
    layout.notes.push_back("the value range of " + reference.source +
                           " is not known; scaled by this file's own range");
    return;
  }
  // A uint8 prior streamed without a range scan: its map is the byte table over 0..255.
  const double lo = reference.rangeKnown ? reference.lo : 0.0;
  const double hi = reference.rangeKnown ? reference.hi : 255.0;
  const bool mapFromRange = !referenceBytes && layout.kind == SampleKind::Image;
  if (mapFromRange || (dtype == "uint8") != referenceBytes)
    checkOnOneScale(path, summary, reference.source, lo, hi);
  chooseScaling(layout, reference.dtype, dtype, lo, hi);
  layout.notes.push_back("scaled like " + reference.source + " (values on disk in [" +
                         formatNumber(lo) + ", " + formatNumber(hi) + "])");
}

}  // namespace

void ArrayValueSummary::add(const float* values, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    const float v = values[i];
    if (!std::isfinite(v)) {
      if (firstNonFinite < 0) firstNonFinite = elements + i;
      continue;
    }
    lo = std::min(lo, static_cast<double>(v));
    hi = std::max(hi, static_cast<double>(v));
    zeroOne = zeroOne && (v == 0.0f || v == 1.0f);
    signedOne = signedOne && (v == -1.0f || v == 1.0f);
  }
  elements += count;
}

void checkSampleShape(const std::string& path, const std::vector<int64_t>& shape) {
  if (shape.empty()) throw InputError(path, "holds a single scalar, not a set of samples");
  for (int64_t s : shape)
    if (s <= 0)
      throw InputError(path, "has shape " + formatShape(shape) + " with an empty axis: no samples");
}

ArrayLayout decideArrayLayout(const std::string& path, const std::vector<int64_t>& shape,
                              const std::string& sourceDtype, const ArrayValueSummary& summary,
                              const ScaleReference* scaleLike) {
  checkSampleShape(path, shape);
  // A corrupt file can declare bytes whose type converts to larger values (fuzz: HDF5 "uint8"
  // read as 21 … 964); the byte table must never be indexed by them.
  if (sourceDtype == "uint8" && summary.elements > 0 && (summary.lo < 0.0 || summary.hi > 255.0))
    throw InputError(path, "declares uint8 values but holds " + std::to_string(summary.lo) + " … " +
                               std::to_string(summary.hi) + " (a corrupt type)");
  std::vector<int64_t> rest(shape.begin() + 1, shape.end());
  ArrayLayout layout;
  layout.source = path;
  switch (rest.size()) {
    case 0:
      layout.kind = SampleKind::Points;
      layout.sampleShape = {1};
      break;
    case 1:
      layout.kind = rest[0] <= 3 ? SampleKind::Points : SampleKind::Vector;
      layout.sampleShape = rest;
      break;
    case 2:
      if (rest[1] == 4 && (summary.zeroOne || summary.signedOne)) {
        layout.kind = SampleKind::Sequence;
        layout.sampleShape = rest;
      } else {
        layout.kind = SampleKind::Image;
        layout.sampleShape = {1, rest[0], rest[1]};
      }
      break;
    case 3:
      if (isChannelCount(rest[0])) {
        layout.kind = SampleKind::Image;
        layout.sampleShape = rest;
      } else if (isChannelCount(rest[2])) {
        layout.kind = SampleKind::Image;
        layout.sampleShape = {rest[2], rest[0], rest[1]};
        layout.channelsLastH = rest[0];
        layout.channelsLastW = rest[1];
        layout.channelsLastC = rest[2];
        layout.notes.push_back("channels-last array " + formatShape(shape) +
                               " transposed to channels-first");
      } else {
        layout.kind = SampleKind::Vector;
        layout.sampleShape = {rest[0] * rest[1] * rest[2]};
        layout.notes.push_back("sample shape " + formatShape(rest) +
                               " is not an image layout; samples flattened to vectors");
      }
      break;
    default: {
      int64_t d = 1;
      for (int64_t s : rest) d *= s;
      layout.kind = SampleKind::Vector;
      layout.sampleShape = {d};
      layout.notes.push_back("sample shape " + formatShape(rest) + " flattened to vectors");
    }
  }

  if (summary.firstNonFinite >= 0) {
    int64_t d = 1;
    for (int64_t s : layout.sampleShape) d *= s;
    throw InputError(path, "holds a non-finite value (NaN or infinity) in sample " +
                               std::to_string(summary.firstNonFinite / std::max<int64_t>(1, d)));
  }
  if (layout.kind == SampleKind::Sequence) {
    // Chosen only for one-hot values (see above), whatever the element type: a uint8 one-hot
    // array is not pixel intensity, so it never takes the byte table. {0, 1} becomes ±1,
    // {−1, +1} stays.
    if (summary.lo == 0.0) layout.affine = true, layout.scale = 2.0, layout.offset = -1.0;
    layout.scaling = "one-hot ±1";
  } else if (scaleLike && scaleLike->kind == layout.kind) {
    scaleOntoReference(layout, path, sourceDtype, summary, *scaleLike);
  } else {
    chooseScaling(layout, sourceDtype, sourceDtype, summary.lo, summary.hi);
  }
  return layout;
}

void applyArrayLayout(const ArrayLayout& layout, float* rows, int64_t count) {
  int64_t d = 1;
  for (int64_t s : layout.sampleShape) d *= s;
  if (layout.channelsLastC > 0)
    channelsLastToFirst(rows, count, layout.channelsLastH, layout.channelsLastW,
                        layout.channelsLastC);
  const int64_t n = count * d;
  if (layout.byteTable) {
    const float* table = byteToSymmetricTable();
    for (int64_t i = 0; i < n; ++i) {
      const float v = rows[i];
      // Streamed rows were not scanned first: the same check as decideArrayLayout's, per value.
      if (!(v >= 0.0f && v <= 255.0f))
        throw InputError(layout.source, "declares uint8 values but holds " + std::to_string(v) +
                                            " (a corrupt type)");
      rows[i] = table[static_cast<int>(v)];
    }
  } else if (layout.zero) {
    std::fill(rows, rows + n, 0.0f);
  } else if (layout.affine) {
    affineInPlace(rows, n, layout.scale, layout.offset);
  }
}

void describeArrayDataset(Dataset& dataset, const ArrayLayout& layout,
                          const std::string& sourceDtype, const ArrayValueSummary& summary) {
  dataset.sourceDtype = sourceDtype;
  dataset.kind = layout.kind;
  dataset.sampleShape = layout.sampleShape;
  dataset.scaling = layout.scaling;
  dataset.notes.insert(dataset.notes.end(), layout.notes.begin(), layout.notes.end());
  dataset.sourceRangeKnown = true;
  dataset.sourceMin = summary.lo;
  dataset.sourceMax = summary.hi;
}

void markRangeUnscanned(Dataset& dataset) {
  dataset.sourceRangeKnown = false;
  dataset.sourceMin = dataset.sourceMax = 0.0;
  dataset.notes.push_back("uint8 values streamed without a range scan (scaled by v/127.5 − 1)");
}

void finishArrayDataset(Dataset& dataset, const std::string& path,
                        const std::vector<int64_t>& shape, const std::string& sourceDtype,
                        std::vector<float>&& values, const ScaleReference* scaleLike) {
  ArrayValueSummary summary;
  summary.add(values.data(), static_cast<int64_t>(values.size()));
  const ArrayLayout layout = decideArrayLayout(path, shape, sourceDtype, summary, scaleLike);
  applyArrayLayout(layout, values.data(), shape.empty() ? 0 : shape[0]);
  describeArrayDataset(dataset, layout, sourceDtype, summary);
  dataset.values = std::move(values);
}

}  // namespace noisescope::data_detail
