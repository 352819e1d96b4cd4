#include "render/chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "render/palette.h"
#include "render/png_writer.h"
#include "render/sample_image.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace noisescope::render {

using namespace schedule;

namespace {

using Colour = render::Rgb;
Colour colourOf(std::size_t i) {
  return render::seriesColour(static_cast<int>(i));
}
// Interval bands behind their line.
Colour paler(Colour c) {
  return render::paler(c, 0.8);
}

std::string hex(Colour c) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", c.r, c.g, c.b);
  return buffer;
}

std::string tickLabel(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buffer;
}

// Everything both renderers need: plot rectangle, ranges, ticks and the data → pixel maps.
struct Layout {
  double left = 80, top = 50, right = 0, bottom = 0;
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1, w0 = 0, w1 = 1;  // data ranges (x in log10 if logX)
  bool logX = false, hasStems = false, hasLines = false;
  std::vector<double> xTicks, yTicks, wTicks;

  double px(double x) const {
    const double v = logX ? std::log10(x) : x;
    return left + (v - x0) / (x1 - x0) * (right - left);
  }
  double py(double y) const { return bottom - (y - y0) / (y1 - y0) * (bottom - top); }
  double pw(double w) const { return bottom - (w - w0) / (w1 - w0) * (bottom - top); }
};

std::vector<double> niceTicks(double lo, double hi, int target) {
  const double span = hi - lo;
  if (!(span > 0)) return {lo};
  const double raw = span / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step)
    ticks.push_back(t);
  return ticks;
}

Layout layoutOf(const ChartSpec& chart) {
  Layout l;
  l.right = chart.width - 300.0;
  l.bottom = chart.height - 60.0;
  l.logX = chart.logX;
  double xmin = INFINITY, xmax = -INFINITY, ymax = 0, wmax = 0;
  for (const auto& s : chart.series) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) || (l.logX && !(s.x[i] > 0))) continue;
      const double x = l.logX ? std::log10(s.x[i]) : s.x[i];
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      (s.stems ? wmax : ymax) = std::max(s.stems ? wmax : ymax, s.y[i]);
      if (s.hasBand() && std::isfinite(s.high[i])) ymax = std::max(ymax, s.high[i]);
    }
    (s.stems ? l.hasStems : l.hasLines) = true;
  }
  if (!(xmax > xmin)) {
    xmin = std::isfinite(xmin) ? xmin - 1 : 0;
    xmax = xmin + 2;
  }
  l.x0 = xmin;
  l.x1 = xmax;
  l.y1 = ymax > 0 ? ymax * 1.08 : 1.0;
  l.w1 = wmax > 0 ? std::min(1.0, wmax * 1.08) : 1.0;
  if (l.logX) {
    for (double d = std::ceil(xmin); d <= xmax + 1e-9; d += 1.0)
      l.xTicks.push_back(std::pow(10.0, d));
  } else {
    l.xTicks = niceTicks(xmin, xmax, 8);
  }
  l.yTicks = niceTicks(0, l.y1, 6);
  l.wTicks = niceTicks(0, l.w1, 5);
  return l;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// ----------------------------------------------------------------------------- bitmap text (PNG)

// 5×7 glyphs, one byte per row, bit 4 = leftmost column.
struct Glyph {
  char c;
  uint8_t rows[7];
};
const Glyph kGlyphs[] = {
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}},
    {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}},
    {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}},
    {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}},
    {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}},
    {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {'A', {0x0E, 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11}},
    {'B', {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E}},
    {'C', {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E}},
    {'D', {0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C}},
    {'E', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}},
    {'F', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}},
    {'G', {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F}},
    {'H', {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
    {'I', {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'J', {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C}},
    {'K', {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}},
    {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F}},
    {'M', {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}},
    {'N', {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}},
    {'O', {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
    {'P', {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}},
    {'Q', {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}},
    {'R', {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11}},
    {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}},
    {'T', {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
    {'V', {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04}},
    {'W', {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A}},
    {'X', {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11}},
    {'Y', {0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04}},
    {'Z', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}},
    {',', {0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08}},
    {'-', {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}},
    {'+', {0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00}},
    {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
    {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}},
    {'/', {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}},
    {'=', {0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00}},
    {'%', {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}},
    {':', {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00}},
    {'*', {0x00, 0x04, 0x15, 0x0E, 0x15, 0x04, 0x00}},
    {'[', {0x0E, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0E}},
    {']', {0x0E, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0E}},
    {'_', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F}},
    {'#', {0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A}},
    {'<', {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02}},
    {'>', {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08}},
    {'^', {0x04, 0x0A, 0x11, 0x00, 0x00, 0x00, 0x00}},
    {'|', {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'~', {0x00, 0x00, 0x08, 0x15, 0x02, 0x00, 0x00}},
    {'\'', {0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00}},
};

const uint8_t* glyphRows(char c) {
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  for (const Glyph& g : kGlyphs)
    if (g.c == c) return g.rows;
  return nullptr;
}

// Non-ASCII symbols the charts use, spelled in ASCII for the bitmap font.
std::string asciiSpelling(const std::string& s) {
  static const std::pair<const char*, const char*> kMap[] = {
      {"σ", "sigma"}, {"φ", "phi"}, {"π", "pi"},  {"λ", "lambda"}, {"ρ", "rho"}, {"√", "sqrt"},
      {"ℓ", "l"},     {"·", "*"},   {"−", "-"},   {"∝", "~"},      {"²", "^2"},  {"‖", "||"},
      {"≥", ">="},    {"≤", "<="},  {"ε", "eps"}, {"γ", "gamma"},  {"ν", "nu"},  {"—", "-"},
      {"×", "x"},     {"…", "..."}, {"∈", "in"},  {"ⁿ", "^n"},     {"⁻", "^-"},  {"¹", "1"},
      {"β", "beta_"}, {"½", "1/2"}, {"∞", "inf"}};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += s[i++];
      continue;
    }
    bool found = false;
    for (const auto& [from, to] : kMap) {
      const std::size_t n = std::char_traits<char>::length(from);
      if (s.compare(i, n, from) == 0) {
        out += to;
        i += n;
        found = true;
        break;
      }
    }
    if (!found) {
      out += '?';
      ++i;
      while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    }
  }
  return out;
}

struct Raster {
  RgbImage image;
  void dot(int x, int y, Colour c) {
    if (x >= 0 && y >= 0 && x < image.width && y < image.height) image.set(x, y, c.r, c.g, c.b);
  }
  void line(double xa, double ya, double xb, double yb, Colour c, int thickness = 1) {
    const int steps = static_cast<int>(std::max(std::abs(xb - xa), std::abs(yb - ya))) + 1;
    for (int i = 0; i <= steps; ++i) {
      const double t = static_cast<double>(i) / steps;
      const int x = static_cast<int>(std::lround(xa + t * (xb - xa)));
      const int y = static_cast<int>(std::lround(ya + t * (yb - ya)));
      for (int dx = 0; dx < thickness; ++dx)
        for (int dy = 0; dy < thickness; ++dy)
          dot(x + dx - thickness / 2, y + dy - thickness / 2, c);
    }
  }
  void fill(double x0, double y0, double x1, double y1, Colour c) {
    for (int y = static_cast<int>(std::min(y0, y1)); y <= static_cast<int>(std::max(y0, y1)); ++y)
      for (int x = static_cast<int>(std::min(x0, x1)); x <= static_cast<int>(std::max(x0, x1)); ++x)
        dot(x, y, c);
  }
  // The series' interval, column by column, linearly interpolated between its points.
  void band(const Layout& l, const ChartSeries& s, Colour c) {
    auto clampY = [&](double v) { return l.py(std::max(0.0, std::min(v, l.y1))); };
    for (std::size_t k = 0; k + 1 < s.x.size(); ++k) {
      if (!std::isfinite(s.low[k]) || !std::isfinite(s.high[k]) || !std::isfinite(s.low[k + 1]) ||
          !std::isfinite(s.high[k + 1]) || (l.logX && !(s.x[k] > 0 && s.x[k + 1] > 0)))
        continue;
      const double xa = l.px(s.x[k]), xb = l.px(s.x[k + 1]);
      for (int x = static_cast<int>(std::ceil(std::min(xa, xb)));
           x <= static_cast<int>(std::floor(std::max(xa, xb))); ++x) {
        const double t = xb == xa ? 0.0 : (x - xa) / (xb - xa);
        const double lo = clampY(s.low[k] + t * (s.low[k + 1] - s.low[k]));
        const double hi = clampY(s.high[k] + t * (s.high[k + 1] - s.high[k]));
        fill(x, hi, x, lo, c);
      }
    }
  }
  int textWidth(const std::string& s, int scale) const {
    return static_cast<int>(asciiSpelling(s).size()) * 6 * scale;
  }
  // (x, y) is the left end of the baseline; anchor 0 left, 1 centre, 2 right.
  void text(const std::string& s, double x, double y, Colour c, int anchor = 0, int scale = 1) {
    const std::string ascii = asciiSpelling(s);
    int cx = static_cast<int>(x) - (anchor == 1   ? textWidth(s, scale) / 2
                                    : anchor == 2 ? textWidth(s, scale)
                                                  : 0);
    const int top = static_cast<int>(y) - 7 * scale;
    for (char ch : ascii) {
      if (const uint8_t* rows = glyphRows(ch))
        for (int r = 0; r < 7; ++r)
          for (int col = 0; col < 5; ++col)
            if (rows[r] & (0x10 >> col))
              for (int sx = 0; sx < scale; ++sx)
                for (int sy = 0; sy < scale; ++sy)
                  dot(cx + col * scale + sx, top + r * scale + sy, c);
      cx += 6 * scale;
    }
  }
};

}  // namespace

std::string renderSvg(const ChartSpec& chart) {
  const Layout l = layoutOf(chart);
  std::ostringstream o;
  o.precision(6);
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << chart.width << "\" height=\""
    << chart.height << "\" viewBox=\"0 0 " << chart.width << ' ' << chart.height
    << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << chart.width / 2 << "\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">"
    << escape(chart.title) << "</text>\n";
  for (const auto& band : chart.bands) {
    const double a = l.px(band.x0), b = l.px(band.x1);
    o << "<rect x=\"" << std::min(a, b) << "\" y=\"" << l.top << "\" width=\"" << std::abs(b - a)
      << "\" height=\"" << l.bottom - l.top << "\" fill=\"" << hex(render::kBandFill)
      << "\" fill-opacity=\"0.5\"/>\n"
      << "<text x=\"" << (a + b) / 2 << "\" y=\"" << l.top + 14
      << "\" text-anchor=\"middle\" fill=\"" << hex(render::kBandText) << "\">"
      << escape(band.label) << "</text>\n";
  }
  // Grid, ticks and labels.
  for (double t : l.xTicks) {
    const double x = l.px(t);
    o << "<line x1=\"" << x << "\" y1=\"" << l.top << "\" x2=\"" << x << "\" y2=\"" << l.bottom
      << "\" stroke=\"" << hex(render::kGridLine) << "\"/>\n<text x=\"" << x << "\" y=\""
      << l.bottom + 18 << "\" text-anchor=\"middle\">" << tickLabel(t) << "</text>\n";
  }
  if (l.hasLines)
    for (double t : l.yTicks) {
      const double y = l.py(t);
      o << "<line x1=\"" << l.left << "\" y1=\"" << y << "\" x2=\"" << l.right << "\" y2=\"" << y
        << "\" stroke=\"" << hex(render::kGridLine) << "\"/>\n<text x=\"" << l.left - 6 << "\" y=\""
        << y + 4 << "\" text-anchor=\"end\">" << tickLabel(t) << "</text>\n";
    }
  if (l.hasStems)
    for (double t : l.wTicks)
      o << "<text x=\"" << l.right + 6 << "\" y=\"" << l.pw(t) + 4 << "\">" << tickLabel(t)
        << "</text>\n";
  o << "<rect x=\"" << l.left << "\" y=\"" << l.top << "\" width=\"" << l.right - l.left
    << "\" height=\"" << l.bottom - l.top << "\" fill=\"none\" stroke=\"#333\"/>\n";
  o << "<text x=\"" << (l.left + l.right) / 2 << "\" y=\"" << chart.height - 18
    << "\" text-anchor=\"middle\">" << escape(chart.xLabel) << "</text>\n";
  o << "<text transform=\"translate(20," << (l.top + l.bottom) / 2
    << ") rotate(-90)\" text-anchor=\"middle\">"
    << escape(l.hasLines ? chart.yLabel : "atom weight") << "</text>\n";
  if (l.hasStems && l.hasLines)
    o << "<text transform=\"translate(" << l.right + 44 << ',' << (l.top + l.bottom) / 2
      << ") rotate(90)\" text-anchor=\"middle\">atom weight (stems)</text>\n";
  // Interval bands first, so that every line stays visible on top of them.
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& s = chart.series[i];
    if (!s.hasBand()) continue;
    o << "<polygon fill=\"" << hex(colourOf(i))
      << "\" fill-opacity=\"0.18\" stroke=\"none\" points=\"";
    for (std::size_t k = 0; k < s.x.size(); ++k)
      if (std::isfinite(s.high[k]) && (!l.logX || s.x[k] > 0))
        o << l.px(s.x[k]) << ',' << l.py(std::min(s.high[k], l.y1)) << ' ';
    for (std::size_t k = s.x.size(); k-- > 0;)
      if (std::isfinite(s.low[k]) && (!l.logX || s.x[k] > 0))
        o << l.px(s.x[k]) << ',' << l.py(std::max(0.0, std::min(s.low[k], l.y1))) << ' ';
    o << "\"/>\n";
  }
  // Series.
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& s = chart.series[i];
    const std::string colour = hex(colourOf(i));
    if (s.stems) {
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        const double x = l.px(s.x[k]), y = (l.hasLines ? l.pw(s.y[k]) : l.pw(s.y[k]));
        o << "<line x1=\"" << x << "\" y1=\"" << l.bottom << "\" x2=\"" << x << "\" y2=\"" << y
          << "\" stroke=\"" << colour << "\" stroke-width=\"2.5\"/>\n<circle cx=\"" << x
          << "\" cy=\"" << y << "\" r=\"4\" fill=\"" << colour << "\"/>\n";
      }
    } else {
      o << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\""
        << (s.dashed ? " stroke-dasharray=\"6 4\"" : "") << " points=\"";
      for (std::size_t k = 0; k < s.x.size(); ++k)
        if (std::isfinite(s.y[k]) && (!l.logX || s.x[k] > 0))
          o << l.px(s.x[k]) << ',' << l.py(std::min(s.y[k], l.y1)) << ' ';
      o << "\"/>\n";
    }
    const double ly = l.top + 10 + 20 * static_cast<double>(i);
    o << "<line x1=\"" << l.right + 62 << "\" y1=\"" << ly << "\" x2=\"" << l.right + 84
      << "\" y2=\"" << ly << "\" stroke=\"" << colour << "\" stroke-width=\"" << (s.stems ? 4 : 2)
      << "\"/>\n<text x=\"" << l.right + 90 << "\" y=\"" << ly + 4 << "\">" << escape(s.label)
      << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

void renderPng(const ChartSpec& chart, const std::string& path) {
  const Layout l = layoutOf(chart);
  Raster r;
  r.image = RgbImage(chart.width, chart.height, 255);
  const Colour ink{40, 40, 40}, grid = render::kGridLine,
                                band = render::paler(render::kBandFill, 0.5);
  r.text(chart.title, chart.width / 2.0, 30, ink, 1, 2);
  for (const auto& b : chart.bands) {
    r.fill(l.px(b.x0), l.top, l.px(b.x1), l.bottom, band);
    r.text(b.label, (l.px(b.x0) + l.px(b.x1)) / 2, l.top + 14, {138, 122, 32}, 1);
  }
  for (double t : l.xTicks) {
    r.line(l.px(t), l.top, l.px(t), l.bottom, grid);
    r.text(tickLabel(t), l.px(t), l.bottom + 18, ink, 1);
  }
  if (l.hasLines)
    for (double t : l.yTicks) {
      r.line(l.left, l.py(t), l.right, l.py(t), grid);
      r.text(tickLabel(t), l.left - 6, l.py(t) + 4, ink, 2);
    }
  if (l.hasStems)
    for (double t : l.wTicks) r.text(tickLabel(t), l.right + 6, l.pw(t) + 4, ink);
  r.line(l.left, l.top, l.right, l.top, ink);
  r.line(l.left, l.bottom, l.right, l.bottom, ink);
  r.line(l.left, l.top, l.left, l.bottom, ink);
  r.line(l.right, l.top, l.right, l.bottom, ink);
  r.text(chart.xLabel, (l.left + l.right) / 2, chart.height - 18, ink, 1);
  r.text(l.hasLines ? chart.yLabel : "atom weight", 8, l.top - 10, ink);
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& s = chart.series[i];
    if (s.hasBand()) r.band(l, s, paler(colourOf(i)));
  }
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& s = chart.series[i];
    const Colour c = colourOf(i);
    if (s.stems) {
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        r.line(l.px(s.x[k]), l.bottom, l.px(s.x[k]), l.pw(s.y[k]), c, 3);
        r.fill(l.px(s.x[k]) - 3, l.pw(s.y[k]) - 3, l.px(s.x[k]) + 3, l.pw(s.y[k]) + 3, c);
      }
    } else {
      bool havePrevious = false;
      double xp = 0, yp = 0;
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        if (!std::isfinite(s.y[k]) || (l.logX && !(s.x[k] > 0))) continue;
        const double x = l.px(s.x[k]), y = l.py(std::min(s.y[k], l.y1));
        if (havePrevious) r.line(xp, yp, x, y, c, 2);
        xp = x;
        yp = y;
        havePrevious = true;
      }
    }
    const double ly = l.top + 10 + 20 * static_cast<double>(i);
    r.line(l.right + 62, ly, l.right + 84, ly, c, s.stems ? 4 : 2);
    std::string legend = asciiSpelling(s.label);
    const std::size_t room =
        static_cast<std::size_t>(std::max(4.0, (chart.width - l.right - 96) / 6));
    if (legend.size() > room) legend = legend.substr(0, room - 2) + "..";
    r.text(legend, l.right + 90, ly + 4, ink);
  }
  writePng(path, r.image);
}

ChartSpec scheduleChart(const std::vector<Schedule>& schedules,
                        const std::vector<std::string>& labels, const LogSigmaGrid& grid,
                        Coordinate coordinate, Curve curve, double bandLow, double bandHigh) {
  ChartSpec chart;
  const char* what = curve == Curve::Sampling     ? "sampling density π"
                     : curve == Curve::Weight     ? "loss weight w(σ)"
                     : curve == Curve::Allocation ? "effective allocation φ ∝ π·w"
                                                  : "CDF of π";
  chart.title = what;
  chart.xLabel = axisLabel(coordinate);
  chart.logX = coordinate == Coordinate::Sigma;
  chart.yLabel = curve == Curve::Weight ? "w (x0 space)"
                 : curve == Curve::Cdf  ? "P(σ' ≤ σ)"
                                        : std::string("density per unit ") + axisLabel(coordinate);
  for (std::size_t i = 0; i < schedules.size(); ++i) {
    const Schedule& s = schedules[i];
    ChartSeries series;
    series.label = i < labels.size() ? labels[i] : s.info.label;
    if (s.isAtomic() && (curve == Curve::Sampling || curve == Curve::Allocation)) {
      const Schedule shown = curve == Curve::Allocation ? effectiveAllocation(s) : s;
      series.stems = true;
      for (const Atom& a : shown.atoms()) {
        series.x.push_back(fromLogSigma(std::log(a.sigma), coordinate));
        series.y.push_back(a.weight);
      }
    } else {
      const CurveTable t = evaluateCurves(s, grid, coordinate);
      series.x = t.coordinateValue;
      series.y = curve == Curve::Sampling     ? t.sampling
                 : curve == Curve::Weight     ? t.weight
                 : curve == Curve::Allocation ? t.allocation
                                              : t.cdf;
    }
    chart.series.push_back(std::move(series));
  }
  if (bandHigh > bandLow && bandLow > 0)
    chart.bands.push_back({"informative band (90% of ρ)",
                           fromLogSigma(std::log(bandLow), coordinate),
                           fromLogSigma(std::log(bandHigh), coordinate)});
  return chart;
}

void writeChart(const std::string& path, const ChartSpec& chart) {
  const auto dot = path.find_last_of('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (ext == "svg" || ext == "SVG") {
    writeFileAtomically(path, renderSvg(chart));
  } else if (ext == "png" || ext == "PNG") {
    renderPng(chart, path);
  } else {
    throw InputError(path, "chart files must end in .svg or .png");
  }
}

}  // namespace noisescope::render
