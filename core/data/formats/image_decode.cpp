#include "data/formats/image_decode.h"

#ifdef NOISESCOPE_WITH_IMAGE_FILES
#include <png.h>
// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>
#include <cstddef>
#include <cstdio>
#endif

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstring>
#include <memory>

#include "data/formats/input_file.h"
#include "util/error.h"

namespace noisescope::data_detail {

ImageFileType imageFileType(const std::string& path) {
  const std::string name = toLower(fileName(path));
  if (endsWith(name, ".png")) return ImageFileType::Png;
  if (endsWith(name, ".jpg") || endsWith(name, ".jpeg")) return ImageFileType::Jpeg;
  return ImageFileType::Other;
}

namespace {

#ifdef NOISESCOPE_WITH_IMAGE_FILES
void checkDimensions(const std::string& path, int64_t width, int64_t height) {
  if (width <= 0 || height <= 0) throw InputError(path, "has an empty image size");
  if (width * height > kMaxImagePixels)
    throw InputError(path, "declares " + std::to_string(width) + "×" + std::to_string(height) +
                               " pixels, more than the " + std::to_string(kMaxImagePixels) +
                               " supported (corrupt header?)");
}

// ---- PNG through libpng's simplified API ----

DecodedImage readPng(const std::string& path, bool pixels) {
  checkedFileSize(path);
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str()))
    throw InputError(path, std::string("is not a readable PNG: ") + image.message);
  DecodedImage out;
  out.header.width = static_cast<int>(image.width);
  out.header.height = static_cast<int>(image.height);
  out.header.colour = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
  try {
    checkDimensions(path, image.width, image.height);
  } catch (...) {
    png_image_free(&image);
    throw;
  }
  if (!pixels) {
    png_image_free(&image);
    return out;
  }
  image.format = PNG_FORMAT_RGB;
  out.rgb.assign(PNG_IMAGE_SIZE(image), 0);
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr))
    throw InputError(path, std::string("is a corrupt or truncated PNG: ") + image.message);
  return out;
}

DecodedImage readPngBytes(const std::string& name, const std::string& bytes) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
    throw InputError(name, std::string("is not a readable PNG: ") + image.message);
  DecodedImage out;
  out.header.width = static_cast<int>(image.width);
  out.header.height = static_cast<int>(image.height);
  out.header.colour = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
  try {
    checkDimensions(name, image.width, image.height);
  } catch (...) {
    png_image_free(&image);
    throw;
  }
  image.format = PNG_FORMAT_RGB;
  out.rgb.assign(PNG_IMAGE_SIZE(image), 0);
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr))
    throw InputError(name, std::string("is a corrupt or truncated PNG: ") + image.message);
  return out;
}

// ---- JPEG through libjpeg; its errors (and warnings, such as a file cut short) longjmp back ----

struct JpegError {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void jpegErrorExit(j_common_ptr info) {
  auto* error = reinterpret_cast<JpegError*>(info->err);
  (*info->err->format_message)(info, error->message);
  std::longjmp(error->jump, 1);
}

void jpegEmitMessage(j_common_ptr info, int level) {
  if (level < 0) jpegErrorExit(info);  // a warning means damaged data: treat it as an error
}

// Everything that must survive a longjmp lives outside the function that calls setjmp.
struct JpegDecoder {
  jpeg_decompress_struct info;
  JpegError error;
  FilePtr file;
  DecodedImage image;  // here rather than on the stack, so a longjmp cannot leave it stale
};

DecodedImage readJpegFrom(const std::string& path, bool pixels, FilePtr file) {
  auto decoder = std::make_unique<JpegDecoder>();
  decoder->file = std::move(file);
  DecodedImage& out = decoder->image;
  jpeg_decompress_struct& info = decoder->info;
  info.err = jpeg_std_error(&decoder->error.manager);
  decoder->error.manager.error_exit = jpegErrorExit;
  decoder->error.manager.emit_message = jpegEmitMessage;
  if (setjmp(decoder->error.jump)) {
    jpeg_destroy_decompress(&info);
    throw InputError(path, std::string("is not a readable JPEG: ") + decoder->error.message);
  }
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, decoder->file.get());
  jpeg_read_header(&info, TRUE);
  if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
    jpeg_destroy_decompress(&info);
    throw InputError(path, "is a CMYK JPEG; only grey and RGB JPEGs are supported");
  }
  out.header.width = static_cast<int>(info.image_width);
  out.header.height = static_cast<int>(info.image_height);
  out.header.colour = info.num_components >= 3;
  if (static_cast<int64_t>(info.image_width) * info.image_height > kMaxImagePixels || !pixels) {
    jpeg_destroy_decompress(&info);
    checkDimensions(path, out.header.width, out.header.height);
    return std::move(out);
  }
  info.out_color_space = JCS_RGB;
  jpeg_start_decompress(&info);
  const size_t stride = static_cast<size_t>(info.output_width) * 3;
  out.rgb.resize(stride * info.output_height);
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = out.rgb.data() + stride * info.output_scanline;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  return std::move(out);
}

DecodedImage readJpeg(const std::string& path, bool pixels) {
  checkedFileSize(path);
  return readJpegFrom(path, pixels, openForReading(path));
}

DecodedImage readJpegBytes(const std::string& name, const std::string& bytes) {
  if (bytes.empty()) throw InputError(name, "is an empty JPEG");
  // fmemopen gives libjpeg's stdio source the bytes without a copy on disk.
  FilePtr file(::fmemopen(const_cast<char*>(bytes.data()), bytes.size(), "rb"));
  if (!file) throw InputError(name, "cannot be opened in memory");
  return readJpegFrom(name, true, std::move(file));
}
#else
// Built without libpng/libjpeg (NOISESCOPE_WITH_IMAGE_FILES=OFF, e.g. on a bare GPU machine).
[[noreturn]] void noImageSupport(const std::string& path, const char* format) {
  throw InputError(path, std::string("is a ") + format +
                             " image, but this build of NoiseScope has no PNG/JPEG support "
                             "(built with NOISESCOPE_WITH_IMAGE_FILES=OFF)");
}
DecodedImage readPng(const std::string& path, bool) {
  noImageSupport(path, "PNG");
}
DecodedImage readJpeg(const std::string& path, bool) {
  noImageSupport(path, "JPEG");
}
DecodedImage readPngBytes(const std::string& name, const std::string&) {
  noImageSupport(name, "PNG");
}
DecodedImage readJpegBytes(const std::string& name, const std::string&) {
  noImageSupport(name, "JPEG");
}
#endif

DecodedImage read(const std::string& path, bool pixels) {
  switch (imageFileType(path)) {
    case ImageFileType::Png:
      return readPng(path, pixels);
    case ImageFileType::Jpeg:
      return readJpeg(path, pixels);
    case ImageFileType::Other:
      break;
  }
  throw InputError(path, "is neither a PNG nor a JPEG file (by its name)");
}

}  // namespace

DecodedImage decodeImageBytes(const std::string& name, const std::string& bytes) {
  switch (imageFileType(name)) {
    case ImageFileType::Png:
      return readPngBytes(name, bytes);
    case ImageFileType::Jpeg:
      return readJpegBytes(name, bytes);
    case ImageFileType::Other:
      break;
  }
  throw InputError(name, "is neither a PNG nor a JPEG file (by its name)");
}

bool imageToSample(const DecodedImage& image, int channels, int width, int height, float* out,
                   unsigned char& lo, unsigned char& hi) {
  const int w = image.header.width, h = image.header.height;
  const size_t pixels = static_cast<size_t>(w) * h;
  for (unsigned char b : image.rgb) {
    lo = std::min(lo, b);
    hi = std::max(hi, b);
  }
  const bool rgb = channels == 3;
  for (int c = 0; c < channels; ++c) {
    std::vector<float> plane(pixels);
    for (size_t p = 0; p < pixels; ++p) {
      const unsigned char* px = image.rgb.data() + p * 3;
      // Grey from colour with the Rec. 601 luma weights; a grey file has R = G = B.
      plane[p] =
          rgb || !image.header.colour ? px[c] : 0.299f * px[0] + 0.587f * px[1] + 0.114f * px[2];
    }
    const std::vector<float> scaled = resizePlane(plane, w, h, width, height);
    float* target = out + static_cast<size_t>(c) * width * height;
    for (size_t p = 0; p < scaled.size(); ++p) target[p] = byteToSymmetric(scaled[p]);
  }
  return w != width || h != height;
}

namespace {

// Source pixels, with weights, that make up each destination pixel along one axis.
struct Tap {
  int index;
  float weight;
};

std::vector<std::vector<Tap>> axisTaps(int src, int dst) {
  std::vector<std::vector<Tap>> taps(static_cast<size_t>(dst));
  const double ratio = static_cast<double>(src) / dst;
  for (int j = 0; j < dst; ++j) {
    if (dst < src) {
      // Area averaging: destination pixel j covers [j·ratio, (j+1)·ratio) of the source.
      const double begin = j * ratio, end = (j + 1) * ratio;
      for (int i = static_cast<int>(std::floor(begin)); i < src && i < end; ++i) {
        const double overlap = std::min<double>(end, i + 1) - std::max<double>(begin, i);
        if (overlap > 0) taps[j].push_back({i, static_cast<float>(overlap / ratio)});
      }
    } else {
      // Bilinear between pixel centres.
      const double x = std::clamp((j + 0.5) * ratio - 0.5, 0.0, static_cast<double>(src - 1));
      const int left = static_cast<int>(std::floor(x));
      const int right = std::min(left + 1, src - 1);
      const float f = static_cast<float>(x - left);
      taps[j].push_back({left, 1.0f - f});
      if (f > 0.0f) taps[j].push_back({right, f});
    }
  }
  return taps;
}

}  // namespace

ImageHeader readImageHeader(const std::string& path) {
  return read(path, false).header;
}

DecodedImage decodeImage(const std::string& path) {
  return read(path, true);
}

std::vector<float> resizePlane(const std::vector<float>& plane, int srcWidth, int srcHeight,
                               int dstWidth, int dstHeight) {
  if (srcWidth == dstWidth && srcHeight == dstHeight) return plane;
  const auto xTaps = axisTaps(srcWidth, dstWidth);
  const auto yTaps = axisTaps(srcHeight, dstHeight);
  std::vector<float> rows(static_cast<size_t>(srcHeight) * dstWidth);
  for (int y = 0; y < srcHeight; ++y)
    for (int x = 0; x < dstWidth; ++x) {
      float sum = 0.0f;
      for (const Tap& t : xTaps[x])
        sum += t.weight * plane[static_cast<size_t>(y) * srcWidth + t.index];
      rows[static_cast<size_t>(y) * dstWidth + x] = sum;
    }
  std::vector<float> out(static_cast<size_t>(dstHeight) * dstWidth);
  for (int y = 0; y < dstHeight; ++y)
    for (int x = 0; x < dstWidth; ++x) {
      float sum = 0.0f;
      for (const Tap& t : yTaps[y])
        sum += t.weight * rows[static_cast<size_t>(t.index) * dstWidth + x];
      out[static_cast<size_t>(y) * dstWidth + x] = sum;
    }
  return out;
}

}  // namespace noisescope::data_detail
