#pragma once
// Decoding single PNG (libpng) and JPEG (libjpeg) files to 8-bit RGB, and resizing image planes
// (area averaging when shrinking, bilinear when enlarging). Every failure is an InputError that
// names the image file.
#include <cstdint>
#include <string>
#include <vector>

namespace noisescope::data_detail {

enum class ImageFileType { Png, Jpeg, Other };
// By extension: .png, .jpg / .jpeg (any case).
ImageFileType imageFileType(const std::string& path);

struct ImageHeader {
  int width = 0;
  int height = 0;
  bool colour = false;  // false: the file stores grey levels only
};

struct DecodedImage {
  ImageHeader header;
  std::vector<unsigned char> rgb;  // height × width × 3, row-major, interleaved
};

// Largest image accepted, in pixels (a guard against absurd headers).
constexpr int64_t kMaxImagePixels = int64_t{1} << 28;

ImageHeader readImageHeader(const std::string& path);
// Alpha, where present, is composited onto black.
DecodedImage decodeImage(const std::string& path);

// The same for an image held in memory (a ZIP member): `name` gives the type by its extension
// and names the image in errors.
DecodedImage decodeImageBytes(const std::string& name, const std::string& bytes);

// One decoded image as a sample of `channels` (1: grey by Rec. 601 luma, 3: RGB) planes resized
// to width × height, in [−1, 1]: what the image folder and the EDM ZIP readers store. Returns
// whether it was resized; widens [lo, hi] to the bytes seen.
bool imageToSample(const DecodedImage& image, int channels, int width, int height, float* out,
                   unsigned char& lo, unsigned char& hi);

// Resizes one plane (row-major, srcWidth × srcHeight) to dstWidth × dstHeight.
std::vector<float> resizePlane(const std::vector<float>& plane, int srcWidth, int srcHeight,
                               int dstWidth, int dstHeight);

}  // namespace noisescope::data_detail
