// One PNG (when the bytes start with the PNG signature) or JPEG (otherwise) file: the header
// alone, the full decode, and the resize the image-folder reader applies to each plane.
#include <cstring>
#include <string>
#include <vector>

#include "data/formats/image_decode.h"
#include "targets.h"

namespace noisescope::fuzz {

using data_detail::DecodedImage;

Outcome image(const uint8_t* data, size_t size) {
  const bool png = size >= 8 && std::memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0;
  const std::string path = writeScratchFile(png ? "fuzz.png" : "fuzz.jpg", data, size);
  acceptOrReject([&] { data_detail::readImageHeader(path); });
  DecodedImage decoded;
  const Outcome outcome = acceptOrReject([&] { decoded = data_detail::decodeImage(path); });
  if (outcome == Outcome::Rejected) return outcome;
  const int width = decoded.header.width, height = decoded.header.height;
  if (decoded.rgb.size() != static_cast<size_t>(width) * height * 3)
    fail("decodeImage returned " + std::to_string(decoded.rgb.size()) + " bytes for " +
         std::to_string(width) + "x" + std::to_string(height) + " RGB");
  // Resizing is linear in the pixel count; a small image says everything a large one would.
  if (static_cast<int64_t>(width) * height <= (1 << 16)) {
    std::vector<float> plane(static_cast<size_t>(width) * height);
    for (size_t i = 0; i < plane.size(); ++i) plane[i] = decoded.rgb[3 * i];
    data_detail::resizePlane(plane, width, height, width * 3 / 2 + 1, height / 2 + 1);
  }
  return outcome;
}

}  // namespace noisescope::fuzz
