#pragma once
// Internal to the io library: the text-file plumbing its readers share — the whole file as text
// with a size limit, JSON parsing with errors that name the file, and the CSV tables NoiseScope
// writes (a header row, numeric rows, '#' lines carrying "key: value" metadata).
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace noisescope::io_internal {

struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::vector<std::pair<std::string, std::string>> meta;

  int column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == name) return static_cast<int>(i);
    return -1;
  }
  std::vector<double> values(int c) const {
    std::vector<double> out;
    for (const auto& r : rows) out.push_back(r[c]);
    return out;
  }
  std::string metaValue(const std::string& key, const std::string& fallback) const {
    for (const auto& [k, v] : meta)
      if (k == key) return v;
    return fallback;
  }
};

// InputError(source, …) naming the line for a ragged row or a cell that is not a finite number;
// also for a file without a header or without data rows.
CsvTable parseCsv(const std::string& content, const std::string& source);
// The column's index, or InputError(source, "missing column 'NAME'").
int requireColumn(const CsvTable& table, const std::string& name, const std::string& source);

// True when the first non-blank character opens a JSON object or array.
bool looksLikeJson(const std::string& content);
// A JSON object, or InputError(source, "not valid JSON" / "… is not an object").
nlohmann::json parseJson(const std::string& content, const std::string& source);

// The whole file as text; InputError naming the path when it cannot be read or exceeds 1 GiB.
std::string readTextFile(const std::string& path);

}  // namespace noisescope::io_internal
