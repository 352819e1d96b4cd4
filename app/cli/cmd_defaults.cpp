// noisescope-cli defaults: the engine's table of defaults (pipeline/defaults.h) — the σ grid, the
// gate rule, the σ_data fallback, the held-out rule, the presets — as JSON (--json) or as lines.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "command.h"
#include "pipeline/defaults.h"

namespace noisescope::cli {
namespace {

// One "key.path  value" line per leaf; presets as one line each.
void printLeaves(const nlohmann::json& node, const std::string& path) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      printLeaves(it.value(), path.empty() ? it.key() : path + "." + it.key());
  } else {
    std::printf("%-32s %s\n", path.c_str(), node.dump().c_str());
  }
}

int run(bool json) {
  nlohmann::json table = pipeline::defaults::defaultsJson();
  if (json) {
    std::cout << table.dump(2) << "\n";
    return 0;
  }
  const nlohmann::json presets = table["presets"];
  table.erase("presets");
  printLeaves(table, "");
  for (const auto& p : presets)
    std::printf("preset %-25s %s, loss weight %s, %s\n", p["name"].get<std::string>().c_str(),
                p["family"].get<std::string>().c_str(), p["loss_weight"].get<std::string>().c_str(),
                p["parameters"].dump().c_str());
  return 0;
}

const CommandRegistration defaultsCommand("defaults", [](CLI::App& app) -> std::function<int()> {
  app.description(
      "Print the engine's defaults: σ grid, gate rule, σ_data fallback, held-out share, presets");
  auto json = std::make_shared<bool>(false);
  app.add_flag("--json", *json, "Print the table as JSON (format noisescope.defaults/1)");
  return [json] { return run(*json); };
});

}  // namespace
}  // namespace noisescope::cli
