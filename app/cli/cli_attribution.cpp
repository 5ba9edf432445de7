// relayhud-cli attribution-accuracy --truth FILE: how the automatic classes
// of every failure in the cache (triage/suggest.h) compare with a world's
// known causes, one JSON line per failing test or failed job:
//   {"check_run_id": "...", "test": "file::Class::name" or "", "cause": "...",
//    "culprit_pr": N or null}
// (relayhud-sim --write-truth writes such a file). Prints precision and
// recall per cause, the overall accuracy, and the confusion matrix; with
// --format tsv, one line per failure instead (what tests/bench/
// attribution-worlds.sh sums over many worlds):
//   CHECK_RUN_ID<TAB>TEST<TAB>TRUTH<TAB>SAID<TAB>CONFIDENCE
// TRUTH "(not in truth)" for a suggestion the truth has no line for, SAID
// "(missing)" for a truth line no suggestion names, CONFIDENCE "-" then.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/util/json_guard.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace relayhud::cli {
namespace {

using namespace relayhud::triage;

// The truth's causes and the class that names each.
struct Cause {
    const char* name;
    FailureClass cls;
};
constexpr Cause kCauses[] = {
    {"this_pr", FailureClass::Regression},
    {"broken_trunk", FailureClass::PreExisting},
    {"backend", FailureClass::BackendBug},
    {"flaky", FailureClass::Flaky},
    {"infra", FailureClass::Infra},
    {"expected", FailureClass::Expected},
    {"unexpected_pass", FailureClass::UnexpectedPass},
};

std::string causeOf(FailureClass cls)
{
    for (const Cause& c : kCauses)
        if (c.cls == cls)
            return c.name;
    return "(" + failureClassSlug(cls) + ")";
}

using Key = std::pair<std::string, std::string>; // check run id, test

Result<std::map<Key, std::string>> readTruth(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        return makeError("cannot read " + path);
    std::map<Key, std::string> truth;
    std::string line;
    std::size_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty())
            continue;
        const auto json = parseJsonOrDiscarded(line);
        if (!json.is_object() || !json.contains("check_run_id") || !json.contains("cause")
            || !json["check_run_id"].is_string() || !json["cause"].is_string()
            || (json.contains("test") && !json["test"].is_string()))
            return makeError(path + ":" + std::to_string(number)
                             + ": not a truth line (check_run_id, test, cause)");
        const std::string test = json.value("test", std::string());
        truth[{json["check_run_id"].get<std::string>(), test}] = json["cause"].get<std::string>();
    }
    return truth;
}

std::string ratio(std::size_t part, std::size_t whole)
{
    if (whole == 0)
        return "   -  ";
    std::ostringstream out;
    out << std::fixed << std::setprecision(3)
        << static_cast<double>(part) / static_cast<double>(whole);
    return out.str();
}

// What the suggester said of a failure: the cause its class names.
struct Said {
    std::string cause;
    double confidence = 0;
};

// Every suggestion by (check run id, test).
Result<std::map<Key, Said>> saidOf(const Database& cache,
                                   const std::vector<triage::Suggestion>& suggestions)
{
    std::map<Key, Said> said;
    std::map<CheckRunRow, std::string> ids;
    for (const triage::Suggestion& s : suggestions) {
        auto it = ids.find(s.target.checkRunRow);
        if (it == ids.end()) {
            auto run = RunStore(cache).checkRun(s.target.checkRunRow);
            if (!run)
                return run.error();
            it = ids.emplace(s.target.checkRunRow, run->checkRunId.value).first;
        }
        said[{it->second, s.target.identity}] = {causeOf(s.cls), s.confidence};
    }
    return said;
}

void printTsv(const std::map<Key, std::string>& truth, const std::map<Key, Said>& said,
              std::ostream& out)
{
    const auto line = [&out](const Key& key, const std::string& cause, const Said* s) {
        out << key.first << '\t' << key.second << '\t' << cause << '\t'
            << (s ? s->cause : "(missing)") << '\t';
        if (s)
            out << std::fixed << std::setprecision(2) << s->confidence << '\n';
        else
            out << "-\n";
    };
    for (const auto& [key, cause] : truth) {
        const auto it = said.find(key);
        line(key, cause, it == said.end() ? nullptr : &it->second);
    }
    for (const auto& [key, s] : said)
        if (truth.find(key) == truth.end())
            line(key, "(not in truth)", &s);
}

// confusion[truth][said]; "(missing)" where no suggestion names the failure
// (its results or log were never fetched), "(not in truth)" where the truth
// has no line.
using Confusion = std::map<std::string, std::map<std::string, std::size_t>>;

void printPrecisionRecall(Confusion& confusion, std::ostream& out)
{
    out << "cause            precision  recall  truth  said\n";
    for (const Cause& c : kCauses) {
        std::size_t truthCount = 0;
        std::size_t saidCount = 0;
        for (const auto& [cause, row] : confusion) {
            for (const auto& [got, n] : row) {
                if (cause == c.name)
                    truthCount += n;
                if (got == c.name)
                    saidCount += n;
            }
        }
        if (truthCount == 0 && saidCount == 0)
            continue;
        const std::size_t hit = confusion[c.name][c.name];
        out << std::left << std::setw(17) << c.name << std::setw(11) << ratio(hit, saidCount)
            << std::setw(8) << ratio(hit, truthCount) << std::setw(7) << truthCount << saidCount
            << '\n';
    }
}

void printReport(const std::map<Key, std::string>& truth, const std::map<Key, Said>& said,
                 std::ostream& out)
{
    Confusion confusion;
    std::set<std::string> columns;
    std::size_t correct = 0;
    for (const auto& [key, cause] : truth) {
        const auto it = said.find(key);
        const std::string got = it == said.end() ? "(missing)" : it->second.cause;
        ++confusion[cause][got];
        columns.insert(got);
        if (got == cause)
            ++correct;
    }
    std::size_t extra = 0;
    for (const auto& [key, s] : said)
        if (truth.find(key) == truth.end()) {
            ++confusion["(not in truth)"][s.cause];
            columns.insert(s.cause);
            ++extra;
        }
    printPrecisionRecall(confusion, out);
    out << "accuracy " << ratio(correct, truth.size()) << " (" << correct << " of " << truth.size()
        << " truth lines); " << extra << " suggestions have no truth line\n";
    out << "\nconfusion (rows: truth, columns: said)\n" << std::left << std::setw(17) << "";
    for (const std::string& col : columns)
        out << std::setw(16) << col;
    out << '\n';
    for (const auto& [cause, row] : confusion) {
        out << std::setw(17) << cause;
        for (const std::string& col : columns) {
            const auto it = row.find(col);
            out << std::setw(16) << (it == row.end() ? 0 : it->second);
        }
        out << '\n';
    }
}

} // namespace

int runAttributionAccuracy(const GlobalOptions& global, const std::vector<std::string>& args,
                           std::ostream& out, std::ostream& err)
{
    const Flags flags = parseFlags(args, {"--truth", "--window-hours", "--format"});
    if (!flags.error.empty())
        return fail(err, "attribution-accuracy: " + flags.error, 2);
    if (!flags.has("truth"))
        return fail(err, "attribution-accuracy: give --truth FILE", 2);
    const std::string format = flags.get("format", "text");
    if (format != "text" && format != "tsv")
        return fail(err, "attribution-accuracy: --format must be text or tsv", 2);
    triage::SuggestOptions options;
    options.includeExpected = false; // an xfailed test is no failure
    if (flags.has("window-hours")) {
        int hours = 0;
        if (!parseInt(flags.get("window-hours"), hours) || hours <= 0)
            return fail(err, "attribution-accuracy: --window-hours must be a positive integer", 2);
        options.attribution.windowSeconds = static_cast<EpochSeconds>(hours) * 3600;
    }
    auto truth = readTruth(flags.get("truth"));
    if (!truth)
        return fail(err, "attribution-accuracy: " + truth.message());
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    auto rows = EvidenceStore(**cache).triageRunRows({});
    if (!rows)
        return fail(err, "attribution-accuracy: " + rows.message());
    auto suggestions = suggestForRuns(**cache, *rows, options);
    if (!suggestions)
        return fail(err, "attribution-accuracy: " + suggestions.message());
    auto said = saidOf(**cache, *suggestions);
    if (!said)
        return fail(err, "attribution-accuracy: " + said.message());
    if (format == "tsv")
        printTsv(*truth, *said, out);
    else
        printReport(*truth, *said, out);
    return 0;
}

} // namespace relayhud::cli
