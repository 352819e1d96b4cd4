#include "render/palette.h"

namespace noisescope::render {
namespace {

// Distinct at a glance on white and in print; the first three are the usual blue, red, green.
constexpr Rgb kSeries[] = {{31, 111, 235}, {207, 34, 46}, {46, 160, 67},   {214, 150, 0},
                           {130, 80, 223}, {0, 150, 160}, {120, 120, 120}, {230, 100, 170},
                           {140, 86, 75},  {188, 189, 34}};
constexpr int kSeriesCount = sizeof kSeries / sizeof kSeries[0];

}  // namespace

Rgb seriesColour(int index) {
  const int i = index % kSeriesCount;
  return kSeries[i < 0 ? i + kSeriesCount : i];
}

Rgb paler(Rgb colour, double towardsWhite) {
  auto mix = [towardsWhite](uint8_t v) {
    return static_cast<uint8_t>(v + (255 - v) * towardsWhite);
  };
  return {mix(colour.r), mix(colour.g), mix(colour.b)};
}

}  // namespace noisescope::render
