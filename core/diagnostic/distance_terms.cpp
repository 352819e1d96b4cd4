#include "diagnostic/distance_terms.h"

#include <cmath>
#include <limits>
#include <utility>

namespace noisescope {

namespace {

// Unit roundoffs.
const double kFloat32Unit = std::ldexp(1.0, -24);
const double kFloat64Unit = std::ldexp(1.0, -53);
const double kBfloat16Unit = std::ldexp(1.0, -8);

double gamma(int64_t n, double unit) {
  const double nu = static_cast<double>(n) * unit;
  return nu < 1.0 ? nu / (1.0 - nu) : std::numeric_limits<double>::infinity();
}

}  // namespace

double float32DotErrorFactor(int64_t d, const c10::Device& device) {
  // TF32 (or, since PyTorch 2, bfloat16 passes) is what "allowed" lets cuBLAS do with float32
  // inputs; bfloat16's roundoff covers both.
  const bool reduced = !device.is_cpu() && at::globalContext().allowTF32CuBLAS();
  const double inputUnit = reduced ? kBfloat16Unit : kFloat32Unit;
  // |fl(x̂·ŷ) − x·y| ≤ γ_d Σ|x̂ŷ| + |x̂·ŷ − x·y| ≤ [(1 + γ_d)(1 + u_in)² − 1] Σ|x||y|.
  const double g = gamma(d, kFloat32Unit);
  return (1.0 + g) * (1.0 + inputUnit) * (1.0 + inputUnit) - 1.0;
}

std::pair<at::Tensor, at::Tensor> float32TermErrors(const at::Tensor& xj, const at::Tensor& eps,
                                                    const at::Tensor& tileMaxNorm) {
  const double kappa = float32DotErrorFactor(xj.size(1), xj.device());
  // The fp64 parts (the norms, ε·x_j, the two additions) with a factor 2 to spare: ~10⁻¹³.
  const double fp64Part = 2.0 * (gamma(xj.size(1), kFloat64Unit) + 3.0 * kFloat64Unit);
  const at::Tensor& tileMax = tileMaxNorm;
  at::Tensor queryNorm = (xj * xj).sum(1).sqrt();
  at::Tensor noiseNorm = (eps * eps).sum(1).sqrt();
  at::Tensor span = queryNorm + tileMax;
  // A = ‖x_j‖² + ‖x_i‖² − 2 x_j·x_i: twice the dot product's error, plus the fp64 parts.
  at::Tensor aError = queryNorm * tileMax * (2.0 * kappa) + span * span * fp64Part;
  // B = ε_j·x_j − ε_j·x_i: the dot product's error (ε rounded to float32 is in κ), plus fp64.
  at::Tensor bError = noiseNorm * tileMax * kappa + noiseNorm * span * fp64Part;
  return {aError, bError};
}

DistanceTerms distanceTerms(const at::Tensor& xj, const at::Tensor& eps, const at::Tensor& xc,
                            at::ScalarType gemmType, int64_t gemmRows,
                            const std::function<void()>& checkCancel) {
  const int64_t rows = xj.size(0);
  const int64_t cols = xc.size(0);
  at::Tensor lhs = at::cat({xj, eps}, 0).to(gemmType);
  at::Tensor gram = at::empty({2 * rows, cols}, xj.options().dtype(gemmType));
  at::Tensor tileNorms = at::empty({cols}, xj.options());
  for (int64_t s0 = 0; s0 < cols; s0 += gemmRows) {
    if (checkCancel) checkCancel();  // the distance GEMMs are the longest single step
    const int64_t sn = std::min(gemmRows, cols - s0);
    at::Tensor xs64 = xc.narrow(0, s0, sn).to(at::kDouble);
    tileNorms.narrow(0, s0, sn).copy_((xs64 * xs64).sum(1));
    at::Tensor xs = gemmType == at::kDouble ? xs64 : xc.narrow(0, s0, sn).to(gemmType);
    if (sn == cols) {
      at::mm_out(gram, lhs, xs.t());
    } else {
      gram.narrow(1, s0, sn).copy_(at::mm(lhs, xs.t()));
    }
  }
  DistanceTerms out;
  out.terms = gemmType == at::kDouble ? gram : gram.to(at::kDouble);
  at::Tensor a = out.terms.narrow(0, 0, rows);
  at::Tensor b = out.terms.narrow(0, rows, rows);
  a.mul_(-2.0).add_((xj * xj).sum(1).unsqueeze(1)).add_(tileNorms.unsqueeze(0)).clamp_min_(0.0);
  b.neg_().add_((eps * xj).sum(1).unsqueeze(1));
  if (gemmType == at::kDouble) {
    out.aError = at::zeros({rows}, xj.options());
    out.bError = at::zeros({rows}, xj.options());
  } else {
    std::tie(out.aError, out.bError) = float32TermErrors(xj, eps, tileNorms.max().sqrt());
  }
  return out;
}

at::Tensor logitErrorBound(const at::Tensor& aError, const at::Tensor& bError, double sigma) {
  return aError / (2.0 * sigma * sigma) + bError / sigma;
}

}  // namespace noisescope
