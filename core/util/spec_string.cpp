#include "util/spec_string.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "util/error.h"

namespace noisescope {

std::pair<std::string, std::string> parseKeyValue(const std::string& item,
                                                  const std::string& source) {
  const auto eq = item.find('=');
  if (eq == std::string::npos) throw InputError(source, "'" + item + "' is not key=value");
  if (eq == 0) throw InputError(source, "'" + item + "' has an empty key");
  return {item.substr(0, eq), item.substr(eq + 1)};
}

SpecString parseSpecString(const std::string& text) {
  SpecString spec;
  spec.text = text;
  const auto question = text.find('?');
  spec.head = text.substr(0, question);
  if (question == std::string::npos) return spec;
  const std::string query = text.substr(question + 1);
  size_t begin = 0;
  while (begin < query.size()) {
    size_t end = query.find('&', begin);
    if (end == std::string::npos) end = query.size();
    const std::string pair = query.substr(begin, end - begin);
    begin = end + 1;
    if (pair.empty()) continue;
    auto kv = parseKeyValue(pair, text);
    for (const auto& seen : spec.pairs)
      if (seen.first == kv.first) throw InputError(text, "key '" + kv.first + "' is given twice");
    spec.pairs.push_back(std::move(kv));
  }
  return spec;
}

double specNumber(const std::string& source, const std::string& key, const std::string& value) {
  errno = 0;
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(number))
    throw InputError(source, key + "=" + value + " is not a finite number");
  return number;
}

int64_t specInteger(const std::string& source, const std::string& key, const std::string& value,
                    int64_t minimum, int64_t maximum) {
  errno = 0;
  char* end = nullptr;
  const long long number = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE)
    throw InputError(source, key + "=" + value + " is not an integer");
  if (number < minimum || number > maximum)
    throw InputError(source, key + "=" + value + " is outside [" + std::to_string(minimum) + ", " +
                                 std::to_string(maximum) + "]");
  return number;
}

}  // namespace noisescope
