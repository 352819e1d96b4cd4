#include "render/png_writer.h"

#ifdef NOISESCOPE_WITH_IMAGE_FILES
#include <png.h>

#include <csetjmp>
#endif
#include <stdexcept>

#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope {

#ifdef NOISESCOPE_WITH_IMAGE_FILES

namespace {
void appendBytes(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  out->append(reinterpret_cast<const char*>(data), length);
}
void noFlush(png_structp) {}
}  // namespace

std::string encodePng(const RgbImage& image) {
  if (image.width <= 0 || image.height <= 0) throw std::invalid_argument("encodePng: empty image");
  std::string out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("encodePng: libpng could not start");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("encodePng: libpng failed");
  }
  png_set_write_fn(png, &out, appendBytes, noFlush);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width),
               static_cast<png_uint_32>(image.height), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < image.height; ++y) {
    png_write_row(
        png, const_cast<png_bytep>(image.pixels.data() + static_cast<size_t>(y) * image.width * 3));
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

void writePng(const std::string& path, const RgbImage& image) {
  writeFileAtomically(path, encodePng(image));
}
#else
// Built without libpng (NOISESCOPE_WITH_IMAGE_FILES=OFF, e.g. on a bare GPU machine).
constexpr const char* kNoPng =
    "this build of NoiseScope has no PNG support (built with NOISESCOPE_WITH_IMAGE_FILES=OFF)";

std::string encodePng(const RgbImage&) {
  throw std::runtime_error(std::string("encodePng: ") + kNoPng);
}

void writePng(const std::string& path, const RgbImage&) {
  throw InputError(path, std::string("cannot be written: ") + kNoPng);
}
#endif

}  // namespace noisescope
