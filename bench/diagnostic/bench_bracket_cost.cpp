// What issue 33's upper ends cost a bracket, measured rather than asserted: the bracket's wall
// time (median of --repeats runs) beside the time of the work they added, and the ratio of the
// bracket to the bracket without that work. The added work is
//  - the onset bound's neighbour search in the empirical profile (the engine's phase "nearest",
//    read from the profile's execution record; diagnostic/onset_bound.h);
//  - the tail term and the Hill test of every upper end over held-out points
//    (profile/tail_term.h), replayed on values of the bracket's sizes: per level and member its
//    own profile, both halves and the pooled bound level, each member counted as scoring the
//    larger of its point counts (an over-count, so the ratio errs high).
//
//   bench_bracket_cost PRIOR HELD_OUT [--prior-rows 2000] [--held-out-rows 500] [--levels 32]
//                      [--queries 128] [--repeats 3]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>

#include "data/dataset.h"
#include "data/load.h"
#include "diagnostic/bracket.h"
#include "profile/tail_term.h"

using namespace noisescope;

namespace {

Dataset firstRows(const Dataset& d, int64_t rows) {
  if (rows <= 0 || rows >= d.size()) return d;
  std::vector<int64_t> index(static_cast<size_t>(rows));
  std::iota(index.begin(), index.end(), int64_t{0});
  return selectRows(d, index);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// The tail term and the Hill test on `calls` arrays of n right-skewed values.
double upperEndSeconds(int64_t n, int64_t calls) {
  std::mt19937_64 engine(7);
  std::gamma_distribution<double> skewed(0.5, 2.0);
  std::vector<double> values(static_cast<size_t>(n));
  for (double& v : values) v = skewed(engine);
  volatile double sink = 0.0;
  const auto start = std::chrono::steady_clock::now();
  for (int64_t c = 0; c < calls; ++c) {
    values[static_cast<size_t>(c % n)] += 1e-9;  // not the same call twice
    sink = sink + tailTerm(values.data(), n) + tailHeavierThanCovered(values.data(), n);
  }
  return seconds(start);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"What the bound's upper ends and the onset bound cost a bracket"};
  std::string priorPath, heldOutPath;
  int64_t priorRows = 2000, heldOutRows = 500, queries = 128;
  int levels = 32, repeats = 3;
  app.add_option("prior", priorPath, "dataset file of the prior")->required();
  app.add_option("held-out", heldOutPath, "dataset file of the held-out points")->required();
  app.add_option("--prior-rows", priorRows, "first rows of the prior used (0: all)");
  app.add_option("--held-out-rows", heldOutRows, "first held-out rows used (0: all)");
  app.add_option("--levels", levels, "σ levels")->check(CLI::Range(2, 1000));
  app.add_option("--queries", queries, "queries per level")->check(CLI::Range(2, 1 << 20));
  app.add_option("--repeats", repeats, "brackets timed")->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);

  const Dataset prior = firstRows(loadDataset(priorPath), priorRows);
  const Dataset heldOut = firstRows(loadDataset(heldOutPath), heldOutRows);
  DiagnosticOptions options;
  options.levels = levels;
  options.queries = queries;
  options.device = "cpu";
  const BracketOptions bracketOptions;
  std::vector<double> total, nearest;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const Bracket b = computeBracket(prior, heldOut, options, bracketOptions);
    total.push_back(seconds(start));
    nearest.push_back(b.empirical.provenance.at("execution").value("seconds_nearest", 0.0));
  }
  const int64_t points = std::min<int64_t>(bracketOptions.closedFormPoints, heldOut.size());
  const int64_t members = bracketOptions.withPatch ? 3 : 2;
  const int64_t calls = static_cast<int64_t>(levels) * (members * 3 + 1);
  const double upperEnds = upperEndSeconds(std::max(points, queries), calls);
  const double bracket = median(total), added = median(nearest) + upperEnds;
  std::printf(
      "prior %lld x %lld, held-out %lld, %d levels, %lld queries, %d brackets (%s)\n"
      "bracket %.3f s (median); added: onset neighbours %.4f s, tail term + Hill test %.5f s "
      "(%lld calls of n = %lld)\n"
      "cost ratio to the bracket without them: %.4f\n",
      static_cast<long long>(prior.size()), static_cast<long long>(prior.dim()),
      static_cast<long long>(heldOut.size()), levels, static_cast<long long>(queries), repeats,
      priorPath.c_str(), bracket, median(nearest), upperEnds, static_cast<long long>(calls),
      static_cast<long long>(std::max(points, queries)), bracket / (bracket - added));
  return 0;
}
