#include "data/streaming/prior_rows.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "data/formats/gzip_input.h"
#include "data/formats/input_file.h"
#include "data/layout/array_layout.h"
#include "data/layout/cifar_array.h"
#include "data/layout/idx_array.h"
#include "data/layout/npy_array.h"
#include "data/streaming/streamed_hdf5.h"
#include "util/error.h"

namespace noisescope {

using namespace data_detail;

namespace {

// Rows read per step of a summary pass (bounded memory whatever N is).
constexpr int64_t kSummaryBytes = int64_t{4} << 20;

// Everything a Dataset says about itself except its values and labels (no copy of the data).
Dataset withoutValues(const Dataset& d) {
  Dataset out;
  for (std::string Dataset::*text :
       {&Dataset::name, &Dataset::source, &Dataset::split, &Dataset::sourceDtype, &Dataset::scaling,
        &Dataset::labelsSource, &Dataset::latentsFor, &Dataset::latentTransform})
    out.*text = d.*text;
  for (std::vector<std::string> Dataset::*list : {&Dataset::notes, &Dataset::transforms})
    out.*list = d.*list;
  out.kind = d.kind;
  out.latentCache = d.latentCache;
  out.sampleShape = d.sampleShape;
  out.sourceRangeKnown = d.sourceRangeKnown;
  out.sourceMin = d.sourceMin, out.sourceMax = d.sourceMax;
  return out;
}

class ResidentPrior final : public PriorRows {
 public:
  explicit ResidentPrior(const Dataset& dataset) : data_(dataset) {
    description_ = withoutValues(dataset);
    size_ = dataset.size();
    dim_ = dataset.dim();
  }
  const float* resident() const override { return data_.values.data(); }
  void read(int64_t first, int64_t count, float* out) override {
    std::memcpy(out, data_.sample(first), static_cast<size_t>(count * dim_) * sizeof(float));
  }
  std::string access() const override { return "memory"; }

 private:
  const Dataset& data_;
};

class ShardPrior final : public PriorRows {
 public:
  ShardPrior(PriorRows& whole, int64_t first, int64_t count) : whole_(whole), first_(first) {
    description_ = whole.description();
    description_.transforms.push_back("shard rows " + std::to_string(first) + ".." +
                                      std::to_string(first + count - 1) + " of " +
                                      std::to_string(whole.size()));
    size_ = count;
    dim_ = whole.dim();
  }
  const float* resident() const override {
    const float* all = whole_.resident();
    return all ? all + first_ * dim_ : nullptr;
  }
  void read(int64_t first, int64_t count, float* out) override {
    whole_.read(first_ + first, count, out);
  }
  std::string access() const override { return whole_.access() + ", shard"; }

 private:
  PriorRows& whole_;
  int64_t first_;
};

// A .npy file mapped read-only; each tile is decoded from the mapping and its pages handed back
// to the kernel, so the file's pages do not pile up in the process's memory.
class NpyPrior final : public PriorRows {
 public:
  NpyPrior(const std::string& path, const Progress& progress) : path_(path) {
    info_ = readNpyArrayInfo(path);
    checkSampleShape(path, info_.shape);  // before the shape sizes a row
    const uint64_t fileSize = checkedFileSize(path);
    FilePtr file = openForReading(path);
    void* map = ::mmap(nullptr, fileSize, PROT_READ, MAP_PRIVATE, ::fileno(file.get()), 0);
    if (map == MAP_FAILED) throw InputError(path, "cannot be memory-mapped");
    map_ = static_cast<const unsigned char*>(map);
    mapBytes_ = fileSize;
    rowElements_ = info_.elements / static_cast<uint64_t>(info_.shape[0]);
    const int64_t n = info_.shape[0];
    // The summary pass: the scaling rules depend on the values' range. uint8 is scaled by a fixed
    // table and only an [N, L, 4] array needs its values looked at (one-hot DNA or an image).
    ArrayValueSummary summary;
    const bool scan = info_.dtype != "uint8" || info_.shape.size() == 3;
    const int64_t step =
        std::max<int64_t>(1, kSummaryBytes / std::max<int64_t>(1, rowElements_ * 4));
    std::vector<float> buffer;
    for (int64_t r = 0; scan && r < n; r += step) {
      progress.throwIfCancelled();
      const int64_t rows = std::min(step, n - r);
      buffer.resize(static_cast<size_t>(rows) * rowElements_);
      decodeRows(r, rows, buffer.data());
      summary.add(buffer.data(), static_cast<int64_t>(buffer.size()));
      release(r, rows);
      progress.report(static_cast<double>(r + rows) / static_cast<double>(n), "scanning array");
    }
    layout_ = decideArrayLayout(path, info_.shape, info_.dtype, summary);
    description_.name = displayName(path);
    description_.source = path;
    describeArrayDataset(description_, layout_, info_.dtype, summary);
    if (!scan) markRangeUnscanned(description_);
    size_ = n;
    dim_ = static_cast<int64_t>(rowElements_);
  }
  ~NpyPrior() override {
    if (map_) ::munmap(const_cast<unsigned char*>(map_), mapBytes_);
  }
  void read(int64_t first, int64_t count, float* out) override {
    decodeRows(first, count, out);
    release(first, count);
    applyArrayLayout(layout_, out, count);
  }
  std::string access() const override { return "memory-mapped .npy"; }

 private:
  const unsigned char* rowBytes(int64_t row) const {
    return map_ + info_.dataOffset + static_cast<uint64_t>(row) * rowElements_ * info_.elementBytes;
  }
  void decodeRows(int64_t first, int64_t count, float* out) const {
    decodeNpyElements(info_, path_, rowBytes(first), static_cast<size_t>(count) * rowElements_,
                      static_cast<uint64_t>(first) * rowElements_, out);
  }
  // Drops the whole pages under rows [first, first + count) from this process's memory.
  void release(int64_t first, int64_t count) const {
    static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t begin = reinterpret_cast<uintptr_t>(rowBytes(first));
    const uintptr_t end = reinterpret_cast<uintptr_t>(rowBytes(first + count));
    const uintptr_t from = (begin + page - 1) / page * page, to = end / page * page;
    if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
  }

  std::string path_;
  NpyArrayInfo info_;
  ArrayLayout layout_;
  const unsigned char* map_ = nullptr;
  size_t mapBytes_ = 0;
  uint64_t rowElements_ = 0;
};

// IDX images through zlib, forward only: the next row to be read is tracked, and a read that
// starts before it reopens the file (once per pass of the engine over the prior).
class IdxPrior final : public PriorRows {
 public:
  explicit IdxPrior(const std::string& path) : path_(path) {
    open();
    describeIdxImages(path, header_, description_);
    size_ = header_.dims[0];
    dim_ = description_.dim();
  }
  void read(int64_t first, int64_t count, float* out) override {
    if (first < next_) open();
    bytes_.resize(static_cast<size_t>(dim_) * static_cast<size_t>(std::max<int64_t>(count, 1)));
    while (next_ < first) {  // skip forward
      const int64_t rows = std::min(count, first - next_);
      input_->readExactly(bytes_.data(), static_cast<size_t>(rows * dim_), "the image data");
      next_ += rows;
    }
    input_->readExactly(bytes_.data(), static_cast<size_t>(count * dim_), "the image data");
    next_ += count;
    const float* table = byteToSymmetricTable();
    for (int64_t i = 0; i < count * dim_; ++i) out[i] = table[bytes_[static_cast<size_t>(i)]];
  }
  std::string access() const override { return "IDX stream"; }

 private:
  void open() {
    input_ = std::make_unique<GzipInput>(path_);
    header_ = readIdxHeader(*input_);
    next_ = 0;
  }
  std::string path_;
  std::unique_ptr<GzipInput> input_;
  IdxHeader header_;
  int64_t next_ = 0;
  std::vector<unsigned char> bytes_;
};

// CIFAR batches record by record: the label bytes are skipped, the pixels scaled like the
// whole-set reader's.
class CifarPrior final : public PriorRows {
 public:
  explicit CifarPrior(const std::string& path) : batches_(listCifarBatches(path)) {
    describeCifar(path, batches_, description_);
    for (const CifarBatch& b : batches_) size_ += b.records;
    dim_ = description_.dim();
  }
  void read(int64_t first, int64_t count, float* out) override {
    const float* table = byteToSymmetricTable();
    int64_t before = 0;
    for (size_t f = 0; f < batches_.size() && count > 0; ++f) {
      const CifarBatch& batch = batches_[f];
      if (first >= before + batch.records) {
        before += batch.records;
        continue;
      }
      const int64_t local = first - before;
      const int64_t rows = std::min(count, batch.records - local);
      FilePtr file = openForReading(batch.path);
      if (std::fseek(file.get(), static_cast<long>(local * batch.recordBytes), SEEK_SET) != 0)
        throw InputError(batch.path, "cannot seek to record " + std::to_string(local));
      record_.resize(static_cast<size_t>(batch.recordBytes));
      for (int64_t r = 0; r < rows; ++r) {
        readExactly(file.get(), record_.data(), record_.size(), batch.path, "CIFAR records");
        const unsigned char* pixels = record_.data() + batch.labelBytes;
        for (int64_t i = 0; i < dim_; ++i) out[i] = table[pixels[i]];
        out += dim_;
      }
      first += rows;
      count -= rows;
      before += batch.records;
    }
    if (count > 0) throw std::invalid_argument("CifarPrior::read: rows beyond the set");
  }
  std::string access() const override { return "CIFAR records"; }

 private:
  std::vector<CifarBatch> batches_;
  std::vector<unsigned char> record_;
};

}  // namespace

#ifndef NOISESCOPE_WITH_HDF5
bool data_detail::streamedHdf5Available() {
  return false;
}
std::unique_ptr<PriorRows> data_detail::openStreamedHdf5(const std::string& path,
                                                         const std::string&, const Progress&) {
  throw InputError(path, "is an HDF5 file, but this build of NoiseScope has no HDF5 support");
}
#endif

std::unique_ptr<PriorRows> residentPrior(const Dataset& dataset) {
  return std::make_unique<ResidentPrior>(dataset);
}

std::unique_ptr<PriorRows> priorShard(PriorRows& whole, int64_t first, int64_t count) {
  if (first < 0 || count < 0 || first + count > whole.size())
    throw std::invalid_argument("priorShard: rows outside the prior");
  return std::make_unique<ShardPrior>(whole, first, count);
}

std::pair<int64_t, int64_t> shardRange(int64_t rows, int rank, int worldSize) {
  const int64_t base = rows / worldSize, extra = rows % worldSize;
  const int64_t first = rank * base + std::min<int64_t>(rank, extra);
  return {first, base + (rank < extra ? 1 : 0)};
}

bool canStreamPrior(const std::string& path) {
  switch (detectFormat(path)) {
    case FileFormat::Npy:
    case FileFormat::Idx:
    case FileFormat::Cifar:
      return true;
    case FileFormat::Hdf5:
      return streamedHdf5Available();
    default:
      return false;
  }
}

std::unique_ptr<PriorRows> openStreamedPrior(const std::string& path, const LoadOptions& options) {
  if (!options.latentsFor.empty())  // the formats streamed here are never latent caches
    throw InputError(path, std::string("is ") + toString(detectFormat(path)) +
                               " data, not a latent cache, so it cannot be put on a trainer's "
                               "latent scale (" +
                               options.latentsFor + ")");
  std::unique_ptr<PriorRows> prior;
  switch (detectFormat(path)) {
    case FileFormat::Npy:
      prior = std::make_unique<NpyPrior>(path, options.progress);
      break;
    case FileFormat::Idx:
      prior = std::make_unique<IdxPrior>(path);
      break;
    case FileFormat::Cifar:
      prior = std::make_unique<CifarPrior>(path);
      break;
    case FileFormat::Hdf5:
      prior = openStreamedHdf5(path, options.hdf5Dataset, options.progress);
      break;
    default:
      throw InputError(path, std::string("is a ") + toString(detectFormat(path)) +
                                 " dataset, which cannot be streamed from disk; streaming reads "
                                 ".npy, HDF5, IDX and CIFAR files (load it whole instead)");
  }
  if (prior->size() < 1 || prior->dim() < 1) throw InputError(path, "holds no samples");
  return prior;
}

}  // namespace noisescope
