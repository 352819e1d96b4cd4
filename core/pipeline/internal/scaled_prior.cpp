#include "pipeline/internal/scaled_prior.h"

#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope::pipeline {

Streaming streamingFromString(const std::string& text) {
  if (text == "auto") return Streaming::Auto;
  if (text == "on") return Streaming::Always;
  if (text == "off") return Streaming::Never;
  throw InputError(settings::kStreaming, "'" + text + "' is not one of auto, on, off");
}

PriorAccess ScaledPrior::access() const {
  PriorAccess a;
  a.whole = whole.get();
  a.rows = shard ? shard.get() : whole.get();
  a.firstRow = firstRow;
  a.communicator = communicator.get();
  return a;
}

std::string ScaledPrior::describe() const {
  std::string text = whole ? whole->access() : std::string("none");
  if (whole) text += " (" + std::to_string(whole->size()) + " samples)";
  if (communicator && shard)
    text += "; rank " + std::to_string(communicator->rank()) + " of " +
            std::to_string(communicator->worldSize()) + " owns rows " + std::to_string(firstRow) +
            ".." + std::to_string(firstRow + shard->size() - 1) +
            (shardInMemory ? ", read once into memory" : "");
  return text;
}

ScaledPrior openScaledPrior(const std::string& path, const LoadOptions& options,
                            Streaming streaming, int64_t memoryBytes,
                            const DistributedEnvironment& env, int timeoutSeconds) {
  ScaledPrior prior;
  if (streaming != Streaming::Never && (streaming == Streaming::Always || canStreamPrior(path))) {
    prior.whole = openStreamedPrior(path, options);
    const double floatBytes =
        4.0 * static_cast<double>(prior.whole->size()) * static_cast<double>(prior.whole->dim());
    // Small enough for the budget: hold it in memory after all (faster, nothing re-read).
    if (streaming == Streaming::Auto && floatBytes <= static_cast<double>(memoryBytes))
      prior.whole.reset();
  }
  if (!prior.whole) {
    prior.loaded = std::make_unique<Dataset>(loadDataset(path, options));
    prior.whole = residentPrior(*prior.loaded);
  }
  if (env.worldSize > 1) {
    if (prior.whole->size() < env.worldSize)
      throw InputError(path,
                       "has " + std::to_string(prior.whole->size()) +
                           " samples, fewer than WORLD_SIZE = " + std::to_string(env.worldSize));
    prior.communicator = std::make_unique<Communicator>(env, timeoutSeconds);
    const auto [first, count] = shardRange(prior.whole->size(), env.rank, env.worldSize);
    prior.firstRow = first;
    prior.shard = priorShard(*prior.whole, first, count);
    // A streamed set whose shard fits the budget: read the shard once and keep it (on a GPU the
    // engine then moves it there once) instead of reading it again for every query chunk.
    const double shardBytes =
        4.0 * static_cast<double>(count) * static_cast<double>(prior.whole->dim());
    if (streaming == Streaming::Auto && prior.streamed() &&
        shardBytes <= static_cast<double>(memoryBytes)) {
      prior.loaded = std::make_unique<Dataset>(prior.whole->description());
      prior.loaded->values.resize(static_cast<size_t>(count * prior.whole->dim()));
      prior.shard->read(0, count, prior.loaded->values.data());
      prior.loaded->transforms.push_back("shard rows " + std::to_string(first) + ".." +
                                         std::to_string(first + count - 1) + " held in memory");
      prior.shard = residentPrior(*prior.loaded);
      prior.shardInMemory = true;
    }
  }
  return prior;
}

}  // namespace noisescope::pipeline
