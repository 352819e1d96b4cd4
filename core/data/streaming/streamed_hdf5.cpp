#include "data/streaming/streamed_hdf5.h"

#include <algorithm>
#include <vector>

#include "data/formats/input_file.h"
#include "data/layout/array_layout.h"
#include "data/layout/hdf5_array.h"

namespace noisescope::data_detail {

namespace {

constexpr int64_t kSummaryBytes = int64_t{4} << 20;

// One hyperslab per tile; the scaling is decided once from a summary pass over the dataset.
class Hdf5Prior final : public PriorRows {
 public:
  Hdf5Prior(const std::string& path, const std::string& datasetPath, const Progress& progress)
      : array_(path, datasetPath) {
    const int64_t n = array_.shape()[0];
    const int64_t row = static_cast<int64_t>(array_.rowElements());
    const int64_t step = std::max<int64_t>(1, kSummaryBytes / std::max<int64_t>(1, row * 4));
    // uint8 is scaled by a fixed table; only an [N, L, 4] array needs its values looked at.
    const bool scan = array_.dtype() != "uint8" || array_.shape().size() == 3;
    ArrayValueSummary summary;
    std::vector<float> buffer;
    for (int64_t r = 0; scan && r < n; r += step) {
      progress.throwIfCancelled();
      const int64_t rows = std::min(step, n - r);
      buffer.resize(static_cast<size_t>(rows * row));
      array_.readRows(r, rows, buffer.data());
      summary.add(buffer.data(), static_cast<int64_t>(buffer.size()));
      progress.report(static_cast<double>(r + rows) / static_cast<double>(n), "scanning HDF5");
    }
    layout_ = decideArrayLayout(array_.where(), array_.shape(), array_.dtype(), summary);
    description_.name = displayName(path) + array_.datasetPath();
    description_.source = path;
    if (array_.split() != "all") description_.split = array_.split();
    describeArrayDataset(description_, layout_, array_.dtype(), summary);
    if (!scan) markRangeUnscanned(description_);
    description_.notes.push_back("HDF5 dataset " + array_.datasetPath());
    size_ = n;
    dim_ = row;
  }
  void read(int64_t first, int64_t count, float* out) override {
    array_.readRows(first, count, out);
    applyArrayLayout(layout_, out, count);
  }
  std::string access() const override { return "HDF5 hyperslabs"; }

 private:
  Hdf5Array array_;
  ArrayLayout layout_;
};

}  // namespace

bool streamedHdf5Available() {
  return true;
}

std::unique_ptr<PriorRows> openStreamedHdf5(const std::string& path, const std::string& datasetPath,
                                            const Progress& progress) {
  return std::make_unique<Hdf5Prior>(path, datasetPath, progress);
}

}  // namespace noisescope::data_detail
