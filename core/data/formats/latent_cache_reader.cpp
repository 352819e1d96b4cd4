#include "data/formats/latent_cache_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <regex>

#include "data/formats/dataset_origin.h"
#include "data/formats/input_file.h"
#include "data/formats/latent_spaces.h"
#include "data/formats/npz_file.h"
#include "data/formats/safetensors_file.h"
#include "data/layout/array_layout.h"
#include "util/error.h"

namespace noisescope {

using namespace data_detail;

bool isLatentCacheKey(const std::string& key) {
  static const std::regex pattern(R"(latents(_\d+(x\d+)+(_[A-Za-z0-9]+)?)?)");
  return std::regex_match(key, pattern);
}

namespace {

enum class CacheFormat { Safetensors, Npz };

CacheFormat cacheFormat(const std::string& path) {
  const std::string name = toLower(fileName(path));
  if (endsWith(name, ".safetensors")) return CacheFormat::Safetensors;
  if (endsWith(name, ".npz")) return CacheFormat::Npz;
  // Without either name (data/load.h found it by content): a ZIP is an .npz.
  FilePtr file = openForReading(path);
  char magic[4] = {};
  const bool zip =
      std::fread(magic, 1, 4, file.get()) == 4 && std::memcmp(magic, "PK\x03\x04", 4) == 0;
  return zip ? CacheFormat::Npz : CacheFormat::Safetensors;
}

std::string dtypeName(const std::string& safetensorsDtype) {
  if (safetensorsDtype == "F32") return "float32";
  if (safetensorsDtype == "F16") return "float16";
  if (safetensorsDtype == "BF16") return "bfloat16";
  if (safetensorsDtype == "F64") return "float64";
  if (safetensorsDtype == "U8") return "uint8";
  return safetensorsDtype;
}

// One array of a file: a latent (one sample), or a plain tensor [N, …].
struct Array {
  std::string key, dtype;
  std::vector<int64_t> shape;
  std::vector<float> values;
};

struct FileArrays {
  bool cache = false;        // latent-cache keys (each array one sample), else one plain tensor
  std::string architecture;  // the "architecture" a musubi-tuner cache names in its metadata
  std::vector<Array> arrays;
};

std::string listKeys(const std::vector<std::string>& keys) {
  std::string text;
  for (size_t i = 0; i < keys.size() && i < 8; ++i) text += (i ? ", " : "") + keys[i];
  if (keys.size() > 8) text += ", …";
  return text;
}

[[noreturn]] void noDataKey(const std::string& path, const std::vector<std::string>& keys) {
  throw InputError(path,
                   "holds no latent-cache key (latents, latents_HxW, latents_FxHxW_dtype) "
                   "and " +
                       std::to_string(keys.size()) + " arrays (" + listKeys(keys) +
                       "); a file without them must hold exactly one array [N, …]");
}

FileArrays readArrays(const std::string& path) {
  FileArrays out;
  if (cacheFormat(path) == CacheFormat::Safetensors) {
    const SafetensorsHeader header = readSafetensorsHeader(path);
    const auto architecture = header.metadata.find("architecture");
    if (architecture != header.metadata.end()) out.architecture = architecture->second;
    // ai-toolkit (toolkit/dataloader_mixins.py, LatentCachingMixin.cache_latents_all_latents)
    // saves one image's latent [C, H, W] as the tensor "latent", with "latent_space_version" in
    // the metadata; without that metadata a "latent" tensor is an ordinary array.
    const bool aiToolkit = header.metadata.count("latent_space_version") > 0;
    auto isCacheKey = [aiToolkit](const std::string& key) {
      return isLatentCacheKey(key) || (aiToolkit && key == "latent");
    };
    std::vector<std::string> keys;
    for (const auto& t : header.tensors) {
      keys.push_back(t.name);
      out.cache = out.cache || isCacheKey(t.name);
    }
    if (header.tensors.empty()) throw InputError(path, "is a safetensors file with no tensors");
    if (!out.cache && header.tensors.size() != 1) noDataKey(path, keys);
    for (const auto& t : header.tensors) {
      if (out.cache && !isCacheKey(t.name)) continue;
      out.arrays.push_back(
          {t.name, dtypeName(t.dtype), t.shape, readSafetensorsTensor(path, header, t)});
    }
    return out;
  }
  const std::vector<std::string> keys = npzKeys(path);
  for (const auto& k : keys) out.cache = out.cache || isLatentCacheKey(k);
  if (keys.empty()) throw InputError(path, "is an .npz archive with no arrays");
  if (!out.cache && keys.size() != 1) noDataKey(path, keys);
  for (auto& a : readNpz(path, out.cache ? &isLatentCacheKey : nullptr))
    out.arrays.push_back({a.key, a.dtype, a.shape, std::move(a.values)});
  return out;
}

// One sample of a latent cache, and where it came from.
struct Sample {
  std::vector<int64_t> shape;
  std::string origin, dtype;
  std::string architecture;  // from the file's metadata, "" when it names none
  std::vector<float> values;
};

// The architecture every taken latent's file names, or "" when any names none or they differ.
std::string architectureOf(const std::vector<Sample>& samples, const std::vector<size_t>& rows) {
  const std::string& first = samples[rows.front()].architecture;
  for (size_t r : rows)
    if (samples[r].architecture != first) return {};
  return first;
}

void checkFinite(const std::string& path, const Array& a) {
  for (size_t i = 0; i < a.values.size(); ++i)
    if (!std::isfinite(a.values[i]))
      throw InputError(
          path, "array '" + a.key + "' holds a non-finite value at element " + std::to_string(i));
}

// Samples of a file's arrays: a cache's latents as they are, a plain tensor split along axis 0.
std::vector<Sample> samplesOf(const std::string& path, FileArrays&& file) {
  std::vector<Sample> samples;
  for (Array& a : file.arrays) {
    checkFinite(path, a);
    if (file.cache) {
      if (a.shape.empty() || a.values.empty())
        throw InputError(path, "latent '" + a.key + "' is empty");
      samples.push_back(
          {a.shape, fileName(path) + ":" + a.key, a.dtype, file.architecture, std::move(a.values)});
      continue;
    }
    checkSampleShape(path, a.shape);
    const std::vector<int64_t> shape(a.shape.begin() + 1, a.shape.end());
    const size_t dim = a.values.size() / static_cast<size_t>(a.shape[0]);
    for (int64_t n = 0; n < a.shape[0]; ++n)
      samples.push_back(
          {shape.empty() ? std::vector<int64_t>{1} : shape,
           fileName(path) + ":" + a.key + "[" + std::to_string(n) + "]",
           a.dtype,
           {},
           std::vector<float>(a.values.begin() + n * dim, a.values.begin() + (n + 1) * dim)});
  }
  return samples;
}

// The samples as one dataset: grouped by shape, the largest group taken (the first on a tie).
Dataset assemble(const std::string& source, std::vector<Sample>&& samples, size_t files,
                 const std::string& latentsFor) {
  if (samples.empty()) throw InputError(source, "holds no latents");
  std::map<std::vector<int64_t>, std::vector<size_t>> groups;
  std::vector<std::vector<int64_t>> order;
  for (size_t i = 0; i < samples.size(); ++i) {
    auto& g = groups[samples[i].shape];
    if (g.empty()) order.push_back(samples[i].shape);
    g.push_back(i);
  }
  std::vector<int64_t> taken = order.front();
  for (const auto& shape : order)
    if (groups[shape].size() > groups[taken].size()) taken = shape;
  const std::vector<size_t>& rows = groups[taken];
  const uint64_t dim = samples[rows.front()].values.size();
  checkAllocation(source, checkedMultiply(source, dim * sizeof(float), rows.size()), "the latents");

  Dataset d = datasetFrom({fileName(source),
                           source,
                           samples[rows.front()].dtype,
                           "raw",
                           SampleKind::Vector,
                           {static_cast<int64_t>(dim)}});
  d.values.reserve(dim * rows.size());
  double lo = INFINITY, hi = -INFINITY;
  for (size_t r : rows) {
    for (float v : samples[r].values) lo = std::min<double>(lo, v), hi = std::max<double>(hi, v);
    d.values.insert(d.values.end(), samples[r].values.begin(), samples[r].values.end());
  }
  d.sourceRangeKnown = true;
  d.sourceMin = lo;
  d.sourceMax = hi;
  d.notes.push_back(std::to_string(rows.size()) + " latent(s) of shape " + sampleShapeText(taken) +
                    " from " + std::to_string(files) + " file(s) (" + d.sourceDtype +
                    "), flattened to " + std::to_string(dim) + " values");
  if (order.size() > 1) {
    std::string left;
    for (const auto& shape : order) {
      if (shape == taken) continue;
      left += (left.empty() ? "" : "; ") + std::to_string(groups[shape].size()) + " of " +
              sampleShapeText(shape) + " (first: " + samples[groups[shape].front()].origin + ")";
    }
    d.notes.push_back("mixed buckets: took the largest group, " + sampleShapeText(taken) +
                      "; left out " + left);
  }
  d.latentCache = true;
  const std::string named = architectureOf(samples, rows);
  const std::string pairOfFiles = named.empty() ? "" : latentPairOfArchitecture(named);
  if (!latentsFor.empty()) {
    if (!pairOfFiles.empty() && pairOfFiles != latentsFor)
      d.notes.push_back("the files' metadata names architecture '" + named + "' (" + pairOfFiles +
                        "), but they were read as " + latentsFor + " latents, as asked");
    putLatentsOnTrainerScale(d, taken, latentCacheKind(latentsFor));
  } else if (!pairOfFiles.empty() &&
             latentVae(latentCacheKind(pairOfFiles).vae).channels == taken.front()) {
    putLatentsOnTrainerScale(d, taken, latentCacheKind(pairOfFiles));
    d.notes.push_back("the trainer and model were taken from the files' metadata: architecture '" +
                      named + "' is " + pairOfFiles);
  } else {
    d.latentTransform =
        "none: read as cached, without any VAE normalisation (name the trainer and model, "
        "TOOL:MODEL, to put them on the scale it noises)";
    d.notes.push_back("latents " + d.latentTransform.substr(6));
    if (!pairOfFiles.empty())
      d.notes.push_back("the files' metadata names architecture '" + named + "' (" + pairOfFiles +
                        "), whose latents have " +
                        std::to_string(latentVae(latentCacheKind(pairOfFiles).vae).channels) +
                        " channels, not " + std::to_string(taken.front()));
  }
  d.validate();
  return d;
}

std::vector<std::string> listLatentFiles(const std::string& folder) {
  return listFolderFiles(folder, [](const std::string& path) {
    const std::string name = toLower(fileName(path));
    return endsWith(name, ".safetensors") || endsWith(name, ".npz");
  });
}

}  // namespace

Dataset readLatentFile(const std::string& path, const Progress& progress,
                       const std::string& latentsFor) {
  FileArrays file = readArrays(path);
  progress.report(0.8, "reading latents");
  if (!file.cache) {
    // A plain tensor is an array like a .npy one: the same layout and scaling rules.
    Array& a = file.arrays.front();
    checkFinite(path, a);
    Dataset d;
    d.name = displayName(path);
    d.source = path;
    const std::vector<int64_t> latentShape(a.shape.begin() + (a.shape.empty() ? 0 : 1),
                                           a.shape.end());
    finishArrayDataset(d, path, a.shape, a.dtype, std::move(a.values));
    d.notes.push_back("the file's one array '" + a.key + "' read as [N, …]");
    if (!latentsFor.empty()) {
      if (d.scaling != "raw")
        throw InputError(path, "its array '" + a.key + "' was read as " + d.scaling +
                                   " values, not as latents, so it cannot be put on a "
                                   "trainer's latent scale");
      putLatentsOnTrainerScale(d, latentShape, latentCacheKind(latentsFor));
    }
    d.validate();
    return d;
  }
  Dataset d = assemble(path, samplesOf(path, std::move(file)), 1, latentsFor);
  d.name = displayName(path);
  return d;
}

bool isLatentFolder(const std::string& folder) {
  return isDirectory(folder) && !listLatentFiles(folder).empty();
}

Dataset readLatentFolder(const std::string& folder, const Progress& progress,
                         const std::string& latentsFor) {
  if (!isDirectory(folder)) throw InputError(folder, "is not a folder");
  const std::vector<std::string> files = listLatentFiles(folder);
  if (files.empty()) throw InputError(folder, "holds no .safetensors or .npz files");
  std::vector<Sample> samples;
  for (size_t i = 0; i < files.size(); ++i) {
    progress.throwIfCancelled();
    for (Sample& s : samplesOf(files[i], readArrays(files[i]))) samples.push_back(std::move(s));
    progress.report(double(i + 1) / files.size(), "reading latent caches");
  }
  return assemble(folder, std::move(samples), files.size(), latentsFor);
}

}  // namespace noisescope
