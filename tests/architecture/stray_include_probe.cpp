// Compiled only by test_face_stray_include_fails, with the include path a face gets from
// noisescope_pipeline. A pipeline header is there; a header behind the door (here one that
// brings LibTorch's c10) is not, so this must stop at the second include (docs/architecture.md,
// "The door").
#include "pipeline/defaults.h"
#include "tensor/device.h"
