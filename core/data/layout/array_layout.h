#pragma once
// Internal to noisescope_data: used by its readers and white-box tests, not part of its API.
// Shared by the readers of generic arrays (.npy, HDF5): how an array [N, ...] becomes samples,
// and how its values are brought into the program's scaling.
//
// Layout (the first axis is always N):
//   [N]            → Points, shape {1}
//   [N, d]         → Points when d ≤ 3, else Vector
//   [N, L, 4]      → Sequence (one-hot DNA, bases A, C, G, T) when the values are {0, 1} or
//                    {−1, +1} throughout; otherwise a grey image like any [N, H, W]
//   [N, H, W]      → grey Image 1×H×W
//   [N, C, H, W]   → Image when C ∈ {1, 3}; [N, H, W, C] with C ∈ {1, 3} is transposed to C×H×W
//   anything else  → Vector of the flattened sample (with a note)
// Scaling:
//   Sequences of {0, 1}    → 2v − 1 ("one-hot ±1"), uint8 too; of {−1, +1} unchanged
//   other uint8 data       → v/127.5 − 1, scaling "[-1,1]" (0..255 is read as pixel intensity)
//   other Images           → within [0, 1]: 2v − 1; within [−1, 1]: unchanged; else the observed
//                            min/max mapped affinely to [−1, 1]
//   other Points / Vectors → raw
// Read onto a reference's scale (data/layout/scale_reference.h: another file of the same data, same
// kind), an array takes the map the rules above give the reference's dtype and range instead of
// its own, so a test split is mapped exactly like its prior (Sequences keep theirs: both are ±1).
// Where that map was chosen from the reference's range (float Images) or the dtypes differ, the
// array is refused (InputError naming both ranges) when its values reach beyond the reference's
// range by more than 5 % of its width, or span less than half of it: then the two files are not
// on one scale.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/layout/scale_reference.h"

namespace noisescope::data_detail {

// What the values of an array look like overall: the facts the scaling rules above decide on.
// Summaries of parts merge, so a reader that streams the array can build one tile by tile.
struct ArrayValueSummary {
  double lo = INFINITY, hi = -INFINITY;
  bool zeroOne = true;          // every value is 0 or 1
  bool signedOne = true;        // every value is −1 or +1
  int64_t firstNonFinite = -1;  // element index of the first NaN / infinity, −1 if none
  int64_t elements = 0;
  void add(const float* values, int64_t count);  // the next `count` elements, in order
};

// The decision of the rules above for one array: how a sample of it is laid out and how its
// values map to the working scaling. Applying it to rows is separate, so an array streamed from
// disk is scaled exactly like one read whole.
struct ArrayLayout {
  SampleKind kind = SampleKind::Vector;
  std::vector<int64_t> sampleShape;
  int64_t channelsLastH = 0, channelsLastW = 0, channelsLastC = 0;  // > 0: transpose [H,W,C]
  bool byteTable = false;  // uint8: the v/127.5 − 1 table
  bool affine = false;     // v·scale + offset
  double scale = 1.0, offset = 0.0;
  bool zero = false;  // a constant image: every value becomes 0
  std::string scaling = "raw";
  std::vector<std::string> notes;
  std::string source;  // the file (and dataset) it was decided for: errors name it
};

// Throws InputError (naming `path`) for a scalar or a shape with an empty axis. Streamed readers
// call it before they size rows from the shape.
void checkSampleShape(const std::string& path, const std::vector<int64_t>& shape);

// Throws InputError (naming `path`) for a shape with no samples or a non-finite value, or for
// values that cannot be on `scaleLike`'s scale (null: the array's own rules).
ArrayLayout decideArrayLayout(const std::string& path, const std::vector<int64_t>& shape,
                              const std::string& sourceDtype, const ArrayValueSummary& summary,
                              const ScaleReference* scaleLike = nullptr);

// Rows of the array as read (float, row-major, `count` samples) into the working layout and
// scaling, in place.
void applyArrayLayout(const ArrayLayout& layout, float* rows, int64_t count);

// Kind, shape, scaling, range and notes of `dataset` from the layout and the summary.
void describeArrayDataset(Dataset& dataset, const ArrayLayout& layout,
                          const std::string& sourceDtype, const ArrayValueSummary& summary);

// A uint8 array streamed without a summary pass (its scaling is a fixed table): its range on
// disk is not known, and the dataset says so.
void markRangeUnscanned(Dataset& dataset);

// Fills kind, sampleShape, scaling, source range and notes of `dataset` from the array's full
// shape and its values (row-major, already converted to float; moved into the dataset).
// `sourceDtype` is the element type on disk. Throws InputError (naming `path`) for a shape with
// no samples or non-finite values.
void finishArrayDataset(Dataset& dataset, const std::string& path,
                        const std::vector<int64_t>& shape, const std::string& sourceDtype,
                        std::vector<float>&& values, const ScaleReference* scaleLike = nullptr);

std::string formatShape(const std::vector<int64_t>& shape);  // "(60000, 28, 28)"

}  // namespace noisescope::data_detail
