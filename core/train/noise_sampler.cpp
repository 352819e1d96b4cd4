#include "train/noise_sampler.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "schedule/allocation.h"
#include "schedule/entropic.h"
#include "util/error.h"

namespace noisescope::train {

void BinStatistics::clear() {
  std::fill(errorSum.begin(), errorSum.end(), 0.0);
  std::fill(count.begin(), count.end(), 0.0);
}

void BinStatistics::add(const BinStatistics& other) {
  if (other.bins() != bins()) throw std::logic_error("BinStatistics::add: bin counts differ");
  for (int b = 0; b < bins(); ++b) {
    errorSum[b] += other.errorSum[b];
    count[b] += other.count[b];
  }
}

std::vector<double> BinStatistics::means(double empty) const {
  std::vector<double> out(bins(), empty);
  for (int b = 0; b < bins(); ++b)
    if (count[b] > 0) out[b] = errorSum[b] / count[b];
  return out;
}

NoiseSampler::NoiseSampler(SamplerKind kind, schedule::Schedule base, schedule::LogSigmaGrid grid,
                           schedule::LossWeight weight, AdaptiveSettings settings)
    : kind_(kind),
      base_(std::move(base)),
      current_(base_),
      grid_(std::move(grid)),
      weight_(weight),
      settings_(settings),
      window_(grid_.bins()),
      mhat_(grid_.bins(), 0.0),
      known_(grid_.bins(), 0) {
  grid_.validate("noise sampler grid");
  if (base_.empty()) throw std::logic_error("NoiseSampler: empty base schedule");
}

int NoiseSampler::binOf(double sigma) const {
  const double l = std::log(sigma);
  if (l <= grid_.logSigmaMin()) return 0;
  if (l >= grid_.logSigmaMax()) return grid_.bins() - 1;
  return grid_.binOf(l);
}

double NoiseSampler::gate(double sigma) const {
  return schedule::RateGate{settings_.gateC, settings_.gateN}.at(sigma);
}

void NoiseSampler::record(const BinStatistics& stepStatistics) {
  window_.add(stepStatistics);
}

bool NoiseSampler::maybeRefresh(int64_t stepsDone) {
  if (kind_ == SamplerKind::Static) return false;
  if (stepsDone < settings_.warmupSteps) return false;
  if ((stepsDone - settings_.warmupSteps) % settings_.refreshEvery != 0) return false;
  return refresh(stepsDone);
}

std::vector<double> NoiseSampler::estimateErrors() const {
  const int K = grid_.bins();
  const std::vector<double> sigmas = grid_.sigmaCenters();
  // Work in log m̂: errors span orders of magnitude (≈ Dσ² at small σ), so gaps are filled and
  // neighbours smoothed geometrically.
  std::vector<double> logM(K, 0.0);
  int first = -1, last = -1;
  for (int b = 0; b < K; ++b) {
    if (!known_[b]) continue;
    logM[b] = std::log(std::max(mhat_[b], 1e-300));
    if (first < 0) first = b;
    last = b;
  }
  // Interior gaps: linear in ℓ between the nearest known bins.
  int prev = first;
  for (int b = first + 1; b <= last; ++b) {
    if (!known_[b]) continue;
    for (int g = prev + 1; g < b; ++g) {
      const double t = double(g - prev) / double(b - prev);
      logM[g] = (1 - t) * logM[prev] + t * logM[b];
    }
    prev = b;
  }
  // Ends: above the last known bin the error saturates (m̂ constant); below the first known bin
  // an unlearned model's error grows like σ² (m̂/σ² constant).
  for (int b = last + 1; b < K; ++b) logM[b] = logM[last];
  for (int b = 0; b < first; ++b)
    logM[b] = logM[first] + 2.0 * (std::log(sigmas[b]) - std::log(sigmas[first]));
  for (int pass = 0; pass < settings_.smoothingPasses; ++pass) {
    std::vector<double> next(K);
    for (int b = 0; b < K; ++b) {
      const double left = logM[std::max(b - 1, 0)], right = logM[std::min(b + 1, K - 1)];
      next[b] = 0.25 * left + 0.5 * logM[b] + 0.25 * right;
    }
    logM.swap(next);
  }
  std::vector<double> m(K);
  for (int b = 0; b < K; ++b) m[b] = std::exp(logM[b]);
  return m;
}

schedule::Schedule NoiseSampler::adaptedSchedule(const std::vector<double>& masses,
                                                 int64_t step) const {
  schedule::Schedule s = schedule::Schedule::fromBinMasses(grid_, masses);
  s.lossWeight = weight_;
  s.info.kind = toString(kind_);
  s.info.label = kind_ == SamplerKind::InfoNoise ? "InfoNoise online" : "√-entropy online";
  s.info.setParameter("gate_c", settings_.gateC);
  s.info.setParameter("gate_n", settings_.gateN);
  s.info.setParameter("refresh_step", double(step));
  s.info.setNote("coordinate", "log-sigma");
  s.info.setNote("source", "online training statistics");
  return s;
}

bool NoiseSampler::refresh(int64_t stepsDone) {
  const int K = grid_.bins();
  // A bin is folded into the EMA once its window holds min_bin_count samples, and only then
  // reset; until it does, it keeps accumulating across refreshes and keeps its old estimate. (A
  // tail bin that π visits rarely would otherwise never reach the count and freeze.)
  for (int b = 0; b < K; ++b) {
    if (window_.count[b] < double(settings_.minBinCount)) continue;
    const double mean = window_.errorSum[b] / window_.count[b];
    window_.errorSum[b] = 0.0;
    window_.count[b] = 0.0;
    if (!std::isfinite(mean)) continue;  // a diverged window says nothing about the rate
    mhat_[b] = known_[b] ? settings_.statDecay * mhat_[b] + (1 - settings_.statDecay) * mean : mean;
    known_[b] = 1;
  }
  if (std::none_of(known_.begin(), known_.end(), [](char k) { return k != 0; })) return false;

  // m̂ at the bin centres is a rate profile, and the schedules are built from it by the offline
  // builders themselves (schedule/entropic.h): the gated rate, ρ, π and the gate under the root
  // of √-entropy are one computation, online and offline (THEORY §6, §8).
  const std::vector<double> m = estimateErrors();
  const std::vector<double> sigmas = grid_.sigmaCenters();
  schedule::RateProfile profile;
  profile.sigma = sigmas;
  profile.mmse = m;
  profile.source = "online training statistics";
  profile.kind = "online";
  schedule::InfoNoiseOptions info;
  info.gateC = settings_.gateC;
  info.gateN = settings_.gateN;
  info.weight = weight_;
  const schedule::Schedule target = schedule::infoNoiseAllocation(profile, grid_, info);
  schedule::Schedule sampling;
  if (kind_ == SamplerKind::InfoNoise) {
    sampling = schedule::infoNoiseSchedule(profile, grid_, info);
  } else {
    schedule::SqrtEntropyOptions root;
    root.coordinate = schedule::Coordinate::LogSigma;
    root.gateC = settings_.gateC;
    root.gateN = settings_.gateN;
    root.weight = weight_;
    sampling = schedule::sqrtEntropySchedule(profile, grid_, root);
  }
  std::vector<double> rho = target.binMasses(), pi = sampling.binMasses();
  // Bins of a uniform grid have equal width, so a uniform density in ℓ gives every bin 1/K.
  for (int b = 0; b < K; ++b) pi[b] = (1 - settings_.uniformMix) * pi[b] + settings_.uniformMix / K;

  std::vector<double> oldCdf(K + 1);
  for (int e = 0; e <= K; ++e) oldCdf[e] = current_.cdfLogSigma(grid_.edges[e]);

  current_ = adaptedSchedule(pi, stepsDone);
  masses_ = pi;

  double change = 0;
  for (int e = 0; e <= K; ++e)
    change = std::max(change, std::abs(current_.cdfLogSigma(grid_.edges[e]) - oldCdf[e]));

  ++refreshes_;
  last_.step = stepsDone;
  last_.logSigmaEdges = grid_.edges;
  last_.sigmaCenters = sigmas;
  last_.mhat = m;
  last_.rho = rho;
  last_.pi = pi;
  last_.cdfChange = change;
  return true;
}

nlohmann::json NoiseSampler::state() const {
  nlohmann::json j;
  j["kind"] = toString(kind_);
  j["bins"] = grid_.bins();
  j["window_error_sum"] = window_.errorSum;
  j["window_count"] = window_.count;
  j["mhat"] = mhat_;
  std::vector<int> known(known_.begin(), known_.end());
  j["known"] = known;
  j["masses"] = masses_;
  j["refreshes"] = refreshes_;
  j["last_step"] = last_.step;
  return j;
}

void NoiseSampler::restoreState(const nlohmann::json& j, const std::string& source) {
  try {
    if (j.at("kind").get<std::string>() != toString(kind_))
      throw InputError(source, "sampler state is for '" + j.at("kind").get<std::string>() +
                                   "', the config asks for '" + toString(kind_) + "'");
    const int K = grid_.bins();
    if (j.at("bins").get<int>() != K)
      throw InputError(source, "sampler state has a different number of bins");
    auto vec = [&](const char* key, size_t want, bool allowEmpty) {
      std::vector<double> v = j.at(key).get<std::vector<double>>();
      if (v.size() != want && !(allowEmpty && v.empty()))
        throw InputError(source, std::string("sampler state '") + key + "' has the wrong size");
      for (double x : v)
        if (!std::isfinite(x) || x < 0)
          throw InputError(source, std::string("sampler state '") + key + "' holds a bad value");
      return v;
    };
    BinStatistics window(K);
    window.errorSum = vec("window_error_sum", K, false);
    window.count = vec("window_count", K, false);
    std::vector<double> mhat = vec("mhat", K, false);
    std::vector<double> masses = vec("masses", K, true);
    std::vector<int> known = j.at("known").get<std::vector<int>>();
    if (known.size() != size_t(K))
      throw InputError(source, "sampler state 'known' has the wrong size");
    const int64_t lastStep = j.at("last_step").get<int64_t>();
    schedule::Schedule current = masses.empty() ? base_ : adaptedSchedule(masses, lastStep);
    window_ = window;
    mhat_ = mhat;
    known_.assign(known.begin(), known.end());
    masses_ = masses;
    current_ = current;
    refreshes_ = j.at("refreshes").get<int64_t>();
    last_ = RefreshRecord{};
    last_.step = lastStep;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, std::string("malformed sampler state: ") + e.what());
  }
}

}  // namespace noisescope::train
