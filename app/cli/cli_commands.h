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
// grep [-F] [-i] [-c] [-n] [-A N] [-B N] [-C N] PATTERN FILE: the log engine's
// search with grep's output and exit status (0 matched, 1 none, 2 trouble).
int runGrep(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err);
// classify LOG [--rules FILE]...: the line that explains a failed job's log
// (0 matched, 1 no match, 2 trouble).
int runClassify(const GlobalOptions& global, const std::vector<std::string>& args,
                std::ostream& out, std::ostream& err);
// classify-accuracy [--rules FILE]... [--min PERCENT] DIR: agreement with marked fixtures.
int runClassifyAccuracy(const GlobalOptions& global, const std::vector<std::string>& args,
                        std::ostream& out, std::ostream& err);
// config explain|validate|promote|demote|set-mode CONFIG ...: torch-spyre outcome
// configs; edits print a unified diff with --dry-run (0 ok, 1 refused, 2 bad arguments).
int runConfig(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);
// artifacts [--runs failed|all] ...: finished runs' test results from their stores.
int runArtifacts(const GlobalOptions& global, const std::vector<std::string>& args,
                 std::ostream& out, std::ostream& err);

} // namespace relayhud::cli
