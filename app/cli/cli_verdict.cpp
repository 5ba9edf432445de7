// relayhud-cli verdict and report: what a green covered, for one check run
// or for one upstream SHA across backends (issue 7).
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/store/run_store.h"
#include "relayhud/util/terminal_text.h"
#include "relayhud/verdict/report.h"
#include "relayhud/verdict/verdict.h"

#include <cstdio>

namespace relayhud::cli {
namespace {

// --config REPO=PATH, repeated: where each backend's outcome config lives.
Result<verdict::VerdictSources> verdictSources(const Flags& flags)
{
    verdict::VerdictSources sources;
    for (const std::string& item : flags.all("config")) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            return makeError("--config takes REPO=PATH (e.g. torch-spyre/torch-spyre=ops.yaml), "
                             "not '"
                             + item + "'");
        sources.configByRepo[item.substr(0, eq)] = item.substr(eq + 1);
    }
    for (const std::string& item : flags.all("selection")) {
        Result<RepoSelection> selection = readSelectionFlag(item);
        if (!selection)
            return selection.error();
        sources.selectionByRepo[selection->repo] = selection->selection;
    }
    if (flags.has("framework-as-of")) {
        std::string error;
        sources.frameworkAsOf = config::parseFrameworkDate(flags.get("framework-as-of"), &error);
        if (!sources.frameworkAsOf)
            return makeError("--framework-as-of: " + error);
    }
    return sources;
}

// The cache row of the check run GitHub knows by `id`.
Result<CheckRunRow> checkRunRow(const Database& cache, const std::string& id)
{
    auto row = RunStore(cache).checkRunRowFor(CheckRunId{id});
    if (!row)
        return row.error();
    if (!*row)
        return makeError("no check run with id " + id + " in the cache (sync first?)");
    return **row;
}

std::string padded(std::string text, std::size_t width)
{
    text.resize(std::max(text.size(), width), ' ');
    return text;
}

void printBuckets(const verdict::ConfigCoverage& c, std::ostream& out)
{
    out << "buckets:\n  " << padded("bucket", 19) << padded("declared", 10) << padded("ran", 8)
        << padded("missing", 9) << padded("deselected", 12) << "unexpected\n";
    for (std::size_t i = 0; i < verdict::kBucketCount; ++i) {
        const verdict::BucketCounts& b = c.buckets[i];
        out << "  " << padded(verdict::bucketName(static_cast<verdict::Bucket>(i)), 19)
            << padded(std::to_string(b.declared), 10) << padded(std::to_string(b.ran), 8)
            << padded(std::to_string(b.missing), 9) << padded(std::to_string(b.deselected), 12)
            << b.unexpected << '\n';
    }
    out << "pytest selection: "
        << (c.selection
                ? std::string("deselects xfail tests: ")
                      + config::triName(c.selection->deselectsXfail) + " (" + c.selection->why + ")"
                : std::string("not read (give --selection REPO=LOG-OR-WORKFLOW)"))
        << '\n';
    if (!c.deselected.empty())
        out << "deselected by the job, not missing: " << c.deselected.size()
            << " xfail/xfail_strict listing(s)\n";
    if (!c.mandatoryNotRun.empty()) {
        out << "mandatory tests that did not run (" << c.mandatoryNotRun.size() << "):\n";
        for (const verdict::MissingTest& m : c.mandatoryNotRun)
            out << "  " << m.name << "  (" << m.file << " line " << m.line
                << (m.skipped ? ", skipped" : "") << ")\n";
    }
    for (const std::string& t : c.strictXpassed)
        out << "strict xfail passed: " << t << '\n';
    if (!c.unknown.empty()) {
        out << "tests the config does not account for (" << c.unknown.size() << "):\n";
        for (std::size_t i = 0; i < std::min<std::size_t>(c.unknown.size(), 20); ++i)
            out << "  " << oneLine(c.unknown[i].identity) << ": " << oneLine(c.unknown[i].why)
                << '\n';
    }
    out << "unlisted tests that ran: " << c.unlistedRan.size() << '\n';
}

std::string joinedOrNone(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

void printCoverage(const verdict::OpDtypeCoverage& c, std::ostream& out)
{
    out << "coverage: " << c.ops.size() << " ops, " << c.dtypes.size() << " dtypes, "
        << c.cells.size() << " op x dtype cells, " << c.unmarkedCases << " cases without marks\n";
    for (const verdict::NamedTally& op : c.ops)
        out << "  op " << padded(op.name, 20) << op.tally.ran << " ran, " << op.tally.passed
            << " passed, " << op.tally.failed << " failed\n";
    for (const verdict::NamedTally& dtype : c.dtypes)
        out << "  dtype " << padded(dtype.name, 17) << dtype.tally.ran << " ran, "
            << dtype.tally.passed << " passed, " << dtype.tally.failed << " failed\n";
    if (c.hasSupportedLists) {
        out << "  supported ops that never ran: " << joinedOrNone(c.opsNeverRan) << '\n';
        out << "  supported dtypes that never ran: " << joinedOrNone(c.dtypesNeverRan) << '\n';
        out << "  ops that ran but are not supported: " << joinedOrNone(c.opsNotSupported) << '\n';
        out << "  dtypes that ran but are not supported: " << joinedOrNone(c.dtypesNotSupported)
            << '\n';
    }
}

void printVerdict(const verdict::RunVerdict& v, std::ostream& out)
{
    const CheckRun& r = v.run;
    out << "check run " << r.checkRunId.value << ": " << r.downstreamRepo << ' ' << r.workflow
        << " / " << oneLine(r.jobName) << " (attempt " << r.runAttempt << ") on "
        << r.upstreamSha.value << '\n';
    out << "verdict: " << verdict::verdictName(v.verdict) << '\n';
    for (const std::string& reason : v.reasons)
        out << "  - " << reason << '\n';
    out << "checks:\n";
    for (const verdict::ConsistencyCheck& c : v.checks)
        out << "  " << padded(verdict::checkStateName(c.state), 15)
            << padded(verdict::checkKindName(c.kind), 14) << c.sentence << '\n';
    if (v.configCoverage)
        printBuckets(*v.configCoverage, out);
    printCoverage(v.coverage, out);
}

} // namespace

int runVerdict(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err)
{
    const Flags flags =
        parseFlags(args, {"--check-run", "--config", "--selection", "--framework-as-of"});
    if (!flags.error.empty())
        return fail(err, "verdict: " + flags.error, 2);
    if (!flags.has("check-run"))
        return fail(err, "verdict: give --check-run ID", 2);
    auto sources = verdictSources(flags);
    if (!sources)
        return fail(err, "verdict: " + sources.message(), 2);
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    auto row = checkRunRow(**cache, flags.get("check-run"));
    if (!row)
        return fail(err, "verdict: " + row.message());
    auto v = verdict::verdictForRun(**cache, *row, *sources);
    if (!v)
        return fail(err, "verdict: " + v.message());
    printVerdict(*v, out);
    return 0;
}

int runReport(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    const Flags flags = parseFlags(
        args, {"--sha", "--check-run", "--format", "--config", "--selection", "--framework-as-of"});
    if (!flags.error.empty())
        return fail(err, "report: " + flags.error, 2);
    if (!flags.has("sha"))
        return fail(err, "report: give --sha SHA (the upstream commit)", 2);
    const std::string format = flags.get("format", "md");
    if (format != "md" && format != "csv")
        return fail(err, "report: --format must be md or csv (not '" + format + "')", 2);
    auto sources = verdictSources(flags);
    if (!sources)
        return fail(err, "report: " + sources.message(), 2);
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    std::optional<CheckRunRow> only;
    if (flags.has("check-run")) {
        auto row = checkRunRow(**cache, flags.get("check-run"));
        if (!row)
            return fail(err, "report: " + row.message());
        only = *row;
    }
    auto input = verdict::loadReportInput(**cache, Sha{flags.get("sha")}, only, *sources);
    if (!input)
        return fail(err, "report: " + input.message());
    for (const verdict::RunVerdict& job : input->jobs) {
        auto failures = verdict::failuresFromResults(**cache, job);
        if (!failures)
            return fail(err, "report: " + failures.message());
        input->failures.insert(input->failures.end(), failures->begin(), failures->end());
    }
    out << (format == "md" ? verdict::markdownReport(*input) : verdict::csvReport(*input));
    return 0;
}

} // namespace relayhud::cli
