#include "data/formats/fasta_reader.h"

#include <algorithm>
#include <cstdio>

#include "data/formats/dataset_origin.h"
#include "data/formats/gzip_input.h"
#include "data/formats/input_file.h"
#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope {

using namespace data_detail;

namespace {

constexpr unsigned char kUnknown = 4;
constexpr int64_t kMaxWindow = 10'000'000;

// 0..3 for A, C, G, T in either case; kUnknown for other letters and gap symbols; 255 for
// bytes that cannot appear in a sequence at all.
unsigned char baseCode(unsigned char c) {
  switch (c) {
    case 'A':
    case 'a':
      return 0;
    case 'C':
    case 'c':
      return 1;
    case 'G':
    case 'g':
      return 2;
    case 'T':
    case 't':
      return 3;
    default:
      break;
  }
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' || c == '*' || c == '.')
    return kUnknown;
  return 255;
}

class WindowCutter {
 public:
  WindowCutter(const std::string& path, const FastaOptions& options, Dataset& out)
      : path_(path), options_(options), out_(out) {}

  void add(unsigned char code) { record_.push_back(code); }

  // Cuts the finished record into windows and starts a new one.
  void endRecord() {
    ++records_;
    longest_ = std::max<int64_t>(longest_, static_cast<int64_t>(record_.size()));
    const int64_t length = static_cast<int64_t>(record_.size());
    const int64_t window = options_.window;
    if (length >= window) {
      const int64_t starts = (length - window) / options_.stride + 1;
      checkAllocation(
          path_, (out_.values.size() + static_cast<uint64_t>(starts * window * 4)) * sizeof(float),
          "the one-hot windows");
      for (int64_t s = 0; s < starts; ++s) {
        const unsigned char* bases = record_.data() + s * options_.stride;
        const bool hasUnknown = std::find(bases, bases + window, kUnknown) != bases + window;
        if (hasUnknown && options_.unknownBases == FastaOptions::UnknownBases::SkipWindow) {
          ++skipped_;
          continue;
        }
        const size_t at = out_.values.size();
        out_.values.resize(at + static_cast<size_t>(window * 4), -1.0f);
        float* row = out_.values.data() + at;
        for (int64_t i = 0; i < window; ++i)
          if (bases[i] != kUnknown) row[i * 4 + bases[i]] = 1.0f;
      }
    }
    record_.clear();
  }

  int64_t records() const { return records_; }
  int64_t skipped() const { return skipped_; }
  int64_t longest() const { return longest_; }

 private:
  const std::string& path_;
  const FastaOptions& options_;
  Dataset& out_;
  std::vector<unsigned char> record_;
  int64_t records_ = 0, skipped_ = 0, longest_ = 0;
};

void checkOptions(const FastaOptions& options) {
  if (options.window < 1 || options.window > kMaxWindow)
    throw InputError(settings::kWindow, "must be between 1 and " + std::to_string(kMaxWindow) +
                                            " bases (got " + std::to_string(options.window) + ")");
  if (options.stride < 1)
    throw InputError(settings::kStride,
                     "must be at least 1 base (got " + std::to_string(options.stride) + ")");
}

}  // namespace

bool hasFastaExtension(const std::string& path) {
  std::string name = toLower(fileName(path));
  if (endsWith(name, ".gz")) name.resize(name.size() - 3);
  for (const char* ext : {".fa", ".fasta", ".fna", ".ffn", ".frn", ".fas", ".seq", ".dna"})
    if (endsWith(name, ext)) return true;
  return false;
}

Dataset readFasta(const std::string& path, const FastaOptions& options, const Progress& progress) {
  checkOptions(options);
  GzipInput input(path);

  Dataset dataset = datasetFrom(
      {displayName(path), path, "dna", "one-hot ±1", SampleKind::Sequence, {options.window, 4}});

  WindowCutter cutter(path, options, dataset);
  std::vector<unsigned char> buffer(size_t{1} << 20);
  enum class State { LineStart, Sequence, Header } state = State::LineStart;
  bool inRecord = false;  // plain sequence text starts a record without a '>' line
  int64_t line = 1;
  for (;;) {
    progress.throwIfCancelled();
    const size_t got = input.read(buffer.data(), buffer.size());
    if (got == 0) break;
    for (size_t i = 0; i < got; ++i) {
      const unsigned char c = buffer[i];
      if (c == '\n') {
        ++line;
        if (state == State::Header)
          state = State::LineStart;
        else if (state == State::Sequence)
          state = State::LineStart;
        continue;
      }
      if (state == State::Header) continue;
      if (state == State::LineStart && (c == '>' || c == ';')) {
        if (c == '>') {
          if (inRecord) cutter.endRecord();
          inRecord = true;
        }
        state = State::Header;  // a ';' comment line is skipped the same way
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') continue;
      const unsigned char code = baseCode(c);
      if (code == 255) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", c);
        throw InputError(path, "is not a FASTA or sequence text file: unexpected character " +
                                   std::string(hex) + " on line " + std::to_string(line));
      }
      inRecord = true;
      state = State::Sequence;
      cutter.add(code);
    }
    progress.report(input.fractionRead(), "reading sequences");
  }
  if (inRecord) cutter.endRecord();

  if (dataset.values.empty()) {
    std::string why;
    if (cutter.records() == 0)
      why = "holds no sequence";
    else if (cutter.longest() < options.window)
      why = "holds no window of " + std::to_string(options.window) +
            " bases: the longest record has " + std::to_string(cutter.longest());
    else
      why = "holds no window of " + std::to_string(options.window) +
            " bases without unknown letters (N, …); all " + std::to_string(cutter.skipped()) +
            " were skipped";
    throw InputError(path, why);
  }
  dataset.notes.push_back(std::to_string(cutter.records()) + " record(s); window " +
                          std::to_string(options.window) + ", stride " +
                          std::to_string(options.stride) +
                          ", unknown letters: " + toString(options.unknownBases));
  if (cutter.skipped() > 0)
    dataset.notes.push_back(std::to_string(cutter.skipped()) +
                            " window(s) with unknown letters skipped");
  dataset.sourceRangeKnown = false;
  progress.report(1.0, "sequences read");
  dataset.validate();
  return dataset;
}

}  // namespace noisescope
