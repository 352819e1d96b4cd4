#pragma once
// Subcommands of noisescope-cli register themselves: each file defines one static
// CommandRegistration, so adding a command never touches main.cpp.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace noisescope::cli {

// Adds the subcommand to the app and returns the function that runs it after parsing. The
// function returns the process exit code; InputError thrown from it becomes exit code 2.
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

struct CommandRegistration {
  CommandRegistration(std::string name, CommandSetup setup);
};

struct RegisteredCommand {
  std::string name;
  CommandSetup setup;
};
std::vector<RegisteredCommand>& registeredCommands();

}  // namespace noisescope::cli
