#include "data/formats/cifar_reader.h"

#include <dirent.h>

#include <algorithm>

#include "data/formats/input_file.h"
#include "data/layout/cifar_array.h"
#include "util/error.h"

namespace noisescope {

using namespace data_detail;

namespace {

constexpr int64_t kPixels = 3 * 32 * 32;

int64_t labelBytes(CifarVariant variant) {
  return variant == CifarVariant::Cifar10 ? 1 : 2;
}
int64_t recordBytes(CifarVariant variant) {
  return labelBytes(variant) + kPixels;
}
int32_t labelCount(CifarVariant variant) {
  return variant == CifarVariant::Cifar10 ? 10 : 100;
}

bool isCifar10Name(const std::string& name) {
  return (name.rfind("data_batch_", 0) == 0 && endsWith(name, ".bin")) || name == "test_batch.bin";
}
bool isCifar100Name(const std::string& name) {
  return name == "train.bin" || name == "test.bin";
}

CifarVariant chooseVariant(const std::string& path, uint64_t size) {
  const std::string name = toLower(fileName(path));
  const bool fits10 = size % recordBytes(CifarVariant::Cifar10) == 0;
  const bool fits100 = size % recordBytes(CifarVariant::Cifar100) == 0;
  if (isCifar10Name(name) || isCifar100Name(name)) {
    const CifarVariant variant =
        isCifar10Name(name) ? CifarVariant::Cifar10 : CifarVariant::Cifar100;
    if (size % recordBytes(variant) != 0)
      throw InputError(path, "is not a whole number of " + std::to_string(recordBytes(variant)) +
                                 "-byte CIFAR-" + std::to_string(labelCount(variant)) +
                                 " records (" + std::to_string(size) +
                                 " bytes; truncated or not a CIFAR batch)");
    return variant;
  }
  if (fits10 && !fits100) return CifarVariant::Cifar10;
  if (fits100 && !fits10) return CifarVariant::Cifar100;
  if (fits10 && fits100)
    throw InputError(path,
                     "could be CIFAR-10 or CIFAR-100; rename it to data_batch_N.bin / "
                     "test_batch.bin (CIFAR-10) or train.bin / test.bin (CIFAR-100)");
  throw InputError(path, "is not a whole number of CIFAR records (3073 or 3074 bytes each)");
}

std::string cifarSplitFromName(const std::string& name) {
  if (name.find("test") != std::string::npos) return "test";
  if (name.find("data_batch") != std::string::npos || name.find("train") != std::string::npos)
    return "train";
  return "all";
}

std::vector<std::string> listFolder(const std::string& folder) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) throw InputError(folder, "cannot be opened as a folder");
  while (dirent* entry = ::readdir(dir)) names.push_back(entry->d_name);
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

// The batch files a CIFAR folder's training split consists of.
std::vector<std::string> folderBatches(const std::string& folder) {
  std::vector<std::string> batches;
  for (const std::string& name : listFolder(folder))
    if (name.rfind("data_batch_", 0) == 0 && endsWith(name, ".bin")) batches.push_back(name);
  if (batches.empty())
    for (const std::string& name : listFolder(folder))
      if (name == "train.bin") batches.push_back(name);
  return batches;
}

// Decodes one batch file into records [first, first + records) of the dataset.
void readBatch(Dataset& dataset, int64_t first, const std::string& path, CifarVariant variant,
               uint64_t size, const Progress& progress) {
  const int64_t records = static_cast<int64_t>(size / recordBytes(variant));
  FilePtr file = openForReading(path);
  constexpr int64_t kRecordsPerChunk = 500;
  std::vector<unsigned char> buffer(kRecordsPerChunk * recordBytes(variant));
  unsigned char lo = 255, hi = 0;
  const float* table = byteToSymmetricTable();
  for (int64_t done = 0; done < records;) {
    progress.throwIfCancelled();
    const int64_t n = std::min(kRecordsPerChunk, records - done);
    readExactly(file.get(), buffer.data(), static_cast<size_t>(n * recordBytes(variant)), path,
                "CIFAR records");
    for (int64_t r = 0; r < n; ++r) {
      const unsigned char* record = buffer.data() + r * recordBytes(variant);
      const int32_t label = record[labelBytes(variant) - 1];
      if (label >= labelCount(variant))
        throw InputError(
            path, "record " + std::to_string(done + r) + " has label " + std::to_string(label) +
                      ", outside CIFAR-" + std::to_string(labelCount(variant)) + "'s 0.." +
                      std::to_string(labelCount(variant) - 1) + " (not a CIFAR batch?)");
      dataset.labels[first + done + r] = label;
      float* out = dataset.sample(first + done + r);
      const unsigned char* pixels = record + labelBytes(variant);
      for (int64_t i = 0; i < kPixels; ++i) {
        lo = std::min(lo, pixels[i]);
        hi = std::max(hi, pixels[i]);
        out[i] = table[pixels[i]];
      }
    }
    done += n;
    progress.report(static_cast<double>(done) / static_cast<double>(records), "reading CIFAR");
  }
  dataset.sourceMin = std::min<double>(dataset.sourceMin, lo);
  dataset.sourceMax = std::max<double>(dataset.sourceMax, hi);
}

}  // namespace

bool looksLikeCifar(const std::string& path) {
  if (isDirectory(path)) return !folderBatches(path).empty();
  const std::string name = toLower(fileName(path));
  return isCifar10Name(name) || isCifar100Name(name);
}

std::vector<CifarBatch> data_detail::listCifarBatches(const std::string& path) {
  std::vector<std::string> files;
  if (isDirectory(path)) {
    const std::string folder = endsWith(path, "/") ? path : path + "/";
    for (const std::string& name : folderBatches(path)) files.push_back(folder + name);
    if (files.empty())
      throw InputError(path, "holds no CIFAR batches (data_batch_*.bin or train.bin)");
  } else {
    files.push_back(path);
  }
  std::vector<CifarBatch> batches;
  for (const std::string& file : files) {
    const uint64_t size = checkedFileSize(file);
    CifarBatch batch;
    batch.path = file;
    batch.variant = chooseVariant(file, size);
    if (batch.variant != (batches.empty() ? batch.variant : batches.front().variant))
      throw InputError(file, "is a different CIFAR variant than " + fileName(files.front()));
    batch.labelBytes = labelBytes(batch.variant);
    batch.recordBytes = recordBytes(batch.variant);
    batch.records = static_cast<int64_t>(size / static_cast<uint64_t>(batch.recordBytes));
    batches.push_back(batch);
  }
  return batches;
}

void data_detail::describeCifar(const std::string& path, const std::vector<CifarBatch>& batches,
                                Dataset& dataset) {
  dataset.name = batches.size() == 1 ? displayName(path) : fileName(path);
  dataset.source = path;
  dataset.split = batches.size() == 1 ? cifarSplitFromName(toLower(fileName(path))) : "train";
  dataset.sourceDtype = "uint8";
  dataset.scaling = "[-1,1]";
  dataset.kind = SampleKind::Image;
  dataset.sampleShape = {3, 32, 32};
  if (batches.front().variant == CifarVariant::Cifar100)
    dataset.notes.push_back("CIFAR-100: the fine label (0..99) is kept");
}

Dataset readCifar(const std::string& path, const Progress& progress) {
  const std::vector<CifarBatch> batches = listCifarBatches(path);
  std::vector<std::string> files;
  std::vector<uint64_t> sizes;
  std::vector<CifarVariant> variants;
  uint64_t totalRecords = 0;
  for (const CifarBatch& batch : batches) {
    files.push_back(batch.path);
    sizes.push_back(static_cast<uint64_t>(batch.records * batch.recordBytes));
    variants.push_back(batch.variant);
    totalRecords += static_cast<uint64_t>(batch.records);
  }
  checkAllocation(path, totalRecords * kPixels * sizeof(float), "the images");

  Dataset dataset;
  describeCifar(path, batches, dataset);
  dataset.values.resize(totalRecords * kPixels);
  dataset.labels.resize(totalRecords);

  dataset.sourceMin = 255;
  dataset.sourceMax = 0;
  uint64_t recordsBefore = 0;
  for (size_t f = 0; f < files.size(); ++f) {
    const uint64_t records = sizes[f] / recordBytes(variants[f]);
    const Progress part = progress.sub(
        static_cast<double>(recordsBefore) / static_cast<double>(totalRecords),
        static_cast<double>(recordsBefore + records) / static_cast<double>(totalRecords));
    readBatch(dataset, static_cast<int64_t>(recordsBefore), files[f], variants[f], sizes[f], part);
    recordsBefore += records;
  }
  dataset.sourceRangeKnown = true;
  if (files.size() > 1)
    dataset.notes.push_back("read " + std::to_string(files.size()) + " batches");
  dataset.validate();
  return dataset;
}

}  // namespace noisescope
