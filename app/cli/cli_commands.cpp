#include "cli_commands.h"

#include "cli_support.h"
#include "relayhud/hud/hud_client.h"
#include "relayhud/net/http_client.h"
#include "relayhud/store/database.h"
#include "relayhud/store/matrix_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/sync/hud_sync.h"
#include "relayhud/util/terminal_text.h"
#include "relayhud/util/time.h"

#include <memory>

namespace relayhud::cli {
namespace {

const char* glyph(const MatrixCell& cell)
{
    if (cell.empty())
        return "·";
    if (cell.has(MatrixCell::Stale))
        return "☠";
    if (cell.status != RunStatus::Completed)
        return "◐";
    switch (cell.conclusion) {
    case Conclusion::Success: return "✓";
    case Conclusion::Failure: return "✗";
    case Conclusion::Cancelled: return "⊘";
    case Conclusion::TimedOut: return "⏱";
    default: return "?";
    }
}

std::string cellText(const MatrixCell& cell)
{
    if (cell.empty())
        return "";
    if (cell.has(MatrixCell::Stale))
        return "stale";
    if (cell.status != RunStatus::Completed)
        return std::string(toString(cell.status));
    std::string text(toString(cell.conclusion));
    if (cell.attempts > 1)
        text += " (attempt " + std::to_string(cell.attempts) + ")";
    return text;
}

// Each job's column is followed by its check_run_id (the GitHub job id of
// the run the cell shows, "" for none), so a script can open the run
// (relayhud-cli verdict --check-run, tests --check-run) from the row.
Result<void> printTsv(const Database& cache, const MatrixSnapshot& m, std::ostream& out)
{
    out << "sha\tpr\tbranch\tevent\ttime";
    for (const auto& c : m.columns) {
        const std::string name = oneLine(c.backend + '/' + c.workflow + '/' + c.job);
        out << '\t' << name << '\t' << name << " check_run_id";
    }
    out << '\n';
    for (std::size_t r = 0; r < m.rows.size(); ++r) {
        const auto& row = m.rows[r];
        out << row.sha.value << '\t' << row.prNumber.value << '\t' << oneLine(row.branch) << '\t'
            << toString(row.eventType) << '\t' << formatIso(row.time);
        for (std::size_t c = 0; c < m.columns.size(); ++c) {
            const MatrixCell& cell = m.cell(r, c);
            std::string id;
            if (!cell.empty()) {
                auto run = RunStore(cache).checkRun(cell.runRowId);
                if (!run)
                    return run.error();
                id = oneLine(run->checkRunId.value);
            }
            out << '\t' << cellText(cell) << '\t' << id;
        }
        out << '\n';
    }
    return {};
}

void printText(const MatrixSnapshot& m, std::ostream& out)
{
    for (std::size_t c = 0; c < m.columns.size(); ++c)
        out << "col " << c + 1 << ": " << oneLine(m.columns[c].backend) << " ["
            << toString(m.columns[c].level) << "] " << oneLine(m.columns[c].workflow) << " / "
            << oneLine(m.columns[c].job) << '\n';
    out << "legend: ✓ success  ✗ failure  ⊘ cancelled  ⏱ timed out  ◐ running  ☠ stale  · no "
           "run\n\n";
    for (std::size_t r = 0; r < m.rows.size(); ++r) {
        const auto& row = m.rows[r];
        std::string pr = row.prNumber ? "#" + std::to_string(row.prNumber.value) : "";
        out << row.sha.shortSha() << ' ' << pr
            << std::string(pr.size() < 8 ? 8 - pr.size() : 0, ' ') << ' ' << formatIso(row.time)
            << ' ';
        for (std::size_t c = 0; c < m.columns.size(); ++c)
            out << glyph(m.cell(r, c));
        out << '\n';
    }
}

} // namespace

int runSync(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err)
{
    const Flags flags = parseFlags(args, {"--hud", "--days", "--per-page", "--backend"});
    if (!flags.error.empty())
        return fail(err, "sync: " + flags.error, 2);
    SyncOptions options;
    const std::string hudUrl = flags.get("hud");
    if (hudUrl.empty())
        return fail(err, "sync: --hud URL is required (e.g. https://hud.pytorch.org)", 2);
    if (!parseInt(flags.get("days", "14"), options.days) || options.days < 1)
        return fail(err, "sync: --days must be a positive integer", 2);
    if (!parseInt(flags.get("per-page", "50"), options.perPage) || options.perPage < 1)
        return fail(err, "sync: --per-page must be a positive integer", 2);
    options.backends = flags.all("backend");
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    HttpClient http;
    HudClient hud(http, hudUrl);
    HudSync sync(hud, **cache);
    auto report = sync.run(options);
    if (!report)
        return fail(err, "sync failed: " + report.message());
    for (const auto& w : report->warnings)
        err << "warning: " << w << '\n';
    for (const auto& e : report->errors)
        err << "error: " << e << '\n';
    for (const auto& w : report->workarounds)
        out << "worked around: " << w << '\n';
    if (const auto health = cachedRelayHealth(**cache))
        out << health->summary() << '\n';
    out << "synced " << report->backends << " backends, " << report->runs << " check runs, "
        << report->commits << " commits (" << report->pages << " pages, "
        << report->pagesNotModified << " unchanged)\n";
    return report->errors.empty() ? 0 : 1;
}

int runMatrix(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    const Flags flags = parseFlags(args, {"--format", "--limit"});
    if (!flags.error.empty())
        return fail(err, "matrix: " + flags.error, 2);
    const std::string format = flags.get("format", "text");
    if (format != "text" && format != "tsv")
        return fail(err, "matrix: --format must be text or tsv", 2);
    MatrixQuery query;
    int limit = 1000;
    if (!parseInt(flags.get("limit", "1000"), limit) || limit < 1)
        return fail(err, "matrix: --limit must be a positive integer", 2);
    query.maxCommits = limit;
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    auto matrix = MatrixStore(**cache).loadMatrix(query);
    if (!matrix)
        return fail(err, matrix.message());
    if (format == "tsv") {
        if (auto printed = printTsv(**cache, *matrix, out); !printed)
            return fail(err, "matrix: " + printed.message());
    } else {
        printText(*matrix, out);
    }
    return 0;
}

int runStats(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
             std::ostream& err)
{
    if (!args.empty())
        return fail(err, "stats takes no arguments", 2);
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    auto stats = RunStore(**cache).stats();
    if (!stats)
        return fail(err, stats.message());
    out << "backends " << stats->backends << "\ncommits " << stats->commits << "\ncheck_runs "
        << stats->checkRuns << "\njobs " << stats->jobs << "\ntest_runs " << stats->testRuns
        << "\ntest_results " << stats->testResults << '\n';
    return 0;
}

} // namespace relayhud::cli
