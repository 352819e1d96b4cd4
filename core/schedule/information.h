#pragma once
// Information matrices H_g = E[J_gᵀJ_g] of a denoiser shared across noise levels (THEORY §7), the
// input of the atomic-schedule design. Two models:
//
//  * Random features (default). D_θ(y; σ) = c_skip(σ)·y + c_out(σ)·W·φ(c_in(σ)·y, σ) with the EDM
//    preconditioning of schedule/preconditioning.h (THEORY §4; σ_d from measureSigmaData unless
//    given), and fixed random ReLU features
//    φ_k = relu(u_kᵀz + v_kᵀe(σ) + b_k) (plus a constant), u_k ~ N(0, I/D), where
//    e(σ) = cos(ω_j·log(σ)/4 + ψ_j) is a random Fourier embedding of the noise level. Only the
//    linear readout W (D × F) is trained, shared by all σ. Its Jacobian is c_out·(I_D ⊗ φᵀ), so
//    H_g = I_D ⊗ c_out(σ_g)²·E[φφᵀ]: the design depends only on the F×F factor, estimated by Monte
//    Carlo over y = x + σ·ε with the same (x, ε) at every level. The Hessian of a model linear in
//    its parameters does not depend on the fitted readout (the Fisher regime needs no fit).
//  * A TorchScript checkpoint's output layer (diagnostic/checkpoint_information.h: it needs torch).
//
// This header holds only the matrices, the input of the design (schedule/atomic.h); the
// measurements on data live with the other diagnostics (diagnostic/random_feature_information.h
// and diagnostic/checkpoint_information.h).
#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace noisescope::schedule {

struct InformationMatrices {
  std::vector<double> sigma;                 // candidate levels, ascending
  std::vector<Eigen::MatrixXd> information;  // H_g, reduced to the per-output factor (F×F)
  std::string model;                         // "random-features" or "checkpoint-last-layer"
  std::string description;                   // one line for files and the UI
  std::vector<std::pair<std::string, double>> parameters;
  std::vector<std::pair<std::string, std::string>> notes;
};

}  // namespace noisescope::schedule
