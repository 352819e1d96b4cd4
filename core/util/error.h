#pragma once
// Errors the user can act on. InputError always names what was read (a file, a setting, a model)
// and what was wrong with it, so the message alone tells the user what to fix. A setting is named
// by its engine name (util/setting_names.h), which each face maps to its own control.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/setting_names.h"

namespace noisescope {

class InputError : public std::runtime_error {
 public:
  InputError(std::string source, std::string problem)
      : std::runtime_error(source + ": " + problem),
        source_(std::move(source)),
        problem_(std::move(problem)) {}
  const std::string& source() const { return source_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string source_;
  std::string problem_;
};

// Thrown from inside long work when the user asked to stop; callers treat it as a clean abort.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

// A tensor shape as errors name it: "[1, 28, 28]".
inline std::string shapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

}  // namespace noisescope
