#pragma once
// Test data whose sample covariance is known exactly: the rows ±s·h_i of a Sylvester–Hadamard
// matrix H (d = 2^k). The 2d rows have mean 0 and (1/N) Σ x xᵀ = s²·HᵀH/d = s²·I exactly, in
// floats too (s a power of two keeps every value exact).
#include <cstdint>
#include <vector>

#include "data/dataset.h"

inline noisescope::Dataset hadamardRows(
    int64_t d, float s, std::vector<int64_t> shape = {},
    noisescope::SampleKind kind = noisescope::SampleKind::Vector) {
  std::vector<int> h(static_cast<size_t>(d * d), 1);
  for (int64_t size = 1; size < d; size *= 2)
    for (int64_t r = 0; r < size; ++r)
      for (int64_t c = 0; c < size; ++c) {
        const int v = h[static_cast<size_t>(r * d + c)];
        h[static_cast<size_t>(r * d + c + size)] = v;
        h[static_cast<size_t>((r + size) * d + c)] = v;
        h[static_cast<size_t>((r + size) * d + c + size)] = -v;
      }
  noisescope::Dataset data;
  data.name = data.source = "hadamard";
  data.kind = kind;
  data.sampleShape = shape.empty() ? std::vector<int64_t>{d} : std::move(shape);
  for (int sign : {1, -1})
    for (int v : h) data.values.push_back(static_cast<float>(sign * v) * s);
  return data;
}
