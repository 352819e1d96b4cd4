#include "io/text_table.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/error.h"

namespace noisescope::io_internal {

using nlohmann::json;

namespace {
std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\"");
  if (a == std::string::npos) return {};
  const auto b = s.find_last_not_of(" \t\r\"");
  return s.substr(a, b - a + 1);
}

}  // namespace

CsvTable parseCsv(const std::string& content, const std::string& source) {
  CsvTable t;
  std::istringstream in(content);
  std::string line;
  int lineNumber = 0;
  while (std::getline(in, line)) {
    ++lineNumber;
    if (trim(line).empty()) continue;
    if (line[0] == '#') {
      const auto colon = line.find(':');
      if (colon != std::string::npos)
        t.meta.emplace_back(trim(line.substr(1, colon - 1)), trim(line.substr(colon + 1)));
      continue;
    }
    std::vector<std::string> cells;
    std::stringstream cellStream(line);
    std::string cell;
    while (std::getline(cellStream, cell, ',')) cells.push_back(trim(cell));
    if (t.columns.empty()) {
      t.columns = cells;
      continue;
    }
    if (cells.size() != t.columns.size())
      throw InputError(source, "line " + std::to_string(lineNumber) + " has " +
                                   std::to_string(cells.size()) + " cells, the header has " +
                                   std::to_string(t.columns.size()));
    std::vector<double> row;
    for (const auto& c : cells) {
      char* end = nullptr;
      const double v = std::strtod(c.c_str(), &end);
      if (c.empty() || end != c.c_str() + c.size() || !std::isfinite(v))
        throw InputError(
            source, "line " + std::to_string(lineNumber) + ": '" + c + "' is not a finite number");
      row.push_back(v);
    }
    t.rows.push_back(std::move(row));
  }
  if (t.columns.empty()) throw InputError(source, "the CSV file has no header row");
  if (t.rows.empty()) throw InputError(source, "the CSV file has no data rows");
  return t;
}

int requireColumn(const CsvTable& t, const std::string& name, const std::string& source) {
  const int c = t.column(name);
  if (c < 0) throw InputError(source, "missing column '" + name + "'");
  return c;
}

bool looksLikeJson(const std::string& content) {
  const auto first = content.find_first_not_of(" \t\r\n");
  return first != std::string::npos && (content[first] == '{' || content[first] == '[');
}

json parseJson(const std::string& content, const std::string& source) {
  json j = json::parse(content, nullptr, false);
  if (j.is_discarded()) throw InputError(source, "not valid JSON");
  if (!j.is_object()) throw InputError(source, "the JSON document is not an object");
  return j;
}

std::string readTextFile(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(path, "is a directory, not a file");
  if (!std::filesystem::exists(path, error))
    throw InputError(path, "cannot open the file (it does not exist)");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw InputError(path, "cannot open the file");
  const std::streamoff size = in.tellg();
  if (size < 0) throw InputError(path, "cannot read the file");
  if (size > (std::streamoff(1) << 30)) throw InputError(path, "file larger than 1 GiB");
  std::string content(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  in.read(content.data(), size);
  if (!in) throw InputError(path, "cannot read the file");
  return content;
}

}  // namespace noisescope::io_internal
