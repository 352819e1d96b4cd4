// Compiled only by test_face_stray_include_fails, with the include path a face gets from
// noisescope_pipeline. The pipeline's own header is there; the file format behind it is not, so
// this must stop at the second include (docs/architecture.md, "The door").
#include "pipeline/profile_files.h"
#include "io/profile_io.h"
