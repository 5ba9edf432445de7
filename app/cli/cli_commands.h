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
// import PATH...: JUnit reports, archives of them or folders into one test run.
int runImport(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);
// tests --check-run ID | --test-run N [--outcome O]... [--limit N]
int runTests(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
             std::ostream& err);
// artifacts [--runs failed|all] ...: finished runs' test results from their stores.
int runArtifacts(const GlobalOptions& global, const std::vector<std::string>& args,
                 std::ostream& out, std::ostream& err);

} // namespace relayhud::cli
