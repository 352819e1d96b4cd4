#pragma once
// The one palette: every chart NoiseScope draws, on screen (ui/curve_chart) or to a file
// (render/chart), gives its n-th series the same colour, so a schedule looks the same everywhere.
#include <cstdint>

namespace noisescope::render {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
};

// The colour of series `index` (≥ 0; the palette repeats after its last colour).
Rgb seriesColour(int index);

// `colour` moved `towardsWhite` (0…1) of the way to white: interval bands behind their line.
Rgb paler(Rgb colour, double towardsWhite);

// The shaded informative band and its label, and the grid lines.
inline constexpr Rgb kBandFill{242, 230, 160};
inline constexpr Rgb kBandText{138, 122, 32};
inline constexpr Rgb kGridLine{230, 230, 230};

}  // namespace noisescope::render
