// One line of a run's events.jsonl, and the same bytes as a file that another process is still
// writing: the follower reads the first half, then the whole. Nothing in run_events throws on
// bad content, so here any exception at all is a finding, and each line must come back as either
// an event or a note.
#include <cmath>
#include <string>
#include <string_view>

#include "io/run_events.h"
#include "targets.h"

namespace noisescope::fuzz {

namespace {
void checkNumber(double value, const char* field) {
  if (std::isfinite(value) && std::fabs(value) > kLargestEventNumber)
    fail(std::string("an accepted event holds ") + field + " beyond kLargestEventNumber");
}
}  // namespace

Outcome runEvent(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const RunEventParse parsed = parseRunEvent(line, "events.jsonl", 1);
  if (parsed.event && !parsed.note.empty()) fail("a line gave both an event and a note");
  if (parsed.event) {
    for (double v : {parsed.event->time, parsed.event->loss, parsed.event->lr,
                     parsed.event->sigmaData, parsed.event->elbo, parsed.event->edm})
      checkNumber(v, "a number");
    for (const auto* series : {&parsed.event->sigma, &parsed.event->pi, &parsed.event->error,
                               &parsed.event->binError, &parsed.event->logSigmaEdges})
      for (double v : *series) checkNumber(v, "an array value");
  }

  const size_t half = size / 2;
  writeScratchFile("events.jsonl", data, half);
  RunEventsFollower follower(scratchDir() + "/events.jsonl", 4096, 1 << 16);
  follower.poll();
  writeScratchFile("events.jsonl", data, size);  // the same file, grown (or rewritten)
  follower.poll();
  follower.poll();
  return parsed.event ? Outcome::Accepted : Outcome::Rejected;
}

}  // namespace noisescope::fuzz
