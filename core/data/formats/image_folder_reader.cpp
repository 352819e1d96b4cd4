#include "data/formats/image_folder_reader.h"

#include <algorithm>
#include <cmath>

#include "data/formats/dataset_origin.h"
#include "data/formats/image_decode.h"
#include "data/formats/input_file.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope {

using namespace data_detail;

std::vector<std::string> listImageFiles(const std::string& folder) {
  if (!isDirectory(folder)) {
    checkedFileSize(folder);  // says "no such file" where that is the problem
    throw InputError(folder, "is not a folder");
  }
  return listFolderFiles(
      folder, [](const std::string& path) { return imageFileType(path) != ImageFileType::Other; });
}

Dataset readImageFolder(const std::string& folder, const ImageFolderOptions& options,
                        const Progress& progress) {
  if (options.width < 0 || options.height < 0)
    throw InputError(settings::kImageSize, "must not be negative");
  const std::vector<std::string> files = listImageFiles(folder);
  if (files.empty()) throw InputError(folder, "holds no PNG or JPEG files");

  // First pass: headers only, to fix the common size and the colour mode before decoding.
  std::vector<ImageHeader> headers;
  headers.reserve(files.size());
  bool anyColour = false;
  for (size_t i = 0; i < files.size(); ++i) {
    progress.throwIfCancelled();
    headers.push_back(readImageHeader(files[i]));
    anyColour = anyColour || headers.back().colour;
  }
  int width = options.width, height = options.height;
  const ImageHeader& first = headers.front();
  if (width == 0 && height == 0) {
    width = first.width;
    height = first.height;
  } else if (width == 0) {
    width = std::max(1, static_cast<int>(std::lround(double(height) * first.width / first.height)));
  } else if (height == 0) {
    height = std::max(1, static_cast<int>(std::lround(double(width) * first.height / first.width)));
  }
  if (int64_t{width} * height > kMaxImagePixels)
    throw InputError(settings::kImageSize,
                     "ask for more than " + std::to_string(kMaxImagePixels) + " pixels per image");
  const bool rgb = options.color == ImageFolderOptions::Color::Rgb ||
                   (options.color == ImageFolderOptions::Color::Auto && anyColour);
  const int channels = rgb ? 3 : 1;
  const uint64_t dim = static_cast<uint64_t>(channels) * width * height;
  checkAllocation(folder, checkedMultiply(folder, dim * sizeof(float), files.size()),
                  "the resized images");

  Dataset dataset = datasetFrom(
      {fileName(folder), folder, "uint8", "[-1,1]", SampleKind::Image, {channels, height, width}});
  dataset.values.resize(dim * files.size());

  int resized = 0;
  unsigned char lo = 255, hi = 0;
  const Progress decoding = progress.sub(0.05, 1.0);
  for (size_t i = 0; i < files.size(); ++i) {
    decoding.throwIfCancelled();
    const DecodedImage image = decodeImage(files[i]);
    if (imageToSample(image, channels, width, height, dataset.sample(static_cast<int64_t>(i)), lo,
                      hi))
      ++resized;
    decoding.report(static_cast<double>(i + 1) / files.size(), "decoding images");
  }
  dataset.sourceRangeKnown = true;
  dataset.sourceMin = lo;
  dataset.sourceMax = hi;
  dataset.notes.push_back(std::to_string(files.size()) + " image(s) as " + (rgb ? "RGB" : "grey") +
                          " " + std::to_string(width) + "×" + std::to_string(height));
  if (resized > 0)
    dataset.notes.push_back(std::to_string(resized) + " image(s) resized to " +
                            std::to_string(width) + "×" + std::to_string(height));
  dataset.validate();
  return dataset;
}

}  // namespace noisescope
