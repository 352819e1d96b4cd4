#include "data/dataset.h"

#include <stdexcept>

namespace noisescope {

const char* toString(SampleKind kind) {
  switch (kind) {
    case SampleKind::Image:
      return "image";
    case SampleKind::Sequence:
      return "sequence";
    case SampleKind::Points:
      return "points";
    case SampleKind::Vector:
      return "vector";
  }
  return "vector";
}

int64_t Dataset::dim() const {
  if (sampleShape.empty()) return 0;
  int64_t d = 1;
  for (int64_t s : sampleShape) d *= s;
  return d;
}

int64_t Dataset::size() const {
  const int64_t d = dim();
  return d == 0 ? 0 : static_cast<int64_t>(values.size()) / d;
}

std::string Dataset::sourceOrName() const {
  return source.empty() ? name : source;
}

std::string sampleShapeText(const std::vector<int64_t>& shape) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += "×";
    out += std::to_string(shape[i]);
  }
  return out;
}

std::string Dataset::shapeString() const {
  return sampleShapeText(sampleShape);
}

void Dataset::validate() const {
  const int64_t d = dim();
  if (d <= 0) throw std::logic_error("dataset '" + name + "' has an empty sample shape");
  if (values.size() % static_cast<size_t>(d) != 0)
    throw std::logic_error("dataset '" + name + "' holds a number of values that is not N×D");
  if (!labels.empty() && static_cast<int64_t>(labels.size()) != size())
    throw std::logic_error("dataset '" + name + "' has a label count that differs from N");
}

Dataset selectRows(const Dataset& dataset, const std::vector<int64_t>& rows) {
  Dataset out = dataset;
  out.values.clear();
  out.labels.clear();
  const int64_t d = dataset.dim();
  out.values.resize(rows.size() * static_cast<size_t>(d));
  if (dataset.hasLabels()) out.labels.reserve(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const int64_t i = rows[r];
    if (i < 0 || i >= dataset.size()) throw std::out_of_range("selectRows: row out of range");
    std::copy(dataset.sample(i), dataset.sample(i) + d, out.values.begin() + r * d);
    if (dataset.hasLabels()) out.labels.push_back(dataset.labels[i]);
  }
  return out;
}

}  // namespace noisescope
