#pragma once
// One entry point that reads any dataset the program supports, picking the reader from the file's
// contents and name. Every reader either returns a complete, validated Dataset or throws
// InputError naming the file and the problem; none returns a partly filled one.
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope {

enum class FileFormat {
  Idx,
  Cifar,
  Npy,
  Hdf5,
  Fasta,
  ImageFolder,
  Synthetic,
  Safetensors,   // a trainer's latent cache, or a plain tensor (data/formats/latent_cache_reader.h)
  Npz,           // sd-scripts' latent cache, or a plain array
  LatentFolder,  // a folder of .safetensors / .npz files
  EdmZip,        // an EDM / EDM2 dataset ZIP (data/formats/edm_zip_reader.h)
  Unknown
};
const char* toString(FileFormat format);

// FASTA / plain sequence files become one-hot DNA windows (+1 for the base, −1 elsewhere).
struct FastaOptions {
  int64_t window = 200;  // bases per sample
  int64_t stride = 200;  // bases between window starts
  // What to do with N and any other letter that is not A, C, G or T (case-insensitive).
  enum class UnknownBases {
    SkipWindow,   // drop every window that contains one (default)
    AllNegative,  // keep the window; the position is −1 in all four channels
  };
  UnknownBases unknownBases = UnknownBases::SkipWindow;
};
const char* toString(FastaOptions::UnknownBases policy);

// A folder of PNG / JPEG files, each resized (area-averaged or bilinear) to one common size.
struct ImageFolderOptions {
  int width = 0;  // 0: take the first image's size
  int height = 0;
  enum class Color { Auto, Grey, Rgb };  // Auto: RGB if any image has colour
  Color color = Color::Auto;
};

struct LoadOptions {
  std::string hdf5Dataset;  // path of the dataset inside an HDF5 file
  FastaOptions fasta;
  ImageFolderOptions imageFolder;
  // A latent cache's trainer and model, "TOOL:MODEL" (data/formats/latent_spaces.h): put the
  // latents on the scale that trainer noises. Empty: as cached. Any other format refuses it.
  std::string latentsFor;
  Progress progress;
};

// Decides the format from magic numbers where there are any, else from the name. "synthetic:..."
// specs (see data/synthetic.h) are recognised without touching the file system.
FileFormat detectFormat(const std::string& path);

Dataset loadDataset(const std::string& path, const LoadOptions& options = {});

struct Hdf5DatasetInfo {
  std::string path;            // "/group/name"
  std::vector<int64_t> shape;  // full shape including N
  std::string dtype;           // "uint8", "float32", ...
};
// Lists the numeric datasets in an HDF5 file (throws InputError when HDF5 support is not built).
std::vector<Hdf5DatasetInfo> listHdf5Datasets(const std::string& path);

}  // namespace noisescope
