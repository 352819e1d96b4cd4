// noisescope-cli: the headless face of the engine. Subcommands live in cmd_*.cpp.
#include <cstdio>
#include <exception>
#include <map>

#include "command.h"
#include "flag_names.h"
#include "pipeline/environment.h"
#include "util/error.h"

namespace noisescope::cli {

std::vector<RegisteredCommand>& registeredCommands() {
  static std::vector<RegisteredCommand> commands;
  return commands;
}

CommandRegistration::CommandRegistration(std::string name, CommandSetup setup) {
  registeredCommands().push_back({std::move(name), std::move(setup)});
}

}  // namespace noisescope::cli

int main(int argc, char** argv) {
  using namespace noisescope;
  CLI::App app{"NoiseScope: which noise levels should a diffusion model train on, and how much"};
  app.set_version_flag("--version", std::string("noisescope-cli ") + NOISESCOPE_VERSION);
  int threads = 0;
  app.add_option("--threads", threads, "CPU threads for torch (0: all)")->capture_default_str();
  app.require_subcommand(1);

  std::map<CLI::App*, std::function<int()>> runners;
  for (auto& command : cli::registeredCommands()) {
    CLI::App* sub = app.add_subcommand(command.name);
    runners[sub] = command.setup(*sub);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  try {
    pipeline::initComputeThreads(threads);
    for (auto& [sub, run] : runners) {
      if (sub->parsed()) return run();
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", cli::errorText(e).c_str());
    return 2;
  } catch (const Cancelled&) {
    std::fprintf(stderr, "cancelled\n");
    return 130;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 1;
}
