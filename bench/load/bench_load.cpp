// Loads the full Fashion-MNIST training images from .gz through the IDX reader and reports wall
// time and peak resident memory against the size of the float32 array it produces.
//
//   bench_load [path-to-train-images-idx3-ubyte.gz]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "data/formats/idx_reader.h"
#include "util/error.h"

int main(int argc, char** argv) {
  const std::string path =
      argc > 1 ? argv[1] : "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz";
  try {
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = std::chrono::steady_clock::now();
    const noisescope::Dataset dataset = noisescope::readIdx(path);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rusage after{};
    getrusage(RUSAGE_SELF, &after);

    const double arrayMb = static_cast<double>(dataset.values.size()) * sizeof(float) / 1e6;
    const double peakMb = static_cast<double>(after.ru_maxrss) * 1024.0 / 1e6;  // ru_maxrss is KiB
    const double startMb = static_cast<double>(before.ru_maxrss) * 1024.0 / 1e6;
    std::printf("file        %s\n", path.c_str());
    std::printf("samples     %lld x %s (labels: %zu)\n", static_cast<long long>(dataset.size()),
                dataset.shapeString().c_str(), dataset.labels.size());
    std::printf("wall time   %.3f s\n", seconds);
    std::printf("float array %.1f MB\n", arrayMb);
    std::printf("peak RSS    %.1f MB (%.1f MB before loading)\n", peakMb, startMb);
    std::printf("peak/array  %.3f (growth during the load / array: %.3f)\n", peakMb / arrayMb,
                (peakMb - startMb) / arrayMb);
    return 0;
  } catch (const noisescope::InputError& error) {
    std::fprintf(stderr, "bench_load: %s\n", error.what());
    return 2;
  }
}
