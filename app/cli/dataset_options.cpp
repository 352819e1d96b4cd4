#include "dataset_options.h"
#include "data/load.h"

#include "progress_bar.h"
#include "util/error.h"

namespace noisescope::cli {

void addDatasetOptions(CLI::App& app, DatasetArgs& args) {
  app.add_option("dataset", args.path,
                 "Dataset: IDX(.gz), CIFAR .bin, .npy, HDF5, FASTA, image folder, or "
                 "synthetic:KIND?n=..&seed=..")
      ->required();
  app.add_option("--dataset,--hdf5-dataset", args.hdf5Dataset,
                 "Path of the dataset inside an HDF5 file");
  auto* dna = app.add_option_group("DNA (FASTA)", "One-hot windows: +1 for the base, -1 elsewhere");
  dna->add_option("--window", args.window, "Bases per sample")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  dna->add_option("--stride", args.stride, "Bases between window starts")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  dna->add_option("--unknown", args.unknownBases,
                  "N and other letters: skip (drop the window) or negative (-1 in all channels)")
      ->capture_default_str()
      ->check(CLI::IsMember({"skip", "negative"}));
  auto* images = app.add_option_group("Image folder");
  images->add_option("--width", args.imageWidth, "Common width (0: first image's)")
      ->check(CLI::NonNegativeNumber);
  images->add_option("--height", args.imageHeight, "Common height (0: first image's)")
      ->check(CLI::NonNegativeNumber);
  images->add_option("--color", args.imageColor, "auto, grey or rgb")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "grey", "rgb"}));
  app.add_option("--latents", args.latentsFor,
                 "A latent cache's trainer and model, TOOL:MODEL (e.g. sd-scripts:sdxl): put the "
                 "latents on the scale that trainer noises (docs/latent-caches.md); without it "
                 "they are read as cached");
}

LoadOptions toLoadOptions(const DatasetArgs& args) {
  LoadOptions options;
  options.hdf5Dataset = args.hdf5Dataset;
  options.latentsFor = args.latentsFor;
  options.fasta.window = args.window;
  options.fasta.stride = args.stride;
  options.fasta.unknownBases = args.unknownBases == "negative"
                                   ? FastaOptions::UnknownBases::AllNegative
                                   : FastaOptions::UnknownBases::SkipWindow;
  options.imageFolder.width = args.imageWidth;
  options.imageFolder.height = args.imageHeight;
  options.imageFolder.color = args.imageColor == "grey"  ? ImageFolderOptions::Color::Grey
                              : args.imageColor == "rgb" ? ImageFolderOptions::Color::Rgb
                                                         : ImageFolderOptions::Color::Auto;
  return options;
}

Dataset loadWithProgress(const DatasetArgs& args) {
  LoadOptions options = toLoadOptions(args);
  options.progress = stderrProgress("loading");
  return loadDataset(args.path, options);
}

}  // namespace noisescope::cli
