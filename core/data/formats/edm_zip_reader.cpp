#include "data/formats/edm_zip_reader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "data/formats/image_decode.h"
#include "data/formats/input_file.h"
#include "data/formats/zip_archive.h"
#include "data/layout/npy_array.h"
#include "util/error.h"
#include "util/random_source.h"
#include "util/setting_names.h"

namespace noisescope {

using namespace data_detail;

namespace {

constexpr uint64_t kMaxImageMember = uint64_t{256} << 20;
constexpr uint64_t kMaxLabels = uint64_t{256} << 20;
// EDM2's StabilityVAEEncoder defaults (training/encoders.py).
constexpr double kRawMean[4] = {5.81, 3.25, 0.12, -2.15};
constexpr double kRawStd[4] = {4.17, 4.62, 3.71, 3.28};
constexpr double kFinalStd = 0.5;

std::map<std::string, int32_t> readLabels(const ZipArchive& archive,
                                          const ZipArchive::Member& member) {
  const std::string where = archive.path() + ": dataset.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(archive.read(member, kMaxLabels));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("is not JSON: ") + e.what());
  }
  std::map<std::string, int32_t> labels;
  if (!j.is_object() || !j.contains("labels") || j["labels"].is_null()) return labels;
  if (!j["labels"].is_array()) throw InputError(where, "has 'labels' that is not a list");
  for (const auto& entry : j["labels"]) {
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string() ||
        !entry[1].is_number_integer())
      throw InputError(where, "has a label that is not [member name, integer class]");
    labels[entry[0].get<std::string>()] = entry[1].get<int32_t>();
  }
  return labels;
}

}  // namespace

Dataset readEdmZip(const std::string& path, const ImageFolderOptions& options, uint64_t seed,
                   const Progress& progress) {
  if (options.width < 0 || options.height < 0)
    throw InputError(settings::kImageSize, "must not be negative");
  const ZipArchive archive(path);
  std::vector<ZipArchive::Member> images, arrays;
  std::map<std::string, int32_t> labels;
  for (const auto& m : archive.members()) {
    if (m.name == "dataset.json")
      labels = readLabels(archive, m);
    else if (imageFileType(m.name) != ImageFileType::Other)
      images.push_back(m);
    else if (endsWith(toLower(m.name), ".npy"))
      arrays.push_back(m);
  }
  if (images.empty() && arrays.empty())
    throw InputError(path,
                     "is a ZIP archive with no PNG, JPEG or .npy members (not an EDM "
                     "dataset?)");
  if (!images.empty() && !arrays.empty())
    throw InputError(path, "mixes " + std::to_string(images.size()) + " images and " +
                               std::to_string(arrays.size()) +
                               " .npy latents; an EDM dataset holds one kind");
  auto byName = [](const auto& a, const auto& b) { return a.name < b.name; };
  std::sort(images.begin(), images.end(), byName);
  std::sort(arrays.begin(), arrays.end(), byName);
  const auto& members = images.empty() ? arrays : images;

  Dataset d;
  d.name = displayName(path);
  d.source = path;
  const Progress reading = progress.sub(0.0, 1.0);
  if (!images.empty()) {
    // The first image fixes the size and (with a colour image) the colour, as a folder does.
    std::vector<DecodedImage> decoded;
    bool anyColour = false;
    for (const auto& m : images) {
      reading.throwIfCancelled();
      decoded.push_back(decodeImageBytes(path + ": " + m.name, archive.read(m, kMaxImageMember)));
      anyColour = anyColour || decoded.back().header.colour;
      reading.report(0.8 * decoded.size() / images.size(), "decoding images");
    }
    int width = options.width, height = options.height;
    const ImageHeader& first = decoded.front().header;
    if (width == 0 && height == 0) {
      width = first.width;
      height = first.height;
    } else if (width == 0) {
      width =
          std::max(1, static_cast<int>(std::lround(double(height) * first.width / first.height)));
    } else if (height == 0) {
      height =
          std::max(1, static_cast<int>(std::lround(double(width) * first.height / first.width)));
    }
    if (int64_t{width} * height > kMaxImagePixels)
      throw InputError(
          settings::kImageSize,
          "ask for more than " + std::to_string(kMaxImagePixels) + " pixels per image");
    const bool rgb = options.color == ImageFolderOptions::Color::Rgb ||
                     (options.color == ImageFolderOptions::Color::Auto && anyColour);
    const int channels = rgb ? 3 : 1;
    const uint64_t dim = static_cast<uint64_t>(channels) * width * height;
    checkAllocation(path, checkedMultiply(path, dim * sizeof(float), images.size()),
                    "the resized images");
    d.sourceDtype = "uint8";
    d.scaling = "[-1,1]";
    d.kind = SampleKind::Image;
    d.sampleShape = {channels, height, width};
    d.values.resize(dim * images.size());
    unsigned char lo = 255, hi = 0;
    int resized = 0;
    for (size_t i = 0; i < decoded.size(); ++i)
      if (imageToSample(decoded[i], channels, width, height, d.sample(int64_t(i)), lo, hi))
        ++resized;
    d.sourceRangeKnown = true;
    d.sourceMin = lo;
    d.sourceMax = hi;
    d.notes.push_back(std::to_string(images.size()) + " image(s) as " + (rgb ? "RGB" : "grey") +
                      " " + std::to_string(width) + "×" + std::to_string(height));
    if (resized > 0)
      d.notes.push_back(std::to_string(resized) + " image(s) resized to " + std::to_string(width) +
                        "×" + std::to_string(height));
  } else {
    RandomSource random(seed);
    std::vector<int64_t> shape;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < arrays.size(); ++i) {
      reading.throwIfCancelled();
      const auto& m = arrays[i];
      const std::string where = path + ": " + m.name;
      const std::string bytes = archive.read(m, kMaxImageMember);
      const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
      const NpyArrayInfo info = parseNpyArrayInfo(data, bytes.size(), where);
      if (info.shape.size() != 3)
        throw InputError(where,
                         "has shape " + sampleShapeText(info.shape) + "; EDM2 latents are C×H×W");
      if (shape.empty()) shape = info.shape;
      if (info.shape != shape)
        throw InputError(where, "has shape " + sampleShapeText(info.shape) + ", the first latent " +
                                    sampleShapeText(shape) + "; an EDM2 dataset has one shape");
      std::vector<float> raw(info.elements);
      decodeNpyElements(info, where, data + info.dataOffset, info.elements, 0, raw.data());
      for (size_t k = 0; k < raw.size(); ++k)
        if (!std::isfinite(raw[k]))
          throw InputError(where, "holds a non-finite value at element " + std::to_string(k));
      const bool meanStd = shape[0] == 8;
      const size_t plane = static_cast<size_t>(shape[1] * shape[2]);
      if (d.values.empty()) {
        const uint64_t dim = meanStd ? 4 * plane : raw.size();
        checkAllocation(path, checkedMultiply(path, dim * sizeof(float), arrays.size()),
                        "the latents");
        d.values.reserve(dim * arrays.size());
        d.sourceDtype = info.dtype;
      }
      if (!meanStd) {
        d.values.insert(d.values.end(), raw.begin(), raw.end());
      } else {
        for (int c = 0; c < 4; ++c) {
          const double scale = kFinalStd / kRawStd[c], bias = -kRawMean[c] * scale;
          for (size_t p = 0; p < plane; ++p) {
            const double mean = raw[c * plane + p], std = raw[(c + 4) * plane + p];
            d.values.push_back(static_cast<float>((mean + std * random.normal()) * scale + bias));
          }
        }
      }
      for (size_t k = 0; k < raw.size(); ++k)
        lo = std::min<double>(lo, raw[k]), hi = std::max<double>(hi, raw[k]);
      reading.report(double(i + 1) / arrays.size(), "reading latents");
    }
    const bool meanStd = shape[0] == 8;
    d.kind = SampleKind::Vector;
    d.scaling = meanStd ? "EDM2 latents (mean + std·ε, scaled to std 0.5)" : "raw";
    d.sampleShape = {meanStd ? 4 * shape[1] * shape[2] : shape[0] * shape[1] * shape[2]};
    d.sourceRangeKnown = true;
    d.sourceMin = lo;
    d.sourceMax = hi;
    d.notes.push_back(
        meanStd ? std::to_string(arrays.size()) + " EDM2 latent(s) of " + sampleShapeText(shape) +
                      " (VAE mean + std): drawn as x = mean + std·ε with seed " +
                      std::to_string(seed) + ", then EDM2's scale to std 0.5; 4×" +
                      std::to_string(shape[1]) + "×" + std::to_string(shape[2]) + ", flattened"
                : std::to_string(arrays.size()) + " array(s) of " + sampleShapeText(shape) +
                      " read as they are (not EDM2's 8-channel mean + std), flattened");
  }
  if (!labels.empty()) {
    for (const auto& m : members) {
      const auto it = labels.find(m.name);
      if (it == labels.end())
        throw InputError(path + ": dataset.json", "has no label for '" + m.name + "'");
      d.labels.push_back(it->second);
    }
  }
  d.validate();
  return d;
}

}  // namespace noisescope
