// The comparison's two text forms: a fixed-width table for a terminal and the CSV both faces
// write (docs/file-formats.md).
#include "io/comparison_io.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace noisescope::schedule {

namespace {
std::string formatNumber(double v, const char* format = "%.4g") {
  if (std::isnan(v)) return "—";
  if (std::isinf(v)) return "inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

// Display width: UTF-8 code points, not bytes.
std::size_t displayWidth(const std::string& s) {
  std::size_t points = 0;
  for (unsigned char ch : s) points += (ch & 0xC0) != 0x80;
  return points;
}

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t w = displayWidth(s);
  return s + std::string(width > w ? width - w : 0, ' ');
}
}  // namespace

std::string formatComparisonTable(const Comparison& c) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"schedule", "KL(φ‖ref)", "KL(ref‖φ)", "TV", "Hellinger", "in band", "low rate",
                  "σ 5%", "σ median", "σ 95%", "truncated"});
  for (const auto& m : c.metrics)
    rows.push_back({m.label + (m.atomic ? " (atomic)" : ""), formatNumber(m.klToReference),
                    formatNumber(m.klFromReference), formatNumber(m.totalVariation),
                    formatNumber(m.hellinger), formatNumber(m.massInBand, "%.3f"),
                    formatNumber(m.massLowRate, "%.3f"), formatNumber(m.sigmaQ05),
                    formatNumber(m.sigmaMedian), formatNumber(m.sigmaQ95),
                    formatNumber(m.truncatedMass, "%.2e")});
  std::vector<std::size_t> widths(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) widths[i] = std::max(widths[i], displayWidth(r[i]));
  std::ostringstream out;
  out << "effective allocation φ ∝ π·w on " << c.grid.bins() << " log-σ bins ["
      << formatNumber(c.grid.sigmaMin()) << ", " << formatNumber(c.grid.sigmaMax())
      << "]; reference: " << c.labels[c.reference] << "\n";
  if (c.hasProfile)
    out << "informative band (central 90% of ρ): σ ∈ [" << formatNumber(c.bandLow) << ", "
        << formatNumber(c.bandHigh) << "]\n";
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) out << pad(r[i], widths[i] + 2);
    out << "\n";
  }
  return out.str();
}

std::string comparisonToCsv(const Comparison& c) {
  std::ostringstream out;
  out.precision(10);
  out << "schedule,atomic,kl_to_reference,kl_from_reference,total_variation,hellinger,mass_in_band,"
         "mass_low_rate,sigma_q05,sigma_median,sigma_q95,truncated_mass\n";
  for (const auto& m : c.metrics) {
    std::string label = m.label;
    std::replace(label.begin(), label.end(), ',', ';');
    out << '"' << label << "\"," << (m.atomic ? 1 : 0) << ',' << m.klToReference << ','
        << m.klFromReference << ',' << m.totalVariation << ',' << m.hellinger << ',' << m.massInBand
        << ',' << m.massLowRate << ',' << m.sigmaQ05 << ',' << m.sigmaMedian << ',' << m.sigmaQ95
        << ',' << m.truncatedMass << '\n';
  }
  return out.str();
}

}  // namespace noisescope::schedule
