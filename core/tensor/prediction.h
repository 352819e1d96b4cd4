#pragma once
// What a trained denoiser's network predicts (THEORY §4): the clean sample x0, the noise ε, or
// v = α·ε − σα·x0 (VP-scaled input). Adapters turn each into an x0 estimate. Torch-free so that
// option structs and the GUI can name it.
#include <string>

namespace noisescope {

enum class Prediction { X0, Epsilon, V };
const char* toString(Prediction prediction);
Prediction predictionFromString(const std::string& text);  // "x0", "eps", "v"; else InputError

}  // namespace noisescope
