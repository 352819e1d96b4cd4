#pragma once
// Internal to noisescope_diagnostic (the engine and its white-box tests): the distance terms of
// a query chunk against a tile of prior rows, and how far they can be off when their GEMMs ran in
// float32.
//
// ‖x_j + σε_j − x_i‖² = A + 2σB + σ²‖ε_j‖², with A = ‖x_j − x_i‖² and B = ε_j·(x_j − x_i), so the
// logit of point i at σ (relative to the query's own point) is z_i = −A/(2σ²) − B/σ. A and B come
// from GEMMs (A = ‖x_j‖² + ‖x_i‖² − 2x_j·x_i), which cancel: near a duplicate, A is tiny against
// the norms. A float32 GEMM's error is bounded (Higham, "Accuracy and Stability of Numerical
// Algorithms", §3.1: |fl(x·y) − x·y| ≤ γ_D Σ|x_k y_k|, γ_D = Du/(1 − Du), in any summation order),
// and so, per query row, is the error of every logit it feeds:
//     |z̃_i − z_i| ≤ aError/(2σ²) + bError/σ.
// The engine uses that to run float32 only where the bound is small at every σ it is used at
// (docs/theory.md §3, "Distance precision").
#include <ATen/ATen.h>

#include <cstdint>
#include <functional>

namespace noisescope {

struct DistanceTerms {
  // [2·rows, cols] fp64: rows 0..rows−1 hold A, the rest B.
  at::Tensor terms;
  // [rows] fp64: every A (B) of the row is within aError (bError) of its exact value. Zero for
  // rows assembled from fp64 GEMMs (the reference the bound is measured against).
  at::Tensor aError, bError;
};

// xj, eps: [rows, D] fp64 (the queries' clean points, which are float32 values, and their noise);
// xc: [cols, D] float32 prior rows. gemmType: at::kDouble or at::kFloat. The prior rows are
// converted gemmRows at a time (their norms are taken in fp64 on the way); checkCancel runs
// before each GEMM.
DistanceTerms distanceTerms(const at::Tensor& xj, const at::Tensor& eps, const at::Tensor& xc,
                            at::ScalarType gemmType, int64_t gemmRows,
                            const std::function<void()>& checkCancel);

// The bounds distanceTerms gives float32 terms, from the norms alone (before any GEMM), as
// {aError, bError}; tileMaxNorm is the largest ‖x_i‖ of the tile (a 0-dim tensor).
std::pair<at::Tensor, at::Tensor> float32TermErrors(const at::Tensor& xj, const at::Tensor& eps,
                                                    const at::Tensor& tileMaxNorm);

// Per row: the bound on |z̃ − z| at σ, aError/(2σ²) + bError/σ.
at::Tensor logitErrorBound(const at::Tensor& aError, const at::Tensor& bError, double sigma);

// κ with |fl(x·y) − x·y| ≤ κ‖x‖‖y‖ for a float32 GEMM of inner length d on `device`: inputs
// rounded to the GEMM's format (float32; bfloat16's 2⁻⁸ where cuBLAS may use reduced-precision
// formats), products accumulated in float32. Infinite when d·2⁻²⁴ ≥ 1.
double float32DotErrorFactor(int64_t d, const c10::Device& device);

}  // namespace noisescope
