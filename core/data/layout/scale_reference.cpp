#include "data/layout/scale_reference.h"

namespace noisescope {

ScaleReference scaleReferenceOf(const Dataset& dataset) {
  // ScaleReference's fields in their order: the file, its dtype and kind, its range on disk.
  return ScaleReference{dataset.sourceOrName(),   dataset.sourceDtype, dataset.kind,
                        dataset.sourceRangeKnown, dataset.sourceMin,   dataset.sourceMax};
}

}  // namespace noisescope
