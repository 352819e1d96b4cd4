#pragma once
// One entry point per harness. Each takes the fuzzer's bytes, hands them to the public reader the
// way a user's file or string would reach it, and returns whether the reader accepted or rejected
// them (see fuzz_support.h for what counts as a finding). The libFuzzer binaries call one each
// (fuzzer_main.cpp); test_fuzz_regressions.cpp feeds the saved inputs through all of them.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.h"

namespace noisescope::fuzz {

// Data readers (noisescope_data).
Outcome idx(const uint8_t* data, size_t size);    // [u16 L][L bytes labels file][images file]
Outcome idxGz(const uint8_t* data, size_t size);  // [flags][the same, each part gzip-compressed]
Outcome cifar(const uint8_t* data, size_t size);  // one batch file
Outcome npy(const uint8_t* data, size_t size);    // one .npy file
Outcome hdf5(const uint8_t* data, size_t size);   // one HDF5 file: datasets and schedules
Outcome fasta(const uint8_t* data, size_t size);  // [window][stride][policy][FASTA text]
Outcome image(const uint8_t* data, size_t size);  // one PNG or JPEG file
Outcome synthetic(const uint8_t* data, size_t size);      // a "synthetic:..." spec
Outcome streamedPrior(const uint8_t* data, size_t size);  // [format][.npy, IDX or CIFAR file]
Outcome safetensors(const uint8_t* data, size_t size);    // one .safetensors latent cache
Outcome npz(const uint8_t* data, size_t size);            // one .npz latent cache
Outcome edmZip(const uint8_t* data, size_t size);         // one EDM / EDM2 dataset ZIP

// Our own formats (noisescope_io).
Outcome profile(const uint8_t* data, size_t size);          // noisescope.profile/1 JSON
Outcome scheduleJson(const uint8_t* data, size_t size);     // schedule / table / rate JSON
Outcome scheduleCsv(const uint8_t* data, size_t size);      // schedule / table / rate CSV
Outcome scheduleSpec(const uint8_t* data, size_t size);     // "family:edm?p_mean=-1" strings
Outcome trainConfig(const uint8_t* data, size_t size);      // a run's config.json
Outcome runEvent(const uint8_t* data, size_t size);         // one events.jsonl line (and file)
Outcome trainerSettings(const uint8_t* data, size_t size);  // [format][another tool's settings]

}  // namespace noisescope::fuzz
