#pragma once
// Draws samples the way a person expects to see them: images as images, one-hot DNA as a coloured
// base strip, 2-D point sets as a scatter plot. The GUI and the headless report both draw through
// these functions, so what the report shows is what the workbench shows.
#include <cstdint>
#include <utility>
#include <vector>

#include "data/dataset.h"

namespace noisescope {

struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // RGB888, row-major, width * height * 3

  RgbImage() = default;
  RgbImage(int w, int h, uint8_t fill = 255);
  void set(int x, int y, uint8_t r, uint8_t g, uint8_t b);
  // Copies another image into this one with its top-left corner at (x, y), clipped.
  void blit(const RgbImage& source, int x, int y);
};

// The fixed noise ε of one sample: the same (seed, index) always gives the same ε, so moving σ
// redraws the same noise pattern, only scaled.
std::vector<float> sampleNoise(int64_t dimension, uint64_t seed, int64_t index);
// x + σ·ε for one sample.
std::vector<float> noisySample(const Dataset& dataset, int64_t index, double sigma, uint64_t seed);

// One sample (its values given, e.g. noisy) drawn at its natural size: an image C×H×W (values in
// [−1, 1] shown black..white, clamped), or a sequence L×4 as a strip (argmax base colour on top,
// one row per base below). Other kinds are drawn as a bar of values.
RgbImage renderSample(const Dataset& dataset, const float* values);

// The signal-scaled view's factor: a noisy sample y = x + σ·ε drawn as y·σ_data/√(σ_data² + σ²),
// the network input c_in(σ)·y of EDM's preconditioning (THEORY §4) brought back to the data's own
// contrast (×σ_data). Clean data (σ = 0) is drawn as it is; at large σ the noise no longer
// saturates every pixel, so the signal left in it shows: at σ = 5 a fifth of the noise, at σ = 80
// an eightieth, where the clipped view draws both as the same black-and-white static.
double signalScaledGain(double sigma, double sigmaData);

// A grid of the given samples with noise level σ, each cell scaled up by an integer factor. Each
// noisy value is multiplied by `gain` before it is drawn (1: as it is; signalScaledGain: the
// signal-scaled view). `cellOrigins`, when given, receives each cell's top-left pixel in the grid.
RgbImage renderSampleGrid(const Dataset& dataset, const std::vector<int64_t>& indices, double sigma,
                          uint64_t seed, int columns, int scale, double gain = 1.0,
                          std::vector<std::pair<int, int>>* cellOrigins = nullptr);

// Scatter plot of the first two coordinates of the given samples with noise level σ; the clean
// points are drawn in light grey behind the noisy ones. The view fits the noisy points.
RgbImage renderScatter(const Dataset& dataset, const std::vector<int64_t>& indices, double sigma,
                       uint64_t seed, int sizePixels);

// Base colours used for DNA everywhere (A, C, G, T).
void baseColour(int base, uint8_t& r, uint8_t& g, uint8_t& b);

}  // namespace noisescope
