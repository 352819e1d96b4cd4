#include "schedule/coordinates.h"

#include <cmath>

#include "util/error.h"

namespace noisescope::schedule {

const char* toString(Coordinate coordinate) {
  switch (coordinate) {
    case Coordinate::Sigma:
      return "sigma";
    case Coordinate::LogSigma:
      return "log-sigma";
    case Coordinate::Lambda:
      return "lambda";
    case Coordinate::VpTime:
      return "vp-t";
    case Coordinate::FlowTime:
      return "flow-t";
  }
  return "?";
}

Coordinate coordinateFromString(const std::string& name, const std::string& source) {
  if (name == "sigma") return Coordinate::Sigma;
  if (name == "log-sigma" || name == "logsigma" || name == "log_sigma" || name == "ell")
    return Coordinate::LogSigma;
  if (name == "lambda") return Coordinate::Lambda;
  if (name == "vp-t") return Coordinate::VpTime;
  if (name == "flow-t") return Coordinate::FlowTime;
  throw InputError(source, "unknown coordinate '" + name +
                               "' (expected sigma, log-sigma, lambda, vp-t or flow-t)");
}

const char* axisLabel(Coordinate coordinate) {
  switch (coordinate) {
    case Coordinate::Sigma:
      return "σ";
    case Coordinate::LogSigma:
      return "log σ";
    case Coordinate::Lambda:
      return "λ = −2 log σ";
    case Coordinate::VpTime:
      return "VP t";
    case Coordinate::FlowTime:
      return "flow t";
  }
  return "?";
}

namespace {
// q(t) = ½β_d t² + β_min t = log(1 + σ²) on the VP path.
double vpExponent(double t, const VpParameters& vp) {
  return 0.5 * vp.betaD * t * t + vp.betaMin * t;
}
}  // namespace

double toLogSigma(double value, Coordinate coordinate, const VpParameters& vp) {
  switch (coordinate) {
    case Coordinate::Sigma:
      return std::log(value);
    case Coordinate::LogSigma:
      return value;
    case Coordinate::Lambda:
      return -0.5 * value;
    case Coordinate::VpTime:
      return 0.5 * std::log(std::expm1(vpExponent(value, vp)));
    case Coordinate::FlowTime:
      return std::log(value) - std::log1p(-value);
  }
  return value;
}

double fromLogSigma(double logSigma, Coordinate coordinate, const VpParameters& vp) {
  switch (coordinate) {
    case Coordinate::Sigma:
      return std::exp(logSigma);
    case Coordinate::LogSigma:
      return logSigma;
    case Coordinate::Lambda:
      return -2.0 * logSigma;
    case Coordinate::VpTime: {
      // Solve ½β_d t² + β_min t = log(1 + σ²) for t ≥ 0, in the cancellation-free form.
      const double q = std::log1p(std::exp(2.0 * logSigma));
      return 2.0 * q / (vp.betaMin + std::sqrt(vp.betaMin * vp.betaMin + 2.0 * vp.betaD * q));
    }
    case Coordinate::FlowTime: {
      // t = σ / (1 + σ), the logistic function of ℓ.
      return 1.0 / (1.0 + std::exp(-logSigma));
    }
  }
  return logSigma;
}

double logSigmaPerUnit(double logSigma, Coordinate coordinate, const VpParameters& vp) {
  switch (coordinate) {
    case Coordinate::Sigma:
      return std::exp(-logSigma);
    case Coordinate::LogSigma:
      return 1.0;
    case Coordinate::Lambda:
      return 0.5;
    case Coordinate::VpTime: {
      const double t = fromLogSigma(logSigma, Coordinate::VpTime, vp);
      const double q = vpExponent(t, vp);
      // ℓ = ½ log(e^q − 1)  ⇒  dℓ/dt = ½ q'(t) · e^q / (e^q − 1).
      return 0.5 * (vp.betaD * t + vp.betaMin) / -std::expm1(-q);
    }
    case Coordinate::FlowTime: {
      const double t = fromLogSigma(logSigma, Coordinate::FlowTime, vp);
      return 1.0 / (t * (1.0 - t));
    }
  }
  return 1.0;
}

}  // namespace noisescope::schedule
