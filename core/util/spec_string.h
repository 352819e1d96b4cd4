#pragma once
// The one parser of "name?key=value&key=value" strings: schedule specs ("family:edm?p_mean=-1"),
// synthetic datasets ("synthetic:dirac-mixture?n=64&d=2"), key=value flags. It splits and checks
// the syntax; what the keys mean is the caller's business.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace noisescope {

struct SpecString {
  std::string text;                                        // the whole string, for error messages
  std::string head;                                        // before '?'
  std::vector<std::pair<std::string, std::string>> pairs;  // in order; keys unique
};

// Throws InputError(text, …) for a pair without '=', an empty key, or a key given twice.
// Empty pairs ("a=1&&b=2", a trailing '&') are skipped.
SpecString parseSpecString(const std::string& text);

// One "key=value" item (a repeatable flag such as --param): key and value, or InputError(source).
std::pair<std::string, std::string> parseKeyValue(const std::string& item,
                                                  const std::string& source);

// Strict number parsing for spec values: the whole text must be a finite number (an integer in
// [minimum, maximum] for specInteger). InputError(source, "key=value is not …") otherwise.
double specNumber(const std::string& source, const std::string& key, const std::string& value);
int64_t specInteger(const std::string& source, const std::string& key, const std::string& value,
                    int64_t minimum, int64_t maximum);

}  // namespace noisescope
