#pragma once
// The subcommands of relayhud-cli. Each returns the process exit code and
// writes a one-line reason to stderr on failure.
#include <ostream>
#include <string>
#include <vector>

namespace relayhud::cli {

struct GlobalOptions {
    std::string cachePath; // empty: the XDG default
};

int runSync(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err);
int runMatrix(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);
int runStats(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
             std::ostream& err);

} // namespace relayhud::cli
