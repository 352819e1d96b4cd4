#include "render/sample_image.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "schedule/preconditioning.h"

namespace noisescope {

RgbImage::RgbImage(int w, int h, uint8_t fill)
    : width(w), height(h), pixels(static_cast<size_t>(w) * h * 3, fill) {}

void RgbImage::set(int x, int y, uint8_t r, uint8_t g, uint8_t b) {
  if (x < 0 || y < 0 || x >= width || y >= height) return;
  uint8_t* p = pixels.data() + (static_cast<size_t>(y) * width + x) * 3;
  p[0] = r;
  p[1] = g;
  p[2] = b;
}

void RgbImage::blit(const RgbImage& source, int x0, int y0) {
  for (int y = 0; y < source.height; ++y) {
    for (int x = 0; x < source.width; ++x) {
      const uint8_t* s = source.pixels.data() + (static_cast<size_t>(y) * source.width + x) * 3;
      set(x0 + x, y0 + y, s[0], s[1], s[2]);
    }
  }
}

std::vector<float> sampleNoise(int64_t dimension, uint64_t seed, int64_t index) {
  // Mix seed and index so that neighbouring samples get unrelated streams.
  std::seed_seq mix{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                    static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32)};
  std::mt19937_64 rng(mix);
  std::vector<float> noise(static_cast<size_t>(dimension));
  // Box–Muller on our own uniforms keeps the pattern identical across standard libraries.
  const double twoPi = 6.283185307179586;
  for (size_t i = 0; i < noise.size(); i += 2) {
    const double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    const double r = std::sqrt(-2.0 * std::log(u1));
    noise[i] = static_cast<float>(r * std::cos(twoPi * u2));
    if (i + 1 < noise.size()) noise[i + 1] = static_cast<float>(r * std::sin(twoPi * u2));
  }
  return noise;
}

std::vector<float> noisySample(const Dataset& dataset, int64_t index, double sigma, uint64_t seed) {
  const int64_t d = dataset.dim();
  std::vector<float> out(dataset.sample(index), dataset.sample(index) + d);
  if (sigma > 0) {
    const std::vector<float> noise = sampleNoise(d, seed, index);
    for (int64_t i = 0; i < d; ++i) out[i] += static_cast<float>(sigma) * noise[i];
  }
  return out;
}

namespace {

uint8_t toByte(double unitValue) {
  return static_cast<uint8_t>(std::lround(std::clamp(unitValue, 0.0, 1.0) * 255.0));
}

RgbImage renderImage(const Dataset& dataset, const float* values) {
  const int64_t c = dataset.sampleShape[0];
  const int h = static_cast<int>(dataset.sampleShape[1]);
  const int w = static_cast<int>(dataset.sampleShape[2]);
  RgbImage image(w, h);
  const int64_t plane = static_cast<int64_t>(h) * w;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const int64_t at = static_cast<int64_t>(y) * w + x;
      auto channel = [&](int64_t k) { return toByte((values[k * plane + at] + 1.0) * 0.5); };
      if (c >= 3) {
        image.set(x, y, channel(0), channel(1), channel(2));
      } else {
        const uint8_t v = channel(0);
        image.set(x, y, v, v, v);
      }
    }
  }
  return image;
}

// Each position is a column: a header cell in the colour of the strongest base (faded when the
// evidence is weak), then one row per base whose brightness is that channel's value.
RgbImage renderSequence(const float* values, int64_t length) {
  const int header = 4, rowHeight = 2;
  RgbImage image(static_cast<int>(length), header + 4 * rowHeight + 1);
  for (int64_t pos = 0; pos < length; ++pos) {
    const float* v = values + pos * 4;
    int best = 0;
    for (int b = 1; b < 4; ++b)
      if (v[b] > v[best]) best = b;
    float second = -1e30f;
    for (int b = 0; b < 4; ++b)
      if (b != best) second = std::max(second, v[b]);
    // A clean one-hot column has margin 2; fade towards white as the margin shrinks.
    const double strength = std::clamp((v[best] - second) / 2.0, 0.0, 1.0);
    uint8_t r, g, bl;
    baseColour(best, r, g, bl);
    auto fade = [&](uint8_t c) { return toByte((255.0 - (255.0 - c) * strength) / 255.0); };
    for (int y = 0; y < header; ++y)
      image.set(static_cast<int>(pos), y, fade(r), fade(g), fade(bl));
    for (int b = 0; b < 4; ++b) {
      baseColour(b, r, g, bl);
      const double level = std::clamp((v[b] + 1.0) * 0.5, 0.0, 1.0);
      auto shade = [&](uint8_t c) { return toByte((255.0 - (255.0 - c) * level) / 255.0); };
      for (int y = 0; y < rowHeight; ++y)
        image.set(static_cast<int>(pos), header + 1 + b * rowHeight + y, shade(r), shade(g),
                  shade(bl));
    }
  }
  return image;
}

RgbImage renderBars(const float* values, int64_t count) {
  const int height = 32;
  RgbImage image(static_cast<int>(std::max<int64_t>(count, 1)), height);
  for (int64_t i = 0; i < count; ++i) {
    const int top = static_cast<int>(
        std::lround((1.0 - std::clamp((values[i] + 1.0) * 0.5, 0.0, 1.0)) * (height - 1)));
    for (int y = top; y < height; ++y) image.set(static_cast<int>(i), y, 60, 90, 160);
  }
  return image;
}

RgbImage scaleUp(const RgbImage& source, int factor) {
  if (factor <= 1) return source;
  RgbImage out(source.width * factor, source.height * factor);
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      const uint8_t* s =
          source.pixels.data() + (static_cast<size_t>(y / factor) * source.width + x / factor) * 3;
      out.set(x, y, s[0], s[1], s[2]);
    }
  return out;
}

}  // namespace

void baseColour(int base, uint8_t& r, uint8_t& g, uint8_t& b) {
  // A green, C blue, G amber, T red: the usual sequence-viewer convention.
  static const uint8_t colours[4][3] = {
      {46, 160, 67}, {31, 111, 235}, {214, 150, 0}, {207, 34, 46}};
  r = colours[base][0];
  g = colours[base][1];
  b = colours[base][2];
}

RgbImage renderSample(const Dataset& dataset, const float* values) {
  if (dataset.kind == SampleKind::Image && dataset.sampleShape.size() == 3)
    return renderImage(dataset, values);
  if (dataset.kind == SampleKind::Sequence && dataset.sampleShape.size() == 2 &&
      dataset.sampleShape[1] == 4)
    return renderSequence(values, dataset.sampleShape[0]);
  return renderBars(values, dataset.dim());
}

double signalScaledGain(double sigma, double sigmaData) {
  return sigmaData * schedule::EdmPreconditioning{sigmaData}.cIn(sigma);
}

RgbImage renderSampleGrid(const Dataset& dataset, const std::vector<int64_t>& indices, double sigma,
                          uint64_t seed, int columns, int scale, double gain,
                          std::vector<std::pair<int, int>>* cellOrigins) {
  if (cellOrigins) cellOrigins->clear();
  if (indices.empty()) return RgbImage(1, 1);
  std::vector<RgbImage> cells;
  cells.reserve(indices.size());
  int cellW = 0, cellH = 0;
  for (int64_t index : indices) {
    std::vector<float> values = noisySample(dataset, index, sigma, seed);
    if (gain != 1.0)
      for (float& v : values) v = static_cast<float>(v * gain);
    cells.push_back(scaleUp(renderSample(dataset, values.data()), scale));
    cellW = std::max(cellW, cells.back().width);
    cellH = std::max(cellH, cells.back().height);
  }
  columns = std::max(1, std::min<int>(columns, static_cast<int>(cells.size())));
  const int rows = static_cast<int>((cells.size() + columns - 1) / columns);
  const int gap = 2;
  RgbImage grid(columns * (cellW + gap) + gap, rows * (cellH + gap) + gap, 230);
  for (size_t i = 0; i < cells.size(); ++i) {
    const int col = static_cast<int>(i) % columns, row = static_cast<int>(i) / columns;
    grid.blit(cells[i], gap + col * (cellW + gap), gap + row * (cellH + gap));
    if (cellOrigins)
      cellOrigins->emplace_back(gap + col * (cellW + gap), gap + row * (cellH + gap));
  }
  return grid;
}

RgbImage renderScatter(const Dataset& dataset, const std::vector<int64_t>& indices, double sigma,
                       uint64_t seed, int sizePixels) {
  RgbImage image(sizePixels, sizePixels);
  if (indices.empty() || dataset.dim() < 1) return image;
  const bool twoD = dataset.dim() >= 2;
  std::vector<float> clean, noisy;
  for (int64_t index : indices) {
    const float* x = dataset.sample(index);
    const std::vector<float> n = noisySample(dataset, index, sigma, seed);
    clean.push_back(x[0]);
    clean.push_back(twoD ? x[1] : 0.0f);
    noisy.push_back(n[0]);
    noisy.push_back(twoD ? n[1] : 0.0f);
  }
  float lo = clean[0], hi = clean[0];
  for (float v : noisy) lo = std::min(lo, v), hi = std::max(hi, v);
  for (float v : clean) lo = std::min(lo, v), hi = std::max(hi, v);
  const float pad = 0.05f * (hi - lo) + 1e-6f;
  lo -= pad;
  hi += pad;
  auto toPixel = [&](float v) {
    return static_cast<int>((v - lo) / (hi - lo) * static_cast<float>(sizePixels - 1));
  };
  auto dot = [&](float x, float y, uint8_t r, uint8_t g, uint8_t b) {
    const int px = toPixel(x), py = sizePixels - 1 - toPixel(y);
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) image.set(px + dx, py + dy, r, g, b);
  };
  for (size_t i = 0; i < clean.size(); i += 2) dot(clean[i], clean[i + 1], 200, 200, 200);
  for (size_t i = 0; i < noisy.size(); i += 2) dot(noisy[i], noisy[i + 1], 31, 111, 235);
  return image;
}

}  // namespace noisescope
