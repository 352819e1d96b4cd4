#include "data/load.h"

#include <zlib.h>

#include <cctype>
#include <cstdint>

#include "data/formats/cifar_reader.h"
#include "data/formats/edm_zip_reader.h"
#include "data/formats/fasta_reader.h"
#include "data/formats/idx_reader.h"
#include "data/formats/image_folder_reader.h"
#include "data/formats/input_file.h"
#include "data/formats/latent_cache_reader.h"
#include "data/formats/npy_reader.h"
#include "data/layout/scale_reference.h"
#include "data/synthetic.h"
#include "data/transforms.h"
#include "util/error.h"
#ifdef NOISESCOPE_WITH_HDF5
#include "data/formats/hdf5_reader.h"
#endif

namespace noisescope {

using namespace data_detail;

const char* toString(FileFormat format) {
  switch (format) {
    case FileFormat::Idx:
      return "idx";
    case FileFormat::Cifar:
      return "cifar";
    case FileFormat::Npy:
      return "npy";
    case FileFormat::Hdf5:
      return "hdf5";
    case FileFormat::Fasta:
      return "fasta";
    case FileFormat::ImageFolder:
      return "image-folder";
    case FileFormat::Synthetic:
      return "synthetic";
    case FileFormat::Safetensors:
      return "safetensors";
    case FileFormat::Npz:
      return "npz";
    case FileFormat::LatentFolder:
      return "latent-folder";
    case FileFormat::EdmZip:
      return "edm-zip";
    case FileFormat::Unknown:
      return "unknown";
  }
  return "unknown";
}

const char* toString(FastaOptions::UnknownBases policy) {
  switch (policy) {
    case FastaOptions::UnknownBases::SkipWindow:
      return "skip-window";
    case FastaOptions::UnknownBases::AllNegative:
      return "all-negative";
  }
  return "skip-window";
}

namespace {

constexpr size_t kProbeBytes = 4096;

// The first bytes of the file (decompressed when it is gzip), or fewer when it is shorter.
std::string probe(const std::string& path, bool decompress) {
  std::string bytes(kProbeBytes, '\0');
  if (decompress) {
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file) return {};
    const int got = gzread(file, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(file);
    bytes.resize(got > 0 ? static_cast<size_t>(got) : 0);
  } else {
    FilePtr file(std::fopen(path.c_str(), "rb"));
    if (!file) return {};
    bytes.resize(std::fread(bytes.data(), 1, bytes.size(), file.get()));
  }
  return bytes;
}

bool looksLikeSequenceText(const std::string& bytes) {
  size_t i = 0;
  while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
  if (i == bytes.size()) return false;
  if (bytes[i] == '>' || bytes[i] == ';') return true;
  // Plain sequence text: nothing but nucleotide letters (IUPAC codes) and white space.
  for (; i < bytes.size(); ++i) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(bytes[i])));
    if (!std::isspace(static_cast<unsigned char>(c)) &&
        std::string("ACGTUNRYKMSWBDHV-").find(c) == std::string::npos)
      return false;
  }
  return true;
}

FileFormat formatFromContent(const std::string& path, const std::string& bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (hasNpyMagic(data, bytes.size())) return FileFormat::Npy;
  if (bytes.size() >= 8 && bytes.compare(0, 8, "\x89HDF\r\n\x1a\n") == 0) return FileFormat::Hdf5;
  if (looksLikeCifar(path)) return FileFormat::Cifar;  // by name: CIFAR has no magic number
  if (hasIdxMagic(data, bytes.size())) return FileFormat::Idx;
  if (bytes.size() >= 4 && bytes.compare(0, 4, "PK\x03\x04") == 0)  // a ZIP archive
    return endsWith(toLower(fileName(path)), ".npz") ? FileFormat::Npz : FileFormat::EdmZip;
  if (bytes.size() >= 9 && bytes[8] == '{') {  // safetensors: u64 header length, then JSON
    uint64_t length = 0;
    for (int i = 7; i >= 0; --i) length = (length << 8) | data[i];
    if (length >= 2 && length <= (uint64_t{100} << 20)) return FileFormat::Safetensors;
  }
  if (hasFastaExtension(path) || looksLikeSequenceText(bytes)) return FileFormat::Fasta;
  return FileFormat::Unknown;
}

}  // namespace

FileFormat detectFormat(const std::string& path) {
  if (path.rfind("synthetic:", 0) == 0) return FileFormat::Synthetic;
  if (isDirectory(path)) {
    if (looksLikeCifar(path)) return FileFormat::Cifar;
    return isLatentFolder(path) ? FileFormat::LatentFolder : FileFormat::ImageFolder;
  }
  const std::string name = toLower(fileName(path));
  std::string bytes = probe(path, false);
  const bool gzip = bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
                    static_cast<unsigned char>(bytes[1]) == 0x8b;
  if (gzip) bytes = probe(path, true);
  const FileFormat byContent = formatFromContent(path, bytes);
  if (byContent != FileFormat::Unknown) return byContent;
  // Names decide where the content says nothing (an empty or damaged file still gets the
  // reader that explains what is wrong with it).
  if (endsWith(name, ".npy")) return FileFormat::Npy;
  if (endsWith(name, ".safetensors")) return FileFormat::Safetensors;
  if (endsWith(name, ".npz")) return FileFormat::Npz;
  if (endsWith(name, ".zip")) return FileFormat::EdmZip;
  if (endsWith(name, ".h5") || endsWith(name, ".hdf5") || endsWith(name, ".he5"))
    return FileFormat::Hdf5;
  if (name.find("-ubyte") != std::string::npos) return FileFormat::Idx;
  return FileFormat::Unknown;
}

namespace {

Dataset readAny(const std::string& path, const LoadOptions& options,
                const ScaleReference* scaleLike);

// A set larger than the memory this process may allocate (a ulimit, a container's limit) ends
// with a message that names the file and the way out, not a bare std::bad_alloc.
Dataset readOrExplain(const std::string& path, const LoadOptions& options,
                      const ScaleReference* scaleLike) {
  try {
    return recognisePlusMinusOne(readAny(path, options, scaleLike));
  } catch (const std::bad_alloc&) {
    throw InputError(
        path,
        "does not fit in the memory this process may allocate; the diagnostic can "
        "read .npy, HDF5, IDX and CIFAR priors from disk instead (diagnose --stream on)");
  }
}

}  // namespace

Dataset loadDataset(const std::string& path, const LoadOptions& options) {
  return readOrExplain(path, options, nullptr);
}

Dataset loadDatasetOnScale(const std::string& path, const ScaleReference& reference,
                           const LoadOptions& options) {
  return readOrExplain(path, options, &reference);
}

namespace {

Dataset readAny(const std::string& path, const LoadOptions& options,
                const ScaleReference* scaleLike) {
  if (path.empty()) throw InputError("dataset", "no path given");
  const FileFormat format = detectFormat(path);
  if (format != FileFormat::Synthetic && format != FileFormat::ImageFolder &&
      format != FileFormat::Cifar && format != FileFormat::LatentFolder)
    checkedFileSize(path);  // missing, unreadable, directory or empty: say so plainly
  const bool latentFormat = format == FileFormat::Safetensors || format == FileFormat::Npz ||
                            format == FileFormat::LatentFolder;
  if (!options.latentsFor.empty() && !latentFormat)
    throw InputError(path, std::string("is ") + toString(format) +
                               " data, not a latent cache: only .safetensors / .npz latents and "
                               "folders of them can be put on a trainer's latent scale (" +
                               options.latentsFor + ")");
  switch (format) {
    case FileFormat::Idx:
      return readIdx(path, options.progress);
    case FileFormat::Cifar:
      return readCifar(path, options.progress);
    case FileFormat::Npy:
      return readNpy(path, options.progress, scaleLike);
    case FileFormat::Hdf5:
#ifdef NOISESCOPE_WITH_HDF5
      return readHdf5(path, options.hdf5Dataset, options.progress, scaleLike);
#else
      throw InputError(path, "is an HDF5 file, but this build of NoiseScope has no HDF5 support");
#endif
    case FileFormat::Fasta:
      return readFasta(path, options.fasta, options.progress);
    case FileFormat::ImageFolder:
      return readImageFolder(path, options.imageFolder, options.progress);
    case FileFormat::Synthetic:
      return makeSynthetic(parseSyntheticSpec(path));
    case FileFormat::Safetensors:
    case FileFormat::Npz:
      return readLatentFile(path, options.progress, options.latentsFor);
    case FileFormat::LatentFolder:
      return readLatentFolder(path, options.progress, options.latentsFor);
    case FileFormat::EdmZip:
      return readEdmZip(path, options.imageFolder, 1, options.progress);
    case FileFormat::Unknown:
      break;
  }
  throw InputError(path,
                   "has a format NoiseScope does not recognise; supported: IDX "
                   "(MNIST, .gz too), CIFAR binary batches, .npy, HDF5, FASTA / sequence "
                   "text, a folder of PNG/JPEG images, .safetensors / .npz latent caches and "
                   "folders of them, EDM/EDM2 dataset ZIPs, synthetic:KIND?…");
}

}  // namespace

#ifndef NOISESCOPE_WITH_HDF5
std::vector<Hdf5DatasetInfo> listHdf5Datasets(const std::string& path) {
  throw InputError(path, "cannot be listed: this build of NoiseScope has no HDF5 support");
}
#endif

}  // namespace noisescope
