#include "data/scale_reference.h"

namespace noisescope {

ScaleReference scaleReferenceOf(const Dataset& dataset) {
  ScaleReference reference;
  reference.source = dataset.source.empty() ? dataset.name : dataset.source;
  reference.dtype = dataset.sourceDtype;
  reference.kind = dataset.kind;
  reference.rangeKnown = dataset.sourceRangeKnown;
  reference.lo = dataset.sourceMin;
  reference.hi = dataset.sourceMax;
  return reference;
}

}  // namespace noisescope
