#include "data/formats/idx_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "data/formats/gzip_input.h"
#include "data/formats/input_file.h"
#include "data/layout/idx_array.h"
#include "util/error.h"

namespace noisescope {

using namespace data_detail;

namespace {

constexpr unsigned char kUint8Type = 0x08;
constexpr size_t kChunkBytes = size_t{1} << 20;

bool isIdxElementType(unsigned char type) {
  return type == 0x08 || type == 0x09 || type == 0x0B || type == 0x0C || type == 0x0D ||
         type == 0x0E;
}

std::string labelsNameFor(const std::string& imagesName) {
  const std::string marker = "-images-idx3-ubyte";
  const size_t at = imagesName.find(marker);
  if (at == std::string::npos) return {};
  std::string name = imagesName;
  name.replace(at, marker.size(), "-labels-idx1-ubyte");
  return name;
}

bool isRegularFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

// MNIST names its splits "train-…" and "t10k-…"; derived sets add prefixes ("emnist-letters-
// train-…"), so the words are looked for anywhere in the name.
std::string idxSplitFromName(const std::string& name) {
  const std::string lower = toLower(name);
  if (lower.find("t10k") != std::string::npos || lower.find("test") != std::string::npos)
    return "test";
  if (lower.find("train") != std::string::npos) return "train";
  return "all";
}

std::vector<int32_t> readLabels(const std::string& path, const Progress& progress) {
  GzipInput input(path);
  const IdxHeader header = readIdxHeader(input);
  if (header.dims.size() != 1)
    throw InputError(path, "is not an IDX labels file (rank " + std::to_string(header.dims.size()) +
                               ", expected 1)");
  std::vector<unsigned char> bytes(kChunkBytes);
  std::vector<int32_t> labels;
  labels.reserve(static_cast<size_t>(std::min<uint64_t>(header.dataBytes, kChunkBytes)));
  for (uint64_t done = 0; done < header.dataBytes;) {
    progress.throwIfCancelled();
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunkBytes, header.dataBytes - done));
    input.readExactly(bytes.data(), n, "the label data");
    labels.insert(labels.end(), bytes.begin(), bytes.begin() + n);
    done += n;
  }
  if (!input.atEnd()) throw InputError(path, "has data after the labels its header declares");
  return labels;
}

}  // namespace

// Reads and checks the header, and that the data it declares fits in the file, before anything
// is allocated from it.
IdxHeader data_detail::readIdxHeader(GzipInput& input) {
  const std::string& path = input.path();
  unsigned char magic[4];
  const size_t got = input.read(magic, 4);
  if (got < 4 || magic[0] != 0 || magic[1] != 0 || !isIdxElementType(magic[2]) || magic[3] < 1 ||
      magic[3] > 4)
    throw InputError(path, "is not an IDX file (wrong magic number)");
  if (magic[2] != kUint8Type)
    throw InputError(path, "holds IDX element type 0x" +
                               std::string(1, "0123456789ABCDEF"[magic[2] >> 4]) +
                               std::string(1, "0123456789ABCDEF"[magic[2] & 15]) +
                               "; only unsigned-byte IDX files (type 0x08) are supported");
  IdxHeader header;
  const int rank = magic[3];
  header.headerBytes = 4 + 4 * static_cast<uint64_t>(rank);
  uint64_t count = 1;
  for (int i = 0; i < rank; ++i) {
    unsigned char b[4];
    input.readExactly(b, 4, "the IDX header");
    const uint64_t dim = (static_cast<uint64_t>(b[0]) << 24) | (static_cast<uint64_t>(b[1]) << 16) |
                         (static_cast<uint64_t>(b[2]) << 8) | b[3];
    if (dim == 0) throw InputError(path, "declares an IDX dimension of size 0: no data");
    header.dims.push_back(static_cast<int64_t>(dim));
    count = checkedMultiply(path, count, dim);
  }
  header.dataBytes = count;
  const uint64_t total = header.headerBytes + header.dataBytes;
  if (!input.compressed()) {
    if (total > input.fileSize())
      throw InputError(path, "is truncated: the header declares " + std::to_string(total) +
                                 " bytes, the file holds " + std::to_string(input.fileSize()));
    if (total < input.fileSize())
      throw InputError(path, "has " + std::to_string(input.fileSize() - total) +
                                 " bytes after the data its header declares");
  } else if (total > input.maximumDecodedSize()) {
    throw InputError(path, "declares " + formatBytes(total) + " of data, more than " +
                               formatBytes(input.fileSize()) +
                               " of gzip can hold (truncated file or corrupt header)");
  }
  return header;
}

void data_detail::describeIdxImages(const std::string& path, const IdxHeader& header,
                                    Dataset& dataset) {
  const size_t rank = header.dims.size();
  if (rank == 1)
    throw InputError(path, "is a 1-D IDX file (labels); load the matching images file instead");
  if (rank == 4)
    throw InputError(path, "is a 4-D IDX file; only [N, D] and [N, H, W] IDX files are supported");
  dataset.name = displayName(path);
  dataset.source = path;
  dataset.split = idxSplitFromName(dataset.name);
  dataset.sourceDtype = "uint8";
  dataset.scaling = "[-1,1]";
  if (rank == 3) {
    dataset.kind = SampleKind::Image;
    dataset.sampleShape = {1, header.dims[1], header.dims[2]};
  } else {
    dataset.kind = header.dims[1] <= 3 ? SampleKind::Points : SampleKind::Vector;
    dataset.sampleShape = {header.dims[1]};
  }
}

bool hasIdxMagic(const unsigned char* bytes, size_t size) {
  return size >= 4 && bytes[0] == 0 && bytes[1] == 0 && isIdxElementType(bytes[2]) &&
         bytes[3] >= 1 && bytes[3] <= 4;
}

std::string findIdxLabelsFile(const std::string& imagesPath) {
  const std::string name = fileName(imagesPath);
  const std::string labelsName = labelsNameFor(name);
  if (labelsName.empty()) return {};
  const std::string dir = imagesPath.substr(0, imagesPath.size() - name.size());
  const bool gz = endsWith(toLower(labelsName), ".gz");
  const std::string stem = gz ? labelsName.substr(0, labelsName.size() - 3) : labelsName;
  // Prefer the labels file compressed the same way as the images file.
  for (const std::string& candidate : gz ? std::vector<std::string>{stem + ".gz", stem}
                                         : std::vector<std::string>{stem, stem + ".gz"})
    if (isRegularFile(dir + candidate)) return dir + candidate;
  return {};
}

Dataset readIdx(const std::string& path, const Progress& progress) {
  GzipInput input(path);
  const IdxHeader header = readIdxHeader(input);
  Dataset dataset;
  describeIdxImages(path, header, dataset);

  const uint64_t count = header.dataBytes;
  checkAllocation(path, checkedMultiply(path, count, sizeof(float)), "the images");
  // Allocate everything at once only when the gzip trailer agrees with the header; otherwise
  // grow with the data actually decoded, so a lying header cannot force a huge allocation.
  const bool sizeConfirmed =
      !input.compressed() ||
      input.trailerSize() == static_cast<uint32_t>((header.headerBytes + count) & 0xffffffffu);
  if (sizeConfirmed) dataset.values.resize(count);

  const Progress reading = progress.sub(0.0, 0.95);
  std::vector<unsigned char> bytes(kChunkBytes);
  unsigned char lo = 255, hi = 0;
  const float* table = byteToSymmetricTable();
  for (uint64_t done = 0; done < count;) {
    reading.throwIfCancelled();
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunkBytes, count - done));
    input.readExactly(bytes.data(), n, "the image data");
    if (!sizeConfirmed) dataset.values.resize(done + n);
    float* out = dataset.values.data() + done;
    for (size_t i = 0; i < n; ++i) {
      const unsigned char b = bytes[i];
      lo = std::min(lo, b);
      hi = std::max(hi, b);
      out[i] = table[b];
    }
    done += n;
    reading.report(static_cast<double>(done) / static_cast<double>(count), "reading images");
  }
  if (input.compressed() && !input.atEnd())
    throw InputError(path, "has data after the images its header declares");
  dataset.sourceRangeKnown = true;
  dataset.sourceMin = lo;
  dataset.sourceMax = hi;

  const std::string labelsPath = findIdxLabelsFile(path);
  if (!labelsPath.empty()) {
    std::vector<int32_t> labels = readLabels(labelsPath, progress.sub(0.95, 1.0));
    if (static_cast<int64_t>(labels.size()) == header.dims[0]) {
      dataset.labels = std::move(labels);
      dataset.labelsSource = labelsPath;
    } else {
      dataset.notes.push_back("labels file " + fileName(labelsPath) + " has " +
                              std::to_string(labels.size()) + " labels for " +
                              std::to_string(header.dims[0]) + " images; labels not used");
    }
  }
  progress.report(1.0, "images read");
  dataset.validate();
  return dataset;
}

}  // namespace noisescope
