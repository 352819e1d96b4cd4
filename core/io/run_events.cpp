#include "io/run_events.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

namespace noisescope {

namespace {

using nlohmann::json;

// Why a line is not an event; caught in parseRunEvent and turned into a note.
struct BadLine {
  std::string why;
};

const json& need(const json& e, const char* key) {
  const auto it = e.find(key);
  if (it == e.end()) throw BadLine{std::string("missing field '") + key + "'"};
  return *it;
}

[[noreturn]] void wrongType(const char* key, const json& v, const char* expected) {
  throw BadLine{std::string("field '") + key + "' is " + v.type_name() + ", expected " + expected};
}

double checkedNumber(const char* key, const json& v, bool nullable) {
  if (v.is_null() && nullable) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number()) wrongType(key, v, nullable ? "a number or null" : "a number");
  const double x = v.get<double>();
  if (!std::isfinite(x) || std::abs(x) > kLargestEventNumber)
    throw BadLine{std::string("field '") + key + "' holds " + v.dump() +
                  ", beyond the largest accepted magnitude 1e300"};
  return x;
}

double real(const json& e, const char* key, bool nullable = false) {
  return checkedNumber(key, need(e, key), nullable);
}

// Counts and steps: non-negative integers (written as 12 or 12.0), at most 2^53.
int64_t count(const json& e, const char* key) {
  const json& v = need(e, key);
  constexpr double kMax = 9007199254740992.0;
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > static_cast<uint64_t>(kMax))
      throw BadLine{std::string("field '") + key + "' holds " + v.dump() + ", too large"};
    return static_cast<int64_t>(v.get<uint64_t>());
  }
  if (v.is_number_integer()) {
    if (v.get<int64_t>() < 0) throw BadLine{std::string("field '") + key + "' is negative"};
    return v.get<int64_t>();
  }
  if (v.is_number_float()) {
    const double x = v.get<double>();
    if (!(x >= 0.0) || x > kMax || std::floor(x) != x)
      throw BadLine{std::string("field '") + key + "' holds " + v.dump() +
                    ", expected a non-negative whole number"};
    return static_cast<int64_t>(x);
  }
  wrongType(key, v, "a whole number");
}

std::string text(const json& e, const char* key) {
  const json& v = need(e, key);
  if (!v.is_string()) wrongType(key, v, "a string");
  return v.get<std::string>();
}

bool flag(const json& e, const char* key) {
  const json& v = need(e, key);
  if (!v.is_boolean()) wrongType(key, v, "true or false");
  return v.get<bool>();
}

std::vector<double> reals(const json& e, const char* key, bool nullable = false) {
  const json& v = need(e, key);
  if (!v.is_array()) wrongType(key, v, "an array of numbers");
  std::vector<double> out;
  out.reserve(v.size());
  for (const json& x : v) out.push_back(checkedNumber(key, x, nullable));
  return out;
}

void sameLength(const char* key, const std::vector<double>& v, size_t expected, const char* of) {
  if (v.size() != expected)
    throw BadLine{std::string("field '") + key + "' has " + std::to_string(v.size()) +
                  " entries, but '" + of + "' implies " + std::to_string(expected)};
}

// The required fields of each kind, named once for the reader and the writer: the key, the member
// that holds it and whether a number (or each number of an array) may be null (NaN). The optional
// fields, and the checks across fields, stay with the code of their kind below.
template <class Record>
struct Field {
  using Member = std::variant<double Record::*, int64_t Record::*, bool Record::*,
                              std::string Record::*, std::vector<double> Record::*, json Record::*>;
  const char* key;
  Member member;
  bool nullable = false;
};
using EventField = Field<RunEvent>;

const EventField kStartFields[] = {
    {"steps", &RunEvent::steps},
    {"world_size", &RunEvent::worldSize},
    {"device", &RunEvent::device},
    {"network", &RunEvent::network},
    {"parameters", &RunEvent::parameters},
    {"sigma_data", &RunEvent::sigmaData},
    {"discrete", &RunEvent::discrete},
    {"train_samples", &RunEvent::trainSamples},
    {"test_samples", &RunEvent::testSamples},
    {"test", &RunEvent::test},
    {"bins", &RunEvent::bins},
};
const Field<RunEvent::LossWeight> kLossWeightFields[] = {
    {"kind", &RunEvent::LossWeight::kind},   {"label", &RunEvent::LossWeight::label},
    {"from", &RunEvent::LossWeight::from},   {"sigma_data", &RunEvent::LossWeight::sigmaData},
    {"gamma", &RunEvent::LossWeight::gamma},
};
const EventField kTrainFields[] = {
    {"loss", &RunEvent::loss, true},
    {"lr", &RunEvent::lr},
    {"samples_per_s", &RunEvent::samplesPerSecond},
    {"steps_per_s", &RunEvent::stepsPerSecond},
    {"bin_error", &RunEvent::binError, true},
    {"bin_count", &RunEvent::binCount},
};
const EventField kScheduleFields[] = {
    {"sampler", &RunEvent::sampler},
    {"refresh", &RunEvent::refresh},
    {"log_sigma_edges", &RunEvent::logSigmaEdges},
    {"sigma", &RunEvent::sigma},
    {"pi", &RunEvent::pi},
};
const EventField kEvalFields[] = {
    {"sigma", &RunEvent::sigma},           {"error", &RunEvent::error, true},
    {"elbo", &RunEvent::elbo, true},       {"edm", &RunEvent::edm, true},
    {"quality", &RunEvent::quality, true}, {"reference", &RunEvent::reference},
};

template <class T>
constexpr bool kAlwaysFalse = false;

// Reads the fields in their order; the first one missing or mistyped refuses the line.
template <class Record, size_t N>
void readFields(const json& e, Record& r, const Field<Record> (&fields)[N]) {
  for (const Field<Record>& f : fields)
    std::visit(
        [&](auto member) {
          auto& value = r.*member;
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, double>)
            value = real(e, f.key, f.nullable);
          else if constexpr (std::is_same_v<T, int64_t>)
            value = count(e, f.key);
          else if constexpr (std::is_same_v<T, bool>)
            value = flag(e, f.key);
          else if constexpr (std::is_same_v<T, std::string>)
            value = text(e, f.key);
          else if constexpr (std::is_same_v<T, std::vector<double>>)
            value = reals(e, f.key, f.nullable);
          else if constexpr (std::is_same_v<T, json>) {
            value = need(e, f.key);
            if (!value.is_object()) wrongType(f.key, value, "an object");
          } else
            static_assert(kAlwaysFalse<T>, "a field type without a reader");
        },
        f.member);
}

template <class Record, size_t N>
void writeFields(json& e, const Record& r, const Field<Record> (&fields)[N]) {
  for (const Field<Record>& f : fields)
    std::visit([&](auto member) { e[f.key] = r.*member; }, f.member);
}

void readStart(const json& e, RunEvent& r) {
  readFields(e, r, kStartFields);
  r.networkKind = text(r.network, "kind");
  // Written since runs record their thread share; older runs and other writers leave it out.
  if (e.contains("threads")) r.threads = count(e, "threads");
  // Written by both writers since the schema file; older runs leave them out.
  r.gateC = e.contains("gate_c") ? real(e, "gate_c") : std::numeric_limits<double>::quiet_NaN();
  if (e.contains("gate")) r.gate = text(e, "gate");
  if (e.contains("loss_weight")) {
    const json& w = need(e, "loss_weight");
    if (!w.is_object()) wrongType("loss_weight", w, "an object");
    readFields(w, r.lossWeight, kLossWeightFields);
  }
}

void readTrain(const json& e, RunEvent& r) {
  readFields(e, r, kTrainFields);
  sameLength("bin_count", r.binCount, r.binError.size(), "bin_error");
}

void readSchedule(const json& e, RunEvent& r) {
  readFields(e, r, kScheduleFields);
  if (r.logSigmaEdges.size() < 2) throw BadLine{"field 'log_sigma_edges' has fewer than 2 edges"};
  for (size_t b = 0; b + 1 < r.logSigmaEdges.size(); ++b)
    if (!(r.logSigmaEdges[b + 1] > r.logSigmaEdges[b]))
      throw BadLine{"field 'log_sigma_edges' is not increasing"};
  const size_t bins = r.logSigmaEdges.size() - 1;
  sameLength("sigma", r.sigma, bins, "log_sigma_edges");
  sameLength("pi", r.pi, bins, "log_sigma_edges");
  for (double p : r.pi)
    if (p < 0.0) throw BadLine{"field 'pi' holds a negative mass"};
  // Present after a refresh only.
  if (e.contains("mhat")) {
    r.mhat = reals(e, "mhat", true);
    sameLength("mhat", r.mhat, bins, "log_sigma_edges");
  }
  if (e.contains("rho")) {
    r.rho = reals(e, "rho", true);
    sameLength("rho", r.rho, bins, "log_sigma_edges");
  }
  r.cdfChange =
      e.contains("cdf_change") ? real(e, "cdf_change") : std::numeric_limits<double>::quiet_NaN();
}

void readEval(const json& e, RunEvent& r) {
  readFields(e, r, kEvalFields);
  sameLength("error", r.error, r.sigma.size(), "sigma");
  r.swd = e.contains("swd") ? real(e, "swd", true) : std::numeric_limits<double>::quiet_NaN();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r.fd = e.contains("fd") ? real(e, "fd", true) : nan;
  r.kmerJs = e.contains("kmer_js") ? real(e, "kmer_js", true) : nan;
  r.featureAccuracy = e.contains("feature_accuracy") ? real(e, "feature_accuracy", true) : nan;
  if (e.contains("feature_network")) r.featureNetwork = text(e, "feature_network");
  if (e.contains("quality_samples")) r.qualitySamples = count(e, "quality_samples");
  if (e.contains("heun_steps")) r.heunSteps = count(e, "heun_steps");
  if ((!std::isnan(r.fd) || !std::isnan(r.kmerJs)) && r.qualitySamples < 2)
    throw BadLine{"field 'fd' or 'kmer_js' without 'quality_samples' ≥ 2"};
}

// Bytes of a line that a note may quote: printable ASCII only.
std::string printable(std::string_view s, size_t limit) {
  std::string out;
  for (char c : s.substr(0, limit)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (s.size() > limit) out += "...";
  return out;
}

}  // namespace

RunEventParse parseRunEvent(std::string_view line, const std::string& source, int64_t lineNumber) {
  RunEventParse out;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return out;
  const std::string where = source + ":" + std::to_string(lineNumber) + ": ";
  json e;
  try {
    e = json::parse(line.begin(), line.end());
  } catch (const json::parse_error& error) {
    out.note = where + "not valid JSON (at byte " + std::to_string(error.byte) + " of " +
               std::to_string(line.size()) + ": \"" + printable(line, 40) + "\")";
    return out;
  } catch (const std::exception&) {
    out.note = where + "not valid JSON";
    return out;
  }
  if (!e.is_object()) {
    out.note = where + "not a JSON object but " + std::string(e.type_name());
    return out;
  }
  try {
    RunEvent r;
    r.name = text(e, "event");
    r.step = count(e, "step");
    r.time = real(e, "time");
    static const std::pair<const char*, RunEvent::Kind> kinds[] = {
        {"start", RunEvent::Kind::Start}, {"resume", RunEvent::Kind::Resume},
        {"train", RunEvent::Kind::Train}, {"schedule", RunEvent::Kind::Schedule},
        {"eval", RunEvent::Kind::Eval},   {"checkpoint", RunEvent::Kind::Checkpoint},
        {"end", RunEvent::Kind::End},     {"note", RunEvent::Kind::Note},
        {"error", RunEvent::Kind::Error}, {"stop", RunEvent::Kind::Stop}};
    bool known = false;
    for (const auto& [name, kind] : kinds)
      if (r.name == name) {
        r.kind = kind;
        known = true;
      }
    if (!known) throw BadLine{"unknown event '" + printable(r.name, 40) + "'"};
    switch (r.kind) {
      case RunEvent::Kind::Start:
      case RunEvent::Kind::Resume:
        readStart(e, r);
        break;
      case RunEvent::Kind::Train:
        readTrain(e, r);
        break;
      case RunEvent::Kind::Schedule:
        readSchedule(e, r);
        break;
      case RunEvent::Kind::Eval:
        readEval(e, r);
        break;
      case RunEvent::Kind::Checkpoint:
        r.path = text(e, "path");
        if (e.contains("export")) r.exportPath = text(e, "export");
        break;
      case RunEvent::Kind::End:
        r.seconds = real(e, "seconds");
        break;
      case RunEvent::Kind::Note:
        r.message = text(e, "message");
        break;
      case RunEvent::Kind::Error:
      case RunEvent::Kind::Stop:
        r.message = text(e, "message");
        if (e.contains("last_checkpoint")) r.lastCheckpoint = text(e, "last_checkpoint");
        break;
    }
    out.event = std::move(r);
  } catch (const BadLine& bad) {
    out.note = where + bad.why;
  } catch (const std::exception& error) {  // a json access this file did not foresee
    out.note = where + "unreadable event (" + printable(error.what(), 80) + ")";
  }
  return out;
}

json runEventJson(const RunEvent& r) {
  json e{{"step", r.step}, {"time", r.time}};
  // nlohmann writes NaN as null, which is what the schema says for a missing number.
  switch (r.kind) {
    case RunEvent::Kind::Start:
    case RunEvent::Kind::Resume:
      e["event"] = r.kind == RunEvent::Kind::Start ? "start" : "resume";
      writeFields(e, r, kStartFields);
      if (r.threads > 0) e["threads"] = r.threads;
      e["gate_c"] = r.gateC;
      e["gate"] = r.gate;
      e["loss_weight"] = json::object();
      writeFields(e["loss_weight"], r.lossWeight, kLossWeightFields);
      break;
    case RunEvent::Kind::Train:
      e["event"] = "train";
      writeFields(e, r, kTrainFields);
      break;
    case RunEvent::Kind::Schedule:
      e["event"] = "schedule";
      writeFields(e, r, kScheduleFields);
      if (!r.mhat.empty()) {  // after a refresh
        e["mhat"] = r.mhat;
        e["rho"] = r.rho;
        e["cdf_change"] = r.cdfChange;
      }
      break;
    case RunEvent::Kind::Eval:
      e["event"] = "eval";
      writeFields(e, r, kEvalFields);
      if (std::isfinite(r.swd)) e["swd"] = r.swd;
      if (r.qualitySamples > 0) {
        e["quality_samples"] = r.qualitySamples;
        e["heun_steps"] = r.heunSteps;
        if (std::isfinite(r.fd)) e["fd"] = r.fd;
        if (std::isfinite(r.kmerJs)) e["kmer_js"] = r.kmerJs;
        if (!r.featureNetwork.empty()) {
          e["feature_network"] = r.featureNetwork;
          e["feature_accuracy"] = r.featureAccuracy;
        }
      }
      break;
    case RunEvent::Kind::Checkpoint:
      e["event"] = "checkpoint";
      e["path"] = r.path;
      if (!r.exportPath.empty()) e["export"] = r.exportPath;
      break;
    case RunEvent::Kind::End:
      e["event"] = "end";
      e["seconds"] = r.seconds;
      break;
    case RunEvent::Kind::Note:
      e["event"] = "note";
      e["message"] = r.message;
      break;
    case RunEvent::Kind::Error:
    case RunEvent::Kind::Stop:
      e["event"] = r.kind == RunEvent::Kind::Error ? "error" : "stop";
      e["message"] = r.message;
      if (!r.lastCheckpoint.empty()) e["last_checkpoint"] = r.lastCheckpoint;
      break;
  }
  return e;
}

RunEventsFollower::RunEventsFollower(std::string path, int64_t maxLineBytes,
                                     int64_t maxBytesPerPoll)
    : path_(std::move(path)),
      maxLineBytes_(std::max<int64_t>(1, maxLineBytes)),
      maxBytesPerPoll_(std::max<int64_t>(1, maxBytesPerPoll)) {}

void RunEventsFollower::restart() {
  offset_ = 0;
  lineNumber_ = 0;
  pending_.clear();
  skipping_ = false;
  head_.clear();
}

void RunEventsFollower::takeLine(std::string_view line, Batch& batch) {
  ++lineNumber_;
  RunEventParse parsed = parseRunEvent(line, path_, lineNumber_);
  if (parsed.event) batch.events.push_back(std::move(*parsed.event));
  if (!parsed.note.empty()) batch.notes.push_back(std::move(parsed.note));
}

RunEventsFollower::Batch RunEventsFollower::poll() {
  Batch batch;
  // Read through one descriptor, so that the identity checked is that of the bytes read.
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return batch;  // not there (yet, or for a moment while it is replaced)
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return batch;
  const int64_t size = static_cast<int64_t>(st.st_size);

  bool stale = known_ && (static_cast<uint64_t>(st.st_dev) != device_ ||
                          static_cast<uint64_t>(st.st_ino) != inode_);
  stale = stale || size < offset_;
  if (!stale && !head_.empty()) {
    std::string now(head_.size(), '\0');
    const ssize_t got = ::pread(fd, now.data(), now.size(), 0);
    stale = got != static_cast<ssize_t>(now.size()) || now != head_;
  }
  if (stale) {
    restart();
    batch.restarted = true;
  }
  known_ = true;
  device_ = static_cast<uint64_t>(st.st_dev);
  inode_ = static_cast<uint64_t>(st.st_ino);

  constexpr size_t kHeadBytes = 64;
  std::string buffer(size_t{1} << 20, '\0');
  int64_t budget = maxBytesPerPoll_;
  // Until end of file as it is now: a writer may still be appending, and what it adds after
  // this read is picked up by the next poll (a torn last line stays in pending_ until then).
  while (budget > 0) {
    const size_t want = static_cast<size_t>(std::min<int64_t>(budget, int64_t(buffer.size())));
    const ssize_t got = ::pread(fd, buffer.data(), want, offset_);
    if (got <= 0) break;
    const std::string_view chunk(buffer.data(), static_cast<size_t>(got));
    if (head_.size() < kHeadBytes && offset_ == static_cast<int64_t>(head_.size()))
      head_ += chunk.substr(0, kHeadBytes - head_.size());
    offset_ += got;
    budget -= got;
    size_t start = 0;
    for (size_t end; (end = chunk.find('\n', start)) != std::string_view::npos; start = end + 1) {
      const std::string_view piece = chunk.substr(start, end - start);
      if (skipping_) {
        skipping_ = false;  // the end of an over-long line, noted when it passed the limit
        ++lineNumber_;
      } else if (pending_.empty()) {
        takeLine(piece, batch);
      } else {
        pending_.append(piece);
        takeLine(pending_, batch);
        pending_.clear();
      }
    }
    if (!skipping_) pending_.append(chunk.substr(start));
    if (static_cast<int64_t>(pending_.size()) > maxLineBytes_) {
      batch.notes.push_back(path_ + ":" + std::to_string(lineNumber_ + 1) + ": line longer than " +
                            std::to_string(maxLineBytes_) + " bytes, skipped");
      pending_.clear();
      pending_.shrink_to_fit();
      skipping_ = true;
    }
  }
  return batch;
}

}  // namespace noisescope
