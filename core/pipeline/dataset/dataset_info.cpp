#include "pipeline/dataset/dataset_info.h"

#include <nlohmann/json.hpp>

namespace noisescope::pipeline {

DatasetStatistics datasetStatistics(const Dataset& dataset, const DatasetInfoRequest& request,
                                    const Progress& progress) {
  return computeStatistics(dataset, request.neighbourQueries, request.seed, progress);
}

nlohmann::json datasetInfoJson(const Dataset& d, const DatasetStatistics& s) {
  nlohmann::json out;
  out["name"] = d.name;
  out["source"] = d.source;
  out["split"] = d.split;
  out["kind"] = toString(d.kind);
  out["N"] = d.size();
  out["D"] = d.dim();
  out["shape"] = d.sampleShape;
  out["source_dtype"] = d.sourceDtype;
  if (d.sourceRangeKnown) out["source_range"] = {d.sourceMin, d.sourceMax};
  out["scaling"] = d.scaling;
  out["has_labels"] = d.hasLabels();
  if (!d.labelsSource.empty()) out["labels_source"] = d.labelsSource;
  out["notes"] = d.notes;
  out["transforms"] = d.transforms;
  out["value_range"] = {s.minValue, s.maxValue};
  out["mean"] = s.mean;
  out["std"] = s.stddev;
  out["sigma_data"] = s.sigmaData;
  if (s.nearestNeighbourQueries > 0) {
    out["nearest_neighbour_median"] = s.nearestNeighbourMedian;
    out["nearest_neighbour_queries"] = s.nearestNeighbourQueries;
  }
  return out;
}

}  // namespace noisescope::pipeline
