#pragma once
// A dataset as the rest of the program sees it: N samples of D floats each, stored row-major,
// with the per-sample shape that says how to draw one, optional labels, and where it came from.
#include <cstdint>
#include <string>
#include <vector>

namespace noisescope {

// A sample shape as people write it: "1×28×28".
std::string sampleShapeText(const std::vector<int64_t>& shape);

// How one sample should be looked at.
enum class SampleKind {
  Image,     // shape {C, H, W}, C = 1 (grey) or 3 (RGB)
  Sequence,  // one-hot DNA, shape {L, 4} in the base order A, C, G, T
  Points,    // low-dimensional vectors (2-D sets are drawn as a scatter plot), shape {d}
  Vector,    // anything else, shape {D}
};

const char* toString(SampleKind kind);

struct Dataset {
  std::string name;           // short display name, e.g. "train-images-idx3-ubyte"
  std::string source;         // the file, folder or synthetic spec it was read from
  std::string split = "all";  // "train", "test" or "all"
  std::string sourceDtype;    // the element type on disk: "uint8", "float32", "float64", "dna", ...
  std::string scaling = "raw";  // what the values mean: "raw", "[-1,1]", "{-1,+1}", "one-hot ±1"
  SampleKind kind = SampleKind::Vector;
  std::vector<int64_t> sampleShape;  // product equals dim()
  std::vector<float> values;         // size() * dim() floats, sample-major
  std::vector<int32_t> labels;       // empty, or one per sample

  // Provenance beyond the name. Readers hand out values already in the program's working scaling
  // (THEORY §1: images in [−1, 1], DNA one-hot ±1), because every later step works in it; what the
  // file itself held is kept here so that `info` and exports can say it.
  bool sourceRangeKnown = false;   // true when sourceMin/sourceMax describe the values on disk
  double sourceMin = 0.0;          // smallest value in the file before scaling (uint8: e.g. 0)
  double sourceMax = 0.0;          // largest value in the file before scaling (uint8: e.g. 255)
  std::string labelsSource;        // the file the labels came from, when not `source` itself
  std::vector<std::string> notes;  // things the reader decided that the user should know
  std::vector<std::string> transforms;  // what was done after reading, in order ("subset n=…")
  // Read from a trainer's latent cache (data/formats/latent_spaces.h). latentsFor is the
  // "TOOL:MODEL" whose noise scale the values were put on, "" when they are as cached;
  // latentTransform says what that took ("(z − 0.1159) · 0.3611", or none and why).
  bool latentCache = false;
  std::string latentsFor;
  std::string latentTransform;

  int64_t size() const;  // N
  int64_t dim() const;   // D = product of sampleShape
  const float* sample(int64_t i) const { return values.data() + i * dim(); }
  float* sample(int64_t i) { return values.data() + i * dim(); }
  bool hasLabels() const { return !labels.empty(); }
  std::string shapeString() const;  // "1×28×28"
  // What messages and provenance call the dataset: the file it came from, or its name when it
  // came from no file (a synthetic set, one built in memory).
  std::string sourceOrName() const;

  // Throws std::logic_error when the fields disagree (values not N×D, labels not N). Readers call
  // it before returning so that no half-built dataset ever leaves them.
  void validate() const;
};

// A dataset holding the given rows of another (same shape, labels and provenance).
Dataset selectRows(const Dataset& dataset, const std::vector<int64_t>& rows);

}  // namespace noisescope
