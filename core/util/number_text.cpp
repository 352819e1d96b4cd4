#include "util/number_text.h"

#include <cstdio>
#include <cstdlib>

namespace noisescope {

std::string numberText(double value, int significant) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*g", significant, value);
  return text;
}

std::string shortestNumberText(double value) {
  char text[48];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

}  // namespace noisescope
