// relayhud-cli: the headless face of RelayHUD (sync, artifacts, matrix, stats,
// import, tests).
#include "cli_commands.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: relayhud-cli [--cache FILE] <command> [options]\n"
    "\n"
    "commands:\n"
    "  sync --hud URL [--days N] [--per-page N] [--backend ORG/REPO]...\n"
    "                      fetch the HUD's CRCR results into the cache\n"
    "  artifacts [--runs failed|all] [--days N] [--max-runs N] [--parallel N]\n"
    "            [--github-api URL] [--s3-endpoint URL] [--s3-region R]\n"
    "                      fetch the test results (JUnit artifacts) of finished runs\n"
    "                      in the cache, each run once; tokens from GITHUB_TOKEN (or\n"
    "                      GH_TOKEN) and AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY\n"
    "  matrix [--format text|tsv] [--limit N]\n"
    "                      print the upstream SHA x job matrix from the cache\n"
    "  stats               print the number of backends, commits, check runs, test runs\n"
    "                      and test results\n"
    "  import PATH...      store JUnit reports (.xml, .xml.gz), archives of them (.zip,\n"
    "                      .tar, .tar.gz, .tgz) or folders of both as one test run\n"
    "  tests (--check-run ID | --test-run N) [--outcome O]... [--limit N]\n"
    "                      list the stored test results of a check run (its GitHub id,\n"
    "                      as the HUD shows it) or of an import; O is passed, failed,\n"
    "                      error, skipped, xfailed or xpass-strict\n"
    "\n"
    "The cache defaults to $XDG_CACHE_HOME/relayhud/relayhud.sqlite.\n";

} // namespace

int main(int argc, char** argv)
{
    using namespace relayhud::cli;
    GlobalOptions global;
    std::vector<std::string> args(argv + 1, argv + argc);
    std::size_t i = 0;
    for (; i < args.size() && args[i].rfind("--", 0) == 0; ++i) {
        if (args[i] == "--help" || args[i] == "-h") {
            std::cout << kUsage;
            return 0;
        }
        if (args[i] == "--version") {
            std::cout << "relayhud-cli 0.1.0\n";
            return 0;
        }
        if (args[i] == "--cache" && i + 1 < args.size()) {
            global.cachePath = args[++i];
            continue;
        }
        std::cerr << "relayhud-cli: unknown option " << args[i] << " (try --help)\n";
        return 2;
    }
    if (i == args.size()) {
        std::cerr << "relayhud-cli: no command given (try --help)\n";
        return 2;
    }
    const std::string command = args[i];
    const std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                        args.end());
    if (command == "sync")
        return runSync(global, rest, std::cout, std::cerr);
    if (command == "matrix")
        return runMatrix(global, rest, std::cout, std::cerr);
    if (command == "stats")
        return runStats(global, rest, std::cout, std::cerr);
    if (command == "artifacts")
        return runArtifacts(global, rest, std::cout, std::cerr);
    if (command == "import")
        return runImport(global, rest, std::cout, std::cerr);
    if (command == "tests")
        return runTests(global, rest, std::cout, std::cerr);
    std::cerr << "relayhud-cli: unknown command '" << command << "' (try --help)\n";
    return 2;
}
