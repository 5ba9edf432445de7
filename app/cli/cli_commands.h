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
// config suggest CONFIG [--runs N] [--apply] [--dry-run]: moves the cache argues for.
int runConfig(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);
// upgrade-review --pytorch DIR --from REV --to REV CONFIG... [--format text|tsv]: what a
// PyTorch bump changes in the upstream test files the configs name (0 ok, 2 trouble).
int runUpgradeReview(const GlobalOptions& global, const std::vector<std::string>& args,
                     std::ostream& out, std::ostream& err);
// artifacts [--runs failed|all] ...: finished runs' test results from their stores.
int runArtifacts(const GlobalOptions& global, const std::vector<std::string>& args,
                 std::ostream& out, std::ostream& err);

// verdict --check-run ID [--config REPO=PATH]...: what a green covered
// (issue 7): verdict, reasons, checks, buckets and op x dtype coverage.
int runVerdict(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err);
// report --sha SHA [--check-run ID] [--format md|csv] [--config REPO=PATH]...:
// the verdicts and failures of a SHA's jobs as Markdown or CSV.
int runReport(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);

// triage set|list|export|import|clusters ...: human tags on failures, the
// team's JSON exchange file (import merges, newest wins) and failure clusters
// (issue 5).
int runTriage(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);

// suggest (--check-run ID | --sha SHA | --failed) [--days N] [--limit N]
// [--no-expected] [--evidence] [--format text|tsv]: automatic failure classes with their why
// (issue 5, triage/suggest.h), one TAB-separated line per failure.
int runSuggest(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err);
// attribution-accuracy --truth FILE [--window-hours N]: the classes of every
// failure in the cache against a world's known causes (issue 15): precision
// and recall per cause, accuracy, confusion matrix.
// doctor (--workflow FILE | --repo OWNER/REPO)... [--format text|tsv] | --checks (issue 20)
int runDoctor(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);
int runAttributionAccuracy(const GlobalOptions& global, const std::vector<std::string>& args,
                           std::ostream& out, std::ostream& err);
// team init|sync|status --server CONNINFO [--timeout S]: a team's triage server (issue 21)
int runTeam(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err);

} // namespace relayhud::cli
