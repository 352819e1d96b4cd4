// noisescope-cli report: the workbench's dataset pipeline without a display. Loads each dataset,
// measures it, and writes a folder with a summary and a sample grid per noise level, so a
// headless machine shows what the explorer would.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "command.h"
#include "data/render.h"
#include "data/statistics.h"
#include "dataset_options.h"
#include "util/atomic_file.h"
#include "data/png_writer.h"
#include "util/error.h"

namespace noisescope::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> paths;
  std::string out = "report";
  int samples = 8;
  std::vector<double> sigmas = {0.0, 0.05, 0.2, 0.5, 1.0, 2.0, 5.0};
  DatasetArgs loading;  // shared loading options (window, stride, ...)
};

std::string fileStem(const Dataset& d, size_t index) {
  std::string stem;
  for (char c : d.name) stem += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return std::to_string(index + 1) + "-" + stem;
}

// One row of the same samples per σ, stacked top to bottom (points: one scatter per σ, left to
// right).
RgbImage noiseLadder(const Dataset& d, const ReportArgs& args) {
  std::vector<int64_t> indices;
  const bool points = d.kind == SampleKind::Points;
  const int64_t count = std::min<int64_t>(d.size(), points ? 1000 : args.samples);
  const int64_t step = std::max<int64_t>(1, d.size() / std::max<int64_t>(1, count));
  for (int64_t i = 0; i < count; ++i) indices.push_back((i * step) % d.size());
  const uint64_t seed = 7;
  std::vector<RgbImage> rows;
  for (double sigma : args.sigmas) {
    if (points) {
      rows.push_back(renderScatter(d, indices, sigma, seed, 240));
    } else {
      const bool sequence = d.kind == SampleKind::Sequence;
      rows.push_back(
          renderSampleGrid(d, indices, sigma, seed, sequence ? 1 : args.samples, sequence ? 2 : 3));
    }
  }
  int width = 0, height = 0;
  for (const auto& r : rows) {
    if (points)
      width += r.width + 4, height = std::max(height, r.height);
    else
      height += r.height + 6, width = std::max(width, r.width);
  }
  RgbImage out(width, height, 255);
  int at = 0;
  for (const auto& r : rows) {
    if (points)
      out.blit(r, at, 0), at += r.width + 4;
    else
      out.blit(r, 0, at), at += r.height + 6;
  }
  return out;
}

int runReport(const ReportArgs& args) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(args.out, ec);
  if (ec) throw InputError(args.out, "cannot create the report folder: " + ec.message());

  std::ostringstream md;
  md << "# NoiseScope report\n\nEach sample image shows the same samples with noise x + σ·ε, "
     << (args.sigmas.size()) << " noise levels: σ = ";
  for (size_t i = 0; i < args.sigmas.size(); ++i) md << (i ? ", " : "") << args.sigmas[i];
  md << " (top to bottom; left to right for point sets). Data are in [−1, 1].\n\n";
  nlohmann::json summary = {{"format", "noisescope.report/1"},
                            {"version", NOISESCOPE_VERSION},
                            {"sigmas", args.sigmas},
                            {"datasets", nlohmann::json::array()}};
  for (size_t i = 0; i < args.paths.size(); ++i) {
    DatasetArgs one = args.loading;
    one.path = args.paths[i];
    const Dataset d = loadWithProgress(one);
    const DatasetStatistics s = computeStatistics(d, 256, 1);
    const std::string stem = fileStem(d, i);
    writePng((fs::path(args.out) / (stem + "-samples.png")).string(), noiseLadder(d, args));
    summary["datasets"].push_back({{"name", d.name},
                                   {"source", d.source},
                                   {"split", d.split},
                                   {"kind", toString(d.kind)},
                                   {"N", d.size()},
                                   {"shape", d.sampleShape},
                                   {"scaling", d.scaling},
                                   {"mean", s.mean},
                                   {"std", s.stddev},
                                   {"sigma_data", s.sigmaData},
                                   {"nearest_neighbour_median", s.nearestNeighbourMedian},
                                   {"samples_png", stem + "-samples.png"}});
    md << "## " << d.name << "\n\n"
       << "| | |\n|---|---|\n"
       << "| source | `" << d.source << "` |\n"
       << "| split | " << d.split << " |\n"
       << "| N | " << d.size() << " |\n"
       << "| shape | " << d.shapeString() << " (" << toString(d.kind) << ") |\n"
       << "| values | " << d.scaling << ", range [" << s.minValue << ", " << s.maxValue << "] |\n"
       << "| mean / std | " << s.mean << " / " << s.stddev << " |\n"
       << "| σ_data | " << s.sigmaData << " |\n"
       << "| nearest-neighbour distance (median) | " << s.nearestNeighbourMedian << " |\n\n"
       << "![samples](" << stem << "-samples.png)\n\n";
    std::fprintf(stderr, "report: %s: N = %lld, shape %s\n", d.name.c_str(),
                 static_cast<long long>(d.size()), d.shapeString().c_str());
  }
  writeFileAtomically((fs::path(args.out) / "summary.json").string(), summary.dump(2) + "\n");
  writeFileAtomically((fs::path(args.out) / "README.md").string(), md.str());
  std::printf("report written to %s\n", fs::absolute(args.out).string().c_str());
  return 0;
}

const CommandRegistration registration("report", [](CLI::App& app) -> std::function<int()> {
  auto args = std::make_shared<ReportArgs>();
  app.description("Load datasets headless and write a report folder (summary + sample grids)");
  app.add_option("datasets", args->paths, "Datasets to include")->required();
  app.add_option("--out", args->out, "Report folder")->capture_default_str();
  app.add_option("--samples", args->samples, "Samples per row")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--sigmas", args->sigmas, "Noise levels shown")->check(CLI::NonNegativeNumber);
  app.add_option("--window", args->loading.window, "DNA bases per sample")->capture_default_str();
  app.add_option("--stride", args->loading.stride, "DNA bases between windows")
      ->capture_default_str();
  return [args] { return runReport(*args); };
});

}  // namespace
}  // namespace noisescope::cli
