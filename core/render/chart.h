#pragma once
// Line charts of schedules written without a GUI: SVG (text, axes, legend) and a PNG raster of the
// same chart (lines, stems, axes and ticks with a small built-in bitmap font).
#include <string>
#include <vector>

#include "schedule/allocation.h"
#include "schedule/schedule.h"

namespace noisescope::render {

using schedule::Coordinate;
using schedule::Curve;
using schedule::LogSigmaGrid;
using schedule::Schedule;

struct ChartSeries {
  std::string label;
  std::vector<double> x, y;
  bool stems = false;   // atoms: vertical stems, drawn against the right axis ("atom weight")
  bool dashed = false;  // a reference line (a floor, a bound): dashed in SVG and in the GUI
  // Optional interval around a line (e.g. a 95 % interval), same length as x: drawn as a pale
  // band in the series' colour behind the line.
  std::vector<double> low, high;
  bool hasBand() const { return !stems && low.size() == x.size() && high.size() == x.size(); }
};

struct ChartBand {
  std::string label;
  double x0 = 0.0, x1 = 0.0;
};

struct ChartSpec {
  std::string title;
  std::string xLabel, yLabel;
  bool logX = false;
  std::vector<ChartSeries> series;
  std::vector<ChartBand> bands;
  int width = 960, height = 540;
};

std::string renderSvg(const ChartSpec& chart);
// RGB raster of the chart (same layout; labels in a 5×7 bitmap font, ASCII only: non-ASCII
// characters such as σ are drawn as their closest ASCII spelling).
void renderPng(const ChartSpec& chart, const std::string& path);

// The chart of one curve (π, w, φ or CDF) of several schedules in a chosen coordinate, evaluated on
// `grid`; atomic schedules become stems of their atom weights (φ: the allocation's weights).
// `band` (optional, σ range) is shaded, e.g. the informative band of a profile.
ChartSpec scheduleChart(const std::vector<Schedule>& schedules,
                        const std::vector<std::string>& labels, const LogSigmaGrid& grid,
                        Coordinate coordinate, Curve curve, double bandLow = 0.0,
                        double bandHigh = 0.0);

// Writes SVG or PNG by the path's extension (.svg / .png), atomically; InputError otherwise.
void writeChart(const std::string& path, const ChartSpec& chart);

}  // namespace noisescope::render
