#pragma once
// Numbers as text for messages, provenance and file names: one rule for each precision.
#include <string>

namespace noisescope {

// printf's %.{significant}g: "%.10g" for values written into specs and provenance, "%.3g" for
// messages.
std::string numberText(double value, int significant);

// The shortest decimal text that reads back as the same double ("0.1", not "0.10000000000000001").
std::string shortestNumberText(double value);

}  // namespace noisescope
