#pragma once
// Schedule files. "noisescope.schedule/1" JSON is the exchange format:
//   format, kind, label, parameters{}, notes{}, truncated_mass, sigma_min, sigma_max,
//   loss_weight{kind, sigma_data, gamma},
//   binned:  coordinate ("log-sigma"), log_sigma_edges[K+1], sigma_edges[K+1], bin_masses[K],
//            density[K] (per unit log σ, piecewise constant), cdf[K+1] (at the edges),
//            sigma_centers[K], loss_weight_values[K], allocation[K] (φ per unit log σ, normalised)
//   atomic:  atoms[{sigma, weight}], cdf[n] (after each atom), loss_weight_values[n]
//   provenance{...}
// CSV (one row per bin or atom) for spreadsheets, HDF5 (same fields as datasets and attributes)
// where NOISESCOPE_WITH_HDF5 is on. Every reader answers a malformed file with an InputError that
// names the file and the field.
#include <nlohmann/json.hpp>

#include <string>

#include "schedule/allocation.h"
#include "schedule/entropic.h"
#include "schedule/schedule.h"

namespace noisescope {

inline constexpr const char* kScheduleFormat = "noisescope.schedule/1";

nlohmann::json scheduleToJson(const schedule::Schedule& schedule,
                              const nlohmann::json& provenance = nlohmann::json::object());
schedule::Schedule scheduleFromJson(const nlohmann::json& json, const std::string& source);

std::string scheduleToCsv(const schedule::Schedule& schedule);
// Reads the CSV scheduleToCsv writes (binned: log_sigma_lo, log_sigma_hi, mass columns; atomic:
// sigma, weight columns).
schedule::Schedule scheduleFromCsv(const std::string& text, const std::string& source);

enum class ScheduleFileType { Json, Csv, Hdf5 };
// From the extension (.json, .csv, .h5/.hdf5); throws InputError for anything else.
ScheduleFileType scheduleFileType(const std::string& path);

// Writes atomically in the format the extension names.
void writeSchedule(const std::string& path, const schedule::Schedule& schedule,
                   const nlohmann::json& provenance = nlohmann::json::object());
// Reads any of the three formats (JSON also when the extension is unknown but the content is JSON).
schedule::Schedule readSchedule(const std::string& path);

// A schedule's curves evaluated on a grid (schedule/allocation.h: σ, the coordinate, π, w, φ and
// the two CDFs) as CSV with a header, written atomically: `noisescope-cli export --curves`.
void writeCurvesCsv(const std::string& path, const schedule::CurveTable& table);

// HDF5 (throws InputError when HDF5 support is not built).
void writeScheduleHdf5(const std::string& path, const schedule::Schedule& schedule,
                       const nlohmann::json& provenance);
schedule::Schedule readScheduleHdf5(const std::string& path);

// A density table (columns sigma and density; CSV with a header, or JSON {"sigma": [...],
// "density": [...], "coordinate": "sigma"}) made into a schedule on `grid`. A CSV column named
// density_<coordinate> (e.g. density_log-sigma) names the coordinate; otherwise `coordinate`.
schedule::Schedule readTableSchedule(const std::string& path, const schedule::LogSigmaGrid& grid,
                                     schedule::Coordinate coordinate = schedule::Coordinate::Sigma);

}  // namespace noisescope
