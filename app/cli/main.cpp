// relayhud-cli: the headless face of RelayHUD (sync, artifacts, matrix, stats,
// import, tests, grep, classify, config, verdict, report, triage, suggest).
//
// The commands are one table: a command is its name, its handler and its
// usage lines; `--help` prints every usage, `help COMMAND` one, and the
// dispatcher finds the handler by name. A new command is a row here and its
// handler (cli_commands.h).
#include "cli_commands.h"

#include "relayhud/util/terminal_text.h"
#include "relayhud/util/time.h"

#include <unistd.h>

#include <array>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#ifndef RELAYHUD_VERSION
#error "RELAYHUD_VERSION comes from the project's version in CMakeLists.txt"
#endif

namespace {

using namespace relayhud::cli;

using Handler = int (*)(const GlobalOptions&, const std::vector<std::string>&, std::ostream&,
                        std::ostream&);

struct Command {
    std::string_view name;
    Handler run;
    std::string_view usage; // as --help prints it, each line ending in '\n'
};

// In --help order.
// clang-format off
constexpr std::array kCommands{
    Command{"sync", runSync,
         "  sync --hud URL [--days N] [--per-page N] [--backend ORG/REPO]...\n"
         "                      fetch the HUD's CRCR results into the cache\n"},
    Command{"artifacts", runArtifacts,
         "  artifacts [--runs failed|all] [--days N] [--max-runs N] [--parallel N]\n"
         "            [--github-api URL] [--s3-endpoint URL] [--s3-region R]\n"
         "                      fetch the test results (JUnit artifacts) of finished runs\n"
         "                      in the cache, each run once; tokens from GITHUB_TOKEN (or\n"
         "                      GH_TOKEN) and AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY;\n"
         "                      every run it needs unless --max-runs N, which says how\n"
         "                      many it left\n"
         "            [--rules FILE]...\n"
         "                      then read the GitHub job logs of failed runs and keep each\n"
         "                      one's failure line (default rules, then these files)\n"
         "            [--checkout-sample N]\n"
         "                      and of the newest N green runs of each backend (default 5;\n"
         "                      0: none): what their checkouts checked out (doctor)\n"},
    Command{"matrix", runMatrix,
         "  matrix [--format text|tsv] [--limit N]\n"
         "                      print the upstream SHA x job matrix from the cache; tsv\n"
         "                      gives each job's cell, then its check_run_id\n"},
    Command{"stats", runStats,
         "  stats               print the number of backends, commits, check runs, test runs\n"
         "                      and test results\n"},
    Command{"import", runImport,
         "  import PATH...      store JUnit reports (.xml, .xml.gz), archives of them (.zip,\n"
         "                      .tar, .tar.gz, .tgz) or folders of both as one test run\n"},
    Command{"tests", runTests,
         "  tests (--check-run ID | --test-run N) [--outcome O]... [--limit N]\n"
         "                      list the stored test results of a check run (its GitHub id,\n"
         "                      as the HUD shows it) or of an import; O is passed, failed,\n"
         "                      error, skipped, xfailed or xpass-strict\n"},
    Command{"grep", runGrep,
         "  grep [-F] [-i] [-c] [-n] [-A N] [-B N] [-C N] PATTERN FILE\n"
         "                      search a log (plain or .gz) with the log viewer's engine and\n"
         "                      grep's output; PATTERN is an RE2 regex, or a literal with -F\n"},
    Command{"classify", runClassify,
         "  classify LOG [--rules FILE]...\n"
         "                      print the line that explains a failed job's log: LINE, the\n"
         "                      rule's name and its captures (TAB-separated), or 'no match';\n"
         "                      rules in pytorch's ruleset.toml format, the built-in defaults\n"
         "                      when none are given\n"},
    Command{"classify-accuracy", runClassifyAccuracy,
         "  classify-accuracy [--rules FILE]... [--min PERCENT] DIR\n"
         "                      classify every marked fixture in DIR (#=MATCH=# lines) and\n"
         "                      print ok/MISS per file and the agreement; exit 1 under --min\n"},
    Command{"config", runConfig,
         "  config explain CONFIG... TEST [--op OP] [--dtype DTYPE] [--test-type T]\n"
         "                 [--format text|tsv]\n"
         "                      the outcome torch-spyre's framework gives a test (the report's\n"
         "                      FILE.py::ClassPRIVATEUSE1::variant, or a base Class::method\n"
         "                      with --op/--dtype) and each step that decides it; several\n"
         "                      CONFIGs are merged as run_test.sh merges them; tsv prints\n"
         "                      MODE<TAB>LINE<TAB>REASON (MODE mandatory_success, xfail,\n"
         "                      xfail_strict, skip, dropped or cannot_judge)\n"
         "  config explain CONFIG... --stdin\n"
         "                      the same for every line TEST[<TAB>OP[<TAB>TEST_TYPE]] of stdin:\n"
         "                      TEST<TAB>MODE<TAB>LINE<TAB>REASON\n"
         "  config validate CONFIG [--known]\n"
         "                      print a config's findings with line:column: what the framework\n"
         "                      refuses (errors), listings that never match or never decide\n"
         "                      (warnings); --known also regexes that match no test the cache\n"
         "                      knows\n"
         "  config promote|demote CONFIG TEST --reason TEXT [--evidence TEXT] [--dry-run]\n"
         "                 [--demote-to xfail|xfail_strict]\n"
         "  config set-mode CONFIG TEST MODE --reason TEXT [--evidence TEXT] [--dry-run]\n"
         "                      move a test's method between mandatory_success, xfail,\n"
         "                      xfail_strict and skip with a minimal diff, proved with the\n"
         "                      framework's rules; --dry-run prints it and writes nothing\n"
         "  config suggest CONFIG [--runs N] [--repo ORG/REPO] [--demote-to M] [--apply] [--dry-run]\n"
         "                      promotions (a method the config runs as xfail whose every\n"
         "                      variant passed in each of a job's last N runs, default 10) and\n"
         "                      demotions to xfail (mandatory_success that failed in each) from\n"
         "                      the cache, with the runs as evidence; --dry-run prints the diff\n"
         "                      of applying them all, --apply writes it;\n"
         "                      --selection REPO=FILE (a job log or workflow, repeatable) says\n"
         "                      which jobs deselect xfail tests and so lack promotion evidence\n"
         "  config explain|validate ... [--framework-as-of YYYY-MM-DD]\n"
         "                      resolve and lint as torch-spyre's framework of that date\n"
         "                      (ops.exclude and labels arrived on 2026-07-01)\n"},
    Command{"upgrade-review", runUpgradeReview,
         "  upgrade-review --pytorch DIR --from REV --to REV CONFIG... [--format text|tsv]\n"
         "                      what moving a PyTorch checkout from REV to REV changes in the\n"
         "                      upstream test files the configs name (${TORCH_ROOT}/...), read\n"
         "                      through libgit2: methods added, removed, renamed, changed (body\n"
         "                      or decorators) and moved, and config entries that name nothing\n"
         "                      at the new revision; tsv prints KIND<TAB>FILE<TAB>CLASS<TAB>\n"
         "                      METHOD<TAB>DETAIL (KIND added, removed, renamed, changed, moved\n"
         "                      or stale)\n"},
    Command{"verdict", runVerdict,
         "  verdict --check-run ID [--config REPO=PATH]... [--selection REPO=FILE]...\n"
         "          [--framework-as-of YYYY-MM-DD]\n"
         "                      what a green covered: the verdict from the artifacts and the\n"
         "                      backend's outcome config, its reasons and checks, the config's\n"
         "                      buckets and op x dtype coverage; --selection reads the job's\n"
         "                      pytest selection (-m \"not xfail\") from its log or workflow, so\n"
         "                      deselected tests are not missing; --framework-as-of resolves\n"
         "                      the config as torch-spyre's framework of that date did\n"},
    Command{"report", runReport,
         "  report --sha SHA [--check-run ID] [--format md|csv] [--config REPO=PATH]...\n"
         "         [--selection REPO=FILE]... [--framework-as-of YYYY-MM-DD]\n"
         "                      the verdicts and failures of an upstream SHA's jobs, as\n"
         "                      Markdown for a PR comment or CSV\n"},
    Command{"triage", runTriage,
         "  triage set --check-run ID [--test IDENTITY] --class CLASS [--note T] [--bug URL]\n"
         "             [--author NAME]\n"
         "                      tag a failed job (or one of its tests, file::Class::name) with\n"
         "                      a class; 'untriaged' clears it; author from $RELAYHUD_AUTHOR,\n"
         "                      then $USER\n"
         "  triage list [--sha SHA]...\n"
         "                      print the stored tags\n"
         "  triage export FILE [--sha SHA]...\n"
         "                      write the tags as a relayhud-triage JSON file\n"
         "  triage import FILE  merge a triage file into the cache (newest wins per failure)\n"
         "                      and print what changed and the conflicts\n"
         "  triage clusters [--limit N] [--shas N] [--members N]\n"
         "                      group the failing tests of the N newest SHAs (default 100) by\n"
         "                      their normalised reason, largest first (default 20 shown),\n"
         "                      with the check run id and test of up to N members each\n"},
    Command{"suggest", runSuggest,
         "  suggest (--check-run ID | --sha SHA | --failed) [--days N] [--limit N]\n"
         "          [--no-expected] [--evidence] [--format text|tsv]\n"
         "                      the automatic class of each failure (regression = this PR's,\n"
         "                      pre-existing = broken upstream, backend bug, flaky, infra, ...)\n"
         "                      with why: CLASS, check run id, job, test ('(job)' for the job\n"
         "                      itself) and the reason, TAB-separated; --failed takes every\n"
         "                      failed run (of the last N days), --evidence adds the other\n"
         "                      PRs' runs, the PR's previous head, the breakage and the line;\n"
         "                      tsv: CLASS, CHECK_RUN_ID, TEST ('' for the job), WHY\n"},
    Command{"doctor", runDoctor,
         "  doctor (--workflow FILE | --repo OWNER/REPO)... [--github-api URL]\n"
         "         [--format text|tsv]\n"
         "                      is a backend's CRCR integration sound: lint its GitHub\n"
         "                      workflows (files, or a repository's .github/workflows through\n"
         "                      the contents API, token from GITHUB_TOKEN) against the relay's\n"
         "                      rules: callbacks paired and always sent, the exact SHA tested,\n"
         "                      matrix job names, OIDC, nightly delivery ids, pinning, retries,\n"
         "                      evidence; tsv prints SEVERITY<TAB>CHECK<TAB>LINE<TAB>MESSAGE\n"
         "                      (error, warning, info); exit 1 when any error\n"
         "  doctor --checks     list the checks with the relay's fact behind each\n"},
    Command{"attribution-accuracy", runAttributionAccuracy,
         "  attribution-accuracy --truth FILE [--window-hours N] [--format text|tsv]\n"
         "                      the classes of every failure in the cache against a world's\n"
         "                      known causes (relayhud-sim --write-truth): precision and\n"
         "                      recall per cause, accuracy and the confusion matrix (tsv:\n"
         "                      CHECK_RUN_ID, TEST, TRUTH, SAID, CONFIDENCE per failure)\n"},
    Command{"team", runTeam,
         "  team init --server CONNINFO [--timeout S]\n"
         "                      create (or bring up to date) a team's triage server's schema\n"
         "                      on PostgreSQL; CONNINFO is a libpq conninfo or URI, the\n"
         "                      password from PGPASSWORD or ~/.pgpass; a server whose schema\n"
         "                      is newer than this RelayHUD is refused\n"
         "  team sync --server CONNINFO [--timeout S]\n"
         "                      push this cache's unsent triage changes and pull the team's\n"
         "                      (the first sync joins the team and sends the cache's tags);\n"
         "                      two edits of one field that had not seen each other: the\n"
         "                      newer wins, and the conflict is listed\n"
         "  team status --server CONNINFO [--timeout S]\n"
         "                      connected or offline, unsent N, last sync T, the conflicts;\n"
         "                      exit 1 when the server does not answer\n"},
};
// clang-format on

constexpr std::string_view kUsageHead = "usage: relayhud-cli [--cache FILE] [--now TIME] <command> "
                                        "[options]\n"
                                        "       relayhud-cli help [COMMAND]\n"
                                        "\n"
                                        "commands:\n";
constexpr std::string_view kUsageFoot =
    "The cache defaults to $XDG_CACHE_HOME/relayhud/relayhud.sqlite.\n"
    "--now starts the clock at TIME (epoch seconds or 2026-05-04T17:00:00Z): day windows,\n"
    "stale runs and the time of tags as of then.\n";

const Command* findCommand(std::string_view name)
{
    for (const Command& command : kCommands)
        if (command.name == name)
            return &command;
    return nullptr;
}

void printUsage(std::ostream& out)
{
    out << kUsageHead;
    for (const Command& command : kCommands)
        out << command.usage;
    out << kUsageFoot;
}

std::string commandNames()
{
    std::string names;
    for (const Command& command : kCommands)
        names += (names.empty() ? "" : ", ") + std::string(command.name);
    return names;
}

// help [COMMAND]: every usage, or one command's.
int runHelp(const std::vector<std::string>& args)
{
    if (args.empty()) {
        printUsage(std::cout);
        return 0;
    }
    const Command* command = findCommand(args.front());
    if (command == nullptr || args.size() > 1) {
        std::cerr << "relayhud-cli: help: no command '" << args.front() << "' (one of "
                  << commandNames() << ")\n";
        return 2;
    }
    std::cout << "usage: relayhud-cli [--cache FILE] [--now TIME] <command> [options]\n\n"
              << command->usage;
    return 0;
}

} // namespace

// CI text (test names, messages, log lines, server errors) reaches a
// terminal only with its controls made visible (util/terminal_text.h): no
// escape from a log sets the window title, writes the clipboard (OSC 52) or
// hides a line. A file or a pipe gets the bytes as they are.
class TerminalGuard {
public:
    TerminalGuard(std::ostream& stream, int fd) : m_stream(stream)
    {
        if (::isatty(fd) == 1) {
            m_buf.emplace(stream.rdbuf());
            m_old = stream.rdbuf(&*m_buf);
        }
    }
    ~TerminalGuard()
    {
        if (m_old)
            m_stream.rdbuf(m_old);
    }
    TerminalGuard(const TerminalGuard&) = delete;
    TerminalGuard& operator=(const TerminalGuard&) = delete;

private:
    std::ostream& m_stream;
    std::optional<relayhud::VisibleControlsBuf> m_buf;
    std::streambuf* m_old = nullptr;
};

int main(int argc, char** argv)
{
    const TerminalGuard out(std::cout, STDOUT_FILENO);
    const TerminalGuard err(std::cerr, STDERR_FILENO);
    GlobalOptions global;
    std::vector<std::string> args(argv + 1, argv + argc);
    std::size_t i = 0;
    for (; i < args.size() && args[i].rfind("--", 0) == 0; ++i) {
        if (args[i] == "--help" || args[i] == "-h") {
            printUsage(std::cout);
            return 0;
        }
        if (args[i] == "--version") {
            std::cout << "relayhud-cli " << RELAYHUD_VERSION << "\n";
            return 0;
        }
        if (args[i] == "--cache" && i + 1 < args.size()) {
            global.cachePath = args[++i];
            continue;
        }
        if (args[i] == "--now" && i + 1 < args.size()) {
            const auto at = relayhud::parseInstant(args[++i]);
            if (!at) {
                std::cerr << "relayhud-cli: --now wants epoch seconds or a time like "
                             "2026-05-04T17:00:00Z (got '"
                          << args[i] << "')\n";
                return 2;
            }
            relayhud::pinClock(*at);
            continue;
        }
        std::cerr << "relayhud-cli: unknown option " << args[i] << " (try --help)\n";
        return 2;
    }
    if (i == args.size()) {
        std::cerr << "relayhud-cli: no command given (try --help)\n";
        return 2;
    }
    const std::string& name = args[i];
    const std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                        args.end());
    if (name == "help")
        return runHelp(rest);
    const Command* command = findCommand(name);
    if (command == nullptr) {
        std::cerr << "relayhud-cli: unknown command '" << name << "' (one of " << commandNames()
                  << "; try --help)\n";
        return 2;
    }
    // Core never throws; memory running out is the one exception that can
    // reach here (a hostile input past every limit): one line, no abort.
    try {
        return command->run(global, rest, std::cout, std::cerr);
    } catch (const std::bad_alloc&) {
        std::cerr << "relayhud-cli: " << command->name
                  << ": out of memory; the input is too large for this machine\n";
        return 1;
    }
}
