// relayhud-cli triage: human tags on failures (set, list), the team's JSON
// exchange file (export, import with merge), and failure clusters.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/store/run_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/triage/cluster.h"
#include "relayhud/triage/triage_exchange.h"
#include "relayhud/util/terminal_text.h"
#include "relayhud/util/time.h"

#include <cstdlib>

namespace relayhud::cli {
namespace {

using triage::FailureClass;

std::string envOr(const char* name, std::string fallback)
{
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

std::string describe(const TriageTarget& t)
{
    return t.repo + "  " + t.workflow + " / " + t.job + "  " + t.sha.shortSha() + "  attempt "
           + std::to_string(t.attempt) + "  " + (t.isJob() ? std::string("(job)") : t.test);
}

std::string verdict(const TriageTag& tag)
{
    std::string out = std::string(triage::failureClassName(tag.cls));
    if (!tag.note.empty())
        out += "  \"" + tag.note + "\"";
    if (!tag.bugUrl.empty())
        out += "  " + tag.bugUrl;
    return out + "  (" + (tag.author.empty() ? "?" : tag.author) + ", "
           + triage::formatTimeMs(tag.timeMs) + ")";
}

// "FILE --flag value ...": the one positional argument first.
bool splitFile(const std::vector<std::string>& args, std::string& file,
               std::vector<std::string>& rest)
{
    if (args.empty() || args.front().starts_with("--"))
        return false;
    file = args.front();
    rest.assign(args.begin() + 1, args.end());
    return true;
}

std::vector<Sha> shasOf(const Flags& flags)
{
    std::vector<Sha> shas;
    for (const std::string& sha : flags.all("sha"))
        shas.push_back(Sha{sha});
    return shas;
}

int runSet(Database& cache, const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err)
{
    const Flags flags =
        parseFlags(args, {"--check-run", "--test", "--class", "--note", "--bug", "--author"});
    if (!flags.error.empty())
        return fail(err, "triage set: " + flags.error, 2);
    if (!flags.has("check-run") || !flags.has("class"))
        return fail(err, "triage set: give --check-run ID and --class CLASS", 2);
    const auto cls = triage::parseTagClass(flags.get("class"));
    if (!cls)
        return fail(err,
                    "triage set: unknown class '" + flags.get("class") + "' (one of "
                        + triage::tagClassNames() + ")",
                    2);
    const CheckRunId checkRun{flags.get("check-run")};
    auto row = RunStore(cache).checkRunRowFor(checkRun);
    if (!row)
        return fail(err, "triage set: " + row.message());
    if (!*row)
        return fail(err, "triage set: no check run with id " + checkRun.value
                             + " in the cache (sync first?)");
    auto target = TriageStore(cache).triageTargetOf(**row, flags.get("test"));
    if (!target)
        return fail(err, "triage set: " + target.message());
    TriageTag tag{*target,
                  *cls,
                  flags.get("note"),
                  flags.get("bug"),
                  flags.get("author", envOr("RELAYHUD_AUTHOR", envOr("USER", ""))),
                  nowMilliseconds()};
    auto before = TriageStore(cache).setTriageTags({tag});
    if (!before)
        return fail(err, "triage set: " + before.message());
    out << describe(tag.target) << "\n  " << verdict(tag);
    if (before->front())
        out << "\n  was " << verdict(*before->front());
    out << '\n';
    return 0;
}

int runList(Database& cache, const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err)
{
    const Flags flags = parseFlags(args, {"--sha"});
    if (!flags.error.empty())
        return fail(err, "triage list: " + flags.error, 2);
    auto tags = TriageStore(cache).triageTags(shasOf(flags));
    if (!tags)
        return fail(err, "triage list: " + tags.message());
    for (const TriageTag& tag : *tags)
        out << describe(tag.target) << "\n  " << verdict(tag) << '\n';
    return 0;
}

int runExport(Database& cache, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    std::string file;
    std::vector<std::string> rest;
    if (!splitFile(args, file, rest))
        return fail(err, "triage export: give the FILE to write", 2);
    const Flags flags = parseFlags(rest, {"--sha"});
    if (!flags.error.empty())
        return fail(err, "triage export: " + flags.error, 2);
    auto written = triage::exportTriageFile(cache, file, shasOf(flags));
    if (!written)
        return fail(err, "triage export: " + written.message());
    out << "exported " << *written << (*written == 1 ? " tag" : " tags") << " to " << file << '\n';
    return 0;
}

int runImportTags(Database& cache, const std::vector<std::string>& args, std::ostream& out,
                  std::ostream& err)
{
    if (args.size() != 1 || args.front().starts_with("--"))
        return fail(err, "triage import: give the one FILE to read", 2);
    auto report = triage::importTriageFile(cache, args.front());
    if (!report)
        return fail(err, "triage import: " + report.message());
    out << "added " << report->added << ", updated " << report->updated << ", unchanged "
        << report->unchanged << ", kept local " << report->keptLocal << ", conflicts "
        << report->conflicts.size() << '\n';
    for (const triage::MergeConflict& c : report->conflicts) {
        out << "conflict: " << describe(c.local.target) << "\n  local    " << verdict(c.local)
            << "\n  imported " << verdict(c.imported) << "\n  "
            << (c.winner == triage::MergeWinner::Imported ? "imported wins: " : "local wins: ")
            << c.why << '\n';
    }
    return 0;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

// "  member CHECK_RUN_ID TEST": what `triage set` takes to tag it.
Result<void> printMember(const Database& cache, const FailureRecord& f, std::ostream& out)
{
    auto run = RunStore(cache).checkRun(f.checkRunRow);
    if (!run)
        return run.error();
    out << "  member " << run->checkRunId.value << ' ' << f.test << '\n';
    return {};
}

int runClusters(Database& cache, const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err)
{
    const Flags flags = parseFlags(args, {"--limit", "--shas", "--members"});
    if (!flags.error.empty())
        return fail(err, "triage clusters: " + flags.error, 2);
    std::int64_t limit = 20;
    std::int64_t members = 0;
    FailureQuery query;
    query.newestShas = 100;
    if (flags.has("limit") && (!parseInt64(flags.get("limit"), limit) || limit < 1))
        return fail(err, "triage clusters: --limit must be a positive integer", 2);
    if (flags.has("shas")
        && (!parseInt64(flags.get("shas"), query.newestShas) || query.newestShas < 1))
        return fail(err, "triage clusters: --shas must be a positive integer", 2);
    if (flags.has("members") && (!parseInt64(flags.get("members"), members) || members < 0))
        return fail(err, "triage clusters: --members must be a number", 2);
    auto failures = TriageStore(cache).failuresForClustering(query);
    if (!failures)
        return fail(err, "triage clusters: " + failures.message());
    auto tags = TriageStore(cache).triageTags();
    if (!tags)
        return fail(err, "triage clusters: " + tags.message());
    const auto clusters = triage::buildClusters(*failures, *tags);
    out << failures->size() << " failing tests in " << clusters.size() << " clusters\n";
    const auto shown = std::min<std::size_t>(clusters.size(), static_cast<std::size_t>(limit));
    for (std::size_t i = 0; i < shown; ++i) {
        const triage::FailureCluster& c = clusters[i];
        out << c.count << "  [" << triage::clusterTagName(c) << "]  " << oneLine(c.key)
            << "\n  first seen " << c.firstSeenSha.shortSha() << "  backends " << joined(c.backends)
            << "\n  jobs " << oneLine(joined(c.jobs)) << "\n  e.g. " << oneLine(c.example) << '\n';
        const auto listed =
            std::min<std::size_t>(c.members.size(), static_cast<std::size_t>(members));
        for (std::size_t m = 0; m < listed; ++m)
            if (auto r = printMember(cache, (*failures)[c.members[m]], out); !r)
                return fail(err, "triage clusters: " + r.message());
    }
    return 0;
}

} // namespace

int runTriage(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    if (args.empty())
        return fail(err, "triage: give set, list, export, import or clusters", 2);
    const std::string sub = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    using Sub = int (*)(Database&, const std::vector<std::string>&, std::ostream&, std::ostream&);
    Sub run = sub == "set"        ? runSet
              : sub == "list"     ? runList
              : sub == "export"   ? runExport
              : sub == "import"   ? runImportTags
              : sub == "clusters" ? runClusters
                                  : nullptr;
    if (run == nullptr)
        return fail(
            err, "triage: unknown subcommand '" + sub + "' (set, list, export, import or clusters)",
            2);
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    return run(**cache, rest, out, err);
}

} // namespace relayhud::cli
