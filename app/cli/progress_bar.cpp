#include "progress_bar.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>

namespace noisescope::cli {

Progress stderrProgress(const std::string& task) {
  struct State {
    std::mutex mutex;
    int lastPermille = -1;
    int lastDecile = -1;
    bool tty = isatty(fileno(stderr)) != 0;
    bool shown = false;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  };
  auto state = std::make_shared<State>();
  return Progress([state, task](double fraction, const std::string& message) {
    std::lock_guard<std::mutex> lock(state->mutex);
    const int permille = static_cast<int>(fraction * 1000.0);
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - state->start).count();
    // Quick tasks stay silent: a bar is only worth drawing for work a person waits for.
    if (!state->shown && elapsed < 0.5) return;
    state->shown = true;
    if (state->tty) {
      if (permille == state->lastPermille) return;
      state->lastPermille = permille;
      const int width = 30;
      const int filled = static_cast<int>(fraction * width);
      std::string bar(filled, '#');
      bar.resize(width, '.');
      std::fprintf(stderr, "\r%s [%s] %5.1f%% %6.1fs %s\033[K", task.c_str(), bar.c_str(),
                   fraction * 100.0, elapsed, message.c_str());
      if (permille >= 1000) std::fputc('\n', stderr);
    } else {
      const int decile = static_cast<int>(fraction * 10.0);
      if (decile == state->lastDecile) return;
      state->lastDecile = decile;
      std::fprintf(stderr, "%s %3d%% %6.1fs %s\n", task.c_str(), decile * 10, elapsed,
                   message.c_str());
    }
    std::fflush(stderr);
  });
}

}  // namespace noisescope::cli
