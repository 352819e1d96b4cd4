#include "fixtures.h"

#ifdef NOISESCOPE_WITH_HDF5
#include <hdf5.h>
#endif
#include <png.h>
#include <zlib.h>
// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>
#include <cstddef>
#include <cstdio>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fixtures {

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write fixture " + path);
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeGzip(const std::string& path, const std::string& bytes) {
  gzFile file = gzopen(path.c_str(), "wb");
  if (!file) throw std::runtime_error("cannot write fixture " + path);
  if (!bytes.empty()) gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(file);
}

void truncateFile(const std::string& path, size_t size) {
  writeBytes(path, readBytes(path).substr(0, size));
}

std::string idxBytes(const std::vector<uint32_t>& dims, const std::vector<uint8_t>& data) {
  std::string bytes = {0, 0, 0x08, static_cast<char>(dims.size())};
  for (uint32_t d : dims)
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<char>(d >> shift));
  bytes.append(reinterpret_cast<const char*>(data.data()), data.size());
  return bytes;
}

std::string npyBytes(const std::string& descr, const std::vector<int64_t>& shape,
                     const std::string& data, int version, bool fortranOrder) {
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': " + (fortranOrder ? "True" : "False") + ", 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i)
    header += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? ", " : "");
  header += "), }";
  const size_t preamble = version == 1 ? 10 : 12;
  while ((preamble + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string bytes = "\x93NUMPY";
  bytes.push_back(static_cast<char>(version));
  bytes.push_back(0);
  const size_t length = header.size();
  bytes.push_back(static_cast<char>(length & 0xff));
  bytes.push_back(static_cast<char>((length >> 8) & 0xff));
  if (version != 1) {
    bytes.push_back(static_cast<char>((length >> 16) & 0xff));
    bytes.push_back(static_cast<char>((length >> 24) & 0xff));
  }
  return bytes + header + data;
}

std::string safetensorsBytes(const std::vector<SafetensorsEntry>& tensors) {
  std::string header = "{", data;
  for (const auto& t : tensors) {
    std::string shape;
    for (size_t i = 0; i < t.shape.size(); ++i)
      shape += (i ? "," : "") + std::to_string(t.shape[i]);
    header += (header.size() > 1 ? "," : "") + std::string("\"") + t.name + "\":{\"dtype\":\"" +
              t.dtype + "\",\"shape\":[" + shape + "],\"data_offsets\":[" +
              std::to_string(data.size()) + "," + std::to_string(data.size() + t.data.size()) +
              "]}";
    data += t.data;
  }
  header += "}";
  std::string bytes;
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xff));
  return bytes + header + data;
}

namespace {
std::string le(uint64_t value, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  return out;
}
}  // namespace

std::string zipBytes(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out, central;
  for (const auto& [name, data] : members) {
    const uint32_t crc =
        crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size()));
    const std::string common = le(20, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0x21, 2) +
                               le(crc, 4) + le(data.size(), 4) + le(data.size(), 4) +
                               le(name.size(), 2) + le(0, 2);
    central += le(0x02014b50, 4) + le(20, 2) + common + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) +
               le(out.size(), 4) + name;
    out += le(0x04034b50, 4) + common + name + data;
  }
  const size_t start = out.size();
  out += central;
  return out + le(0x06054b50, 4) + le(0, 2) + le(0, 2) + le(members.size(), 2) +
         le(members.size(), 2) + le(central.size(), 4) + le(start, 4) + le(0, 2);
}

void writePng(const std::string& path, int width, int height, int channels,
              const std::vector<uint8_t>& pixels) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
  if (!png_image_write_to_file(&image, path.c_str(), 0, pixels.data(), 0, nullptr))
    throw std::runtime_error("cannot write PNG fixture " + path + ": " + image.message);
}

void writeJpeg(const std::string& path, int width, int height, int channels,
               const std::vector<uint8_t>& pixels, int quality) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw std::runtime_error("cannot write JPEG fixture " + path);
  jpeg_compress_struct info;
  jpeg_error_mgr error;
  info.err = jpeg_std_error(&error);
  jpeg_create_compress(&info);
  jpeg_stdio_dest(&info, file);
  info.image_width = static_cast<JDIMENSION>(width);
  info.image_height = static_cast<JDIMENSION>(height);
  info.input_components = channels;
  info.in_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    JSAMPROW row = const_cast<uint8_t*>(pixels.data()) +
                   static_cast<size_t>(info.next_scanline) * width * channels;
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  std::fclose(file);
}

#ifdef NOISESCOPE_WITH_HDF5
int64_t hdf5Uint8() {
  return H5T_NATIVE_UINT8;
}
int64_t hdf5Float() {
  return H5T_NATIVE_FLOAT;
}
int64_t hdf5Double() {
  return H5T_NATIVE_DOUBLE;
}
int64_t hdf5Int32() {
  return H5T_NATIVE_INT32;
}

namespace {
hid_t openOrCreate(const std::string& path, bool append) {
  const hid_t file = append ? H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)
                            : H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("cannot write HDF5 fixture " + path);
  return file;
}

// Creates the intermediate groups of "/a/b/name" as needed.
hid_t linkCreationList() {
  const hid_t list = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(list, 1);
  return list;
}
}  // namespace

void writeHdf5(const std::string& path, const std::string& datasetPath,
               const std::vector<uint64_t>& dims, int64_t type, const void* data, bool append) {
  const hid_t file = openOrCreate(path, append);
  std::vector<hsize_t> extent(dims.begin(), dims.end());
  const hid_t space = H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr);
  const hid_t links = linkCreationList();
  const hid_t dataset = H5Dcreate2(file, datasetPath.c_str(), static_cast<hid_t>(type), space,
                                   links, H5P_DEFAULT, H5P_DEFAULT);
  if (dataset < 0) throw std::runtime_error("cannot create HDF5 dataset " + datasetPath);
  H5Dwrite(dataset, static_cast<hid_t>(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  H5Dclose(dataset);
  H5Pclose(links);
  H5Sclose(space);
  H5Fclose(file);
}

void writeHdf5Unwritten(const std::string& path, const std::string& datasetPath,
                        const std::vector<uint64_t>& dims) {
  const hid_t file = openOrCreate(path, false);
  std::vector<hsize_t> extent(dims.begin(), dims.end());
  std::vector<hsize_t> chunk(extent.size(), 1);
  chunk.back() = std::min<hsize_t>(extent.back(), 64);
  const hid_t space = H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr);
  const hid_t properties = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(properties, static_cast<int>(chunk.size()), chunk.data());
  const hid_t dataset = H5Dcreate2(file, datasetPath.c_str(), H5T_NATIVE_FLOAT, space, H5P_DEFAULT,
                                   properties, H5P_DEFAULT);
  if (dataset < 0) throw std::runtime_error("cannot create HDF5 dataset " + datasetPath);
  H5Dclose(dataset);
  H5Pclose(properties);
  H5Sclose(space);
  H5Fclose(file);
}

#endif  // NOISESCOPE_WITH_HDF5

ErrorCheck expectInputError(const std::function<void()>& action, const std::string& needle) {
  ErrorCheck check;
  try {
    action();
    check.message = "expected InputError mentioning '" + needle + "', but nothing was thrown";
  } catch (const noisescope::InputError& error) {
    check.message = error.what();
    check.ok = check.message.find(needle) != std::string::npos;
    if (!check.ok) check.message = "InputError does not mention '" + needle + "': " + check.message;
  } catch (const std::exception& other) {
    check.message = "expected InputError mentioning '" + needle + "', got: " + other.what();
  }
  return check;
}

}  // namespace fixtures
