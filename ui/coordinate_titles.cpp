#include "ui/coordinate_titles.h"

#include <QObject>

namespace noisescope::ui {

using schedule::Coordinate;

QString coordinateTitle(Coordinate c) {
  switch (c) {
    case Coordinate::Sigma:
      return QObject::tr("noise level σ (log scale)");
    case Coordinate::LogSigma:
      return QObject::tr("log σ");
    case Coordinate::Lambda:
      return QObject::tr("log-SNR λ = −2 log σ");
    case Coordinate::VpTime:
      return QObject::tr("VP time t (β_d = 19.9, β_min = 0.1)");
    case Coordinate::FlowTime:
      return QObject::tr("rectified-flow time t = σ/(1+σ)");
  }
  return {};
}

QString densityUnit(Coordinate c) {
  switch (c) {
    case Coordinate::Sigma:
      return QObject::tr("per unit σ");
    case Coordinate::LogSigma:
      return QObject::tr("per unit log σ");
    case Coordinate::Lambda:
      return QObject::tr("per unit λ");
    case Coordinate::VpTime:
    case Coordinate::FlowTime:
      return QObject::tr("per unit t");
  }
  return {};
}

}  // namespace noisescope::ui
