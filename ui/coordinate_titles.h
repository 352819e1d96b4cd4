#pragma once
// How the Schedules tab names a coordinate the schedules are drawn in: the axis title, and the
// unit a density is per.
#include <QString>

// schedule::Coordinate, through a [values] header of the door (core/face_headers.txt)
#include "schedule/allocation.h"

namespace noisescope::ui {

QString coordinateTitle(schedule::Coordinate c);
QString densityUnit(schedule::Coordinate c);

}  // namespace noisescope::ui
