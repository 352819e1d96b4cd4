// noisescope-cli info: what a dataset file holds (or, for an HDF5 file, which datasets it has).
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "command.h"
#include "data/load.h"
#include "dataset_options.h"
#include "pipeline/dataset/dataset_info.h"

namespace noisescope::cli {
namespace {

struct InfoArgs {
  DatasetArgs dataset;
  bool json = false;
  int64_t nnQueries = pipeline::defaults::kNeighbourQueries;
};

int listHdf5(const InfoArgs& args) {
  const auto found = listHdf5Datasets(args.dataset.path);
  if (args.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& info : found)
      list.push_back({{"path", info.path}, {"shape", info.shape}, {"dtype", info.dtype}});
    std::cout << nlohmann::json{{"file", args.dataset.path}, {"datasets", list}}.dump(2) << "\n";
    return 0;
  }
  std::printf("%s holds %zu numeric dataset(s); choose one with --dataset PATH:\n",
              args.dataset.path.c_str(), found.size());
  for (const auto& info : found) {
    std::string shape;
    for (size_t i = 0; i < info.shape.size(); ++i)
      shape += (i ? "×" : "") + std::to_string(info.shape[i]);
    std::printf("  %-40s %-20s %s\n", info.path.c_str(), shape.c_str(), info.dtype.c_str());
  }
  return 0;
}

int runInfo(const InfoArgs& args) {
  if (args.dataset.hdf5Dataset.empty() && detectFormat(args.dataset.path) == FileFormat::Hdf5)
    return listHdf5(args);
  const Dataset dataset = loadWithProgress(args.dataset);
  const DatasetStatistics stats = pipeline::datasetStatistics(dataset, {args.nnQueries});
  if (args.json) {
    std::cout << pipeline::datasetInfoJson(dataset, stats).dump(2) << "\n";
    return 0;
  }
  std::printf("dataset       %s (%s split)\n", dataset.name.c_str(), dataset.split.c_str());
  std::printf("source        %s\n", dataset.source.c_str());
  std::printf("N             %lld\n", static_cast<long long>(dataset.size()));
  std::printf("shape         %s (%s, D = %lld)\n", dataset.shapeString().c_str(),
              toString(dataset.kind), static_cast<long long>(dataset.dim()));
  if (dataset.sourceRangeKnown)
    std::printf("source dtype  %s, values %g … %g on disk\n", dataset.sourceDtype.c_str(),
                dataset.sourceMin, dataset.sourceMax);
  else
    std::printf("source dtype  %s\n", dataset.sourceDtype.c_str());
  std::printf("labels        %s\n", !dataset.hasLabels() ? "no"
                                    : dataset.labelsSource.empty()
                                        ? "yes"
                                        : ("from " + dataset.labelsSource).c_str());
  for (const std::string& note : dataset.notes) std::printf("note          %s\n", note.c_str());
  std::printf("scaled as     %s: range [%g, %g]\n", dataset.scaling.c_str(), stats.minValue,
              stats.maxValue);
  std::printf("mean          %.6g\n", stats.mean);
  std::printf("std           %.6g\n", stats.stddev);
  std::printf("sigma_data    %.6g\n", stats.sigmaData);
  if (stats.nearestNeighbourQueries > 0)
    std::printf("NN distance   %.6g (median over %lld queries)\n", stats.nearestNeighbourMedian,
                static_cast<long long>(stats.nearestNeighbourQueries));
  return 0;
}

const CommandRegistration infoCommand("info", [](CLI::App& app) -> std::function<int()> {
  auto args = std::make_shared<InfoArgs>();
  app.description("Show what a dataset holds: N, shape, types, value range, mean, std, sigma_data");
  addDatasetOptions(app, args->dataset);
  app.add_flag("--json", args->json, "Print JSON instead of text");
  app.add_option("--nn-queries", args->nnQueries,
                 "Queries for the nearest-neighbour distance estimate (0: skip)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  return [args] { return runInfo(*args); };
});

}  // namespace
}  // namespace noisescope::cli
