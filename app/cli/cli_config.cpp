// relayhud-cli config: explain, validate, edit and suggest edits to
// torch-spyre outcome configs (issue 6). Edits print a unified diff with
// --dry-run and write nothing.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_explain.h"
#include "relayhud/config/config_file.h"
#include "relayhud/config/config_lint.h"
#include "relayhud/config/config_merge.h"
#include "relayhud/config/config_suggest.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/suggestion_groups.h"
#include "relayhud/config/text_diff.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/util/split.h"
#include "relayhud/util/terminal_text.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace relayhud::cli {
namespace {

using namespace relayhud::config;

// Positionals plus --reason/--evidence/--op/--dtype values and --dry-run.
struct ConfigArgs {
    std::vector<std::string> positional;
    std::string reason;
    std::string evidence;
    TestMarks marks;
    bool dryRun = false;
    bool hasReason = false;
    // config suggest and config validate --known
    std::string runs;
    std::string repo;
    bool apply = false;
    bool known = false;
    // explain
    std::optional<std::string> testType;
    std::string format = "text";
    std::optional<Mode> demoteTo;
    bool fromStdin = false;                     // explain: tests from stdin, one per line
    std::vector<std::string> selections;        // suggest: --selection REPO=FILE
    std::optional<FrameworkDate> frameworkAsOf; // --framework-as-of
    std::string error;
};

ConfigArgs parseConfigArgs(const std::vector<std::string>& args)
{
    ConfigArgs out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--dry-run" || arg == "--apply" || arg == "--known") {
            (arg == "--dry-run" ? out.dryRun : arg == "--apply" ? out.apply : out.known) = true;
            continue;
        }
        if (arg == "--stdin") {
            out.fromStdin = true;
            continue;
        }
        const bool valued = arg == "--reason" || arg == "--evidence" || arg == "--op"
                            || arg == "--dtype" || arg == "--runs" || arg == "--repo"
                            || arg == "--test-type" || arg == "--format" || arg == "--demote-to"
                            || arg == "--selection" || arg == "--framework-as-of";
        if (!valued) {
            if (arg.rfind("--", 0) == 0)
                out.error = "unknown option " + arg;
            out.positional.push_back(arg);
            continue;
        }
        if (i + 1 == args.size()) {
            out.error = arg + " needs a value";
            break;
        }
        const std::string& value = args[++i];
        if (arg == "--reason") {
            out.reason = value;
            out.hasReason = true;
        } else if (arg == "--evidence") {
            out.evidence = value;
        } else if (arg == "--runs" || arg == "--repo") {
            (arg == "--runs" ? out.runs : out.repo) = value;
        } else if (arg == "--test-type") {
            out.testType = value;
        } else if (arg == "--selection") {
            out.selections.push_back(value);
        } else if (arg == "--framework-as-of") {
            std::string error;
            out.frameworkAsOf = parseFrameworkDate(value, &error);
            if (!out.frameworkAsOf)
                out.error = "--framework-as-of: " + error;
        } else if (arg == "--format") {
            out.format = value;
            if (value != "text" && value != "tsv")
                out.error = "--format is text or tsv";
        } else if (arg == "--demote-to") {
            out.demoteTo = parseMode(value);
            if (out.demoteTo != Mode::Xfail && out.demoteTo != Mode::XfailStrict)
                out.error = "--demote-to is xfail or xfail_strict";
        } else {
            out.marks.items.push_back({arg == "--op" ? MarkKind::Op : MarkKind::Dtype, value});
        }
    }
    return out;
}

// The configs named on the command line, read and merged as run_test.sh
// merges several; findings go to `err` with each file's name.
struct LoadedConfigs {
    std::vector<ParsedConfig> parsed;
    MergedConfig merged;
};

Result<LoadedConfigs> loadConfigs(const std::vector<std::string>& paths, std::ostream& err)
{
    LoadedConfigs out;
    out.parsed.reserve(paths.size());
    std::vector<MergeInput> inputs;
    for (const std::string& path : paths) {
        Result<LoadedConfig> loaded = loadConfigFile(path);
        if (!loaded)
            return loaded.error();
        Result<ParsedConfig> parsed = parseOutcomeConfig(loaded->text);
        if (!parsed)
            return makeError(path + ": " + parsed.message());
        for (const Finding& finding : parsed->findings)
            if (finding.severity == Severity::Error)
                err << path << ":" << formatFinding(finding)
                    << " (torch-spyre's framework refuses this config; the rest is resolved as "
                       "if that were fixed)\n";
        out.parsed.push_back(std::move(*parsed));
    }
    for (std::size_t i = 0; i < paths.size(); ++i)
        inputs.push_back({paths[i], &out.parsed[i].config});
    Result<MergedConfig> merged = mergeOutcomeConfigs(inputs);
    if (!merged)
        return merged.error();
    for (const std::string& note : merged->notes)
        err << "relayhud-cli: merge: " << note << "\n";
    out.merged = std::move(*merged);
    return out;
}

// "12", or "file.yaml:12" for a merged config; "unlisted" without an entry.
std::string lineText(const OutcomeConfig& config, const Resolution& r)
{
    const std::size_t line = decidingLine(config, r);
    if (line == 0)
        return "unlisted";
    if (config.origins.empty())
        return std::to_string(line);
    const std::size_t origin = config.files[r.fileIndex].tests[*r.entryIndex].origin;
    return config.origins[origin] + ":" + std::to_string(line);
}

std::string reasonText(const OutcomeConfig& config, const Resolution& r)
{
    switch (r.outcome) {
    case Outcome::Dropped: return r.dropReason;
    case Outcome::CannotJudge: return r.cannotJudge;
    default: break;
    }
    std::string text = decidedBy(config, r);
    if (r.finalMode != r.configMode)
        text += std::string("; force_xfail turns ") + modeName(r.configMode) + " into "
                + modeName(r.finalMode);
    return text;
}

std::string tsvLine(const OutcomeConfig& config, const Resolution& r)
{
    return std::string(outcomeName(r.outcome)) + '\t' + lineText(config, r) + '\t'
           + oneLine(reasonText(config, r));
}

// --stdin: `TEST[<TAB>OP[<TAB>TEST_TYPE]]` per line ("-" for none); one
// resolver for them all; prints TEST<TAB>MODE<TAB>LINE<TAB>REASON.
int explainMany(const OutcomeConfig& config, const ConfigArgs& args, std::istream& in,
                std::ostream& out)
{
    const Resolver resolver(config);
    std::string line;
    int failures = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        const std::vector<std::string_view> fields = splitOn(line, "\t");
        TestQuery query = parseTestQuery(fields[0]);
        if (fields.size() > 1 && fields[1] != "-" && !fields[1].empty())
            query.ops = {std::string(fields[1])};
        ResolveContext context;
        context.testType = args.testType;
        context.frameworkAsOf = args.frameworkAsOf;
        if (fields.size() > 2 && fields[2] != "-")
            context.testType = std::string(fields[2]);
        Result<Resolution> r = resolver.resolve(variantOf(query, context), context);
        out << fields[0] << '\t';
        if (r) {
            out << tsvLine(config, *r) << '\n';
        } else {
            out << "error\t-\t" << oneLine(r.message()) << '\n';
            ++failures;
        }
    }
    return failures == 0 ? 0 : 1;
}

int runExplain(const ConfigArgs& args, std::istream& in, std::ostream& out, std::ostream& err)
{
    const std::size_t configs = args.positional.size() - (args.fromStdin ? 0 : 1);
    if (args.positional.size() < (args.fromStdin ? 1u : 2u) || configs == 0)
        return fail(err,
                    "usage: config explain CONFIG... (TEST | --stdin) [--op OP] [--dtype DTYPE] "
                    "[--test-type T] [--format text|tsv]",
                    2);
    const std::vector<std::string> paths(
        args.positional.begin(), args.positional.begin() + static_cast<std::ptrdiff_t>(configs));
    Result<LoadedConfigs> loaded = loadConfigs(paths, err);
    if (!loaded)
        return fail(err, loaded.message());
    const OutcomeConfig& config = loaded->merged.config;
    if (args.fromStdin)
        return explainMany(config, args, in, out);
    const std::string& test = args.positional.back();
    TestQuery query = parseTestQuery(test);
    for (const std::string_view op : args.marks.values(MarkKind::Op))
        query.ops.emplace_back(op);
    if (const auto dtypes = args.marks.values(MarkKind::Dtype); !dtypes.empty())
        query.dtype = std::string(dtypes.front());
    ResolveContext context;
    context.testType = args.testType;
    context.frameworkAsOf = args.frameworkAsOf;
    Result<Resolution> r = explainTest(config, query, context);
    if (!r)
        return fail(err, r.message());
    if (args.format == "tsv") {
        out << tsvLine(config, *r) << '\n';
        return 0;
    }
    out << test << "\n  outcome: " << outcomeName(r->outcome)
        << "\n  base method: " << r->baseMethod << "\n  decided by: " << decidedBy(config, *r)
        << "\n";
    for (const std::string& step : r->steps)
        out << "  - " << step << "\n";
    return 0;
}

// With --known, also the patterns that match no test the cache knows.
Result<std::vector<Finding>> knownTestFindings(const GlobalOptions& global,
                                               const OutcomeConfig& config,
                                               const ResolveContext& context)
{
    Result<std::unique_ptr<Database>> cache = openCache(global);
    if (!cache)
        return cache.error();
    Result<std::vector<KnownTest>> known = EvidenceStore(**cache).knownTests();
    if (!known)
        return known.error();
    return lintConfig(config, *known, context);
}

int runValidate(const GlobalOptions& global, const ConfigArgs& args, std::ostream& out,
                std::ostream& err)
{
    if (args.positional.size() != 1)
        return fail(err, "usage: config validate CONFIG [--known]", 2);
    const std::string& path = args.positional[0];
    Result<LoadedConfig> loaded = loadConfigFile(path);
    if (!loaded)
        return fail(err, loaded.message());
    Result<ParsedConfig> parsed = parseOutcomeConfig(loaded->text);
    if (!parsed)
        return fail(err, path + ": " + parsed.message());
    std::vector<Finding> lint;
    ResolveContext context;
    context.frameworkAsOf = args.frameworkAsOf;
    if (args.known) {
        Result<std::vector<Finding>> withKnown = knownTestFindings(global, parsed->config, context);
        if (!withKnown)
            return fail(err, withKnown.message());
        lint = std::move(*withKnown);
    } else {
        lint = lintConfig(parsed->config, {}, context);
    }
    parsed->findings.insert(parsed->findings.end(), lint.begin(), lint.end());
    std::stable_sort(parsed->findings.begin(), parsed->findings.end(),
                     [](const Finding& a, const Finding& b) { return a.pos.line < b.pos.line; });
    for (const Finding& finding : parsed->findings)
        out << path << ":" << formatFinding(finding) << "\n";
    if (parsed->hasErrors())
        return fail(err,
                    path + ": invalid (" + std::to_string(parsed->findings.size()) + " findings)");
    std::size_t names = 0;
    for (const FileSection& file : parsed->config.files)
        for (const TestEntry& entry : file.tests)
            names += entry.names.size();
    out << path << ": ok, " << parsed->config.files.size() << " file(s), " << names << " name(s)\n";
    return 0;
}

// The diff names the file relative to the working folder so `patch -p1` run
// there finds it.
std::string diffPath(const std::string& path)
{
    std::error_code ec;
    const std::filesystem::path relative = std::filesystem::relative(path, ec);
    return ec || relative.empty() ? path : relative.generic_string();
}

int runEdit(EditKind kind, const ConfigArgs& args, std::ostream& out, std::ostream& err)
{
    const std::size_t wanted = kind == EditKind::SetMode ? 3 : 2;
    if (args.positional.size() != wanted || !args.hasReason)
        return fail(err,
                    kind == EditKind::SetMode
                        ? "usage: config set-mode CONFIG TEST MODE --reason TEXT [--dry-run]"
                        : "usage: config promote|demote CONFIG TEST --reason TEXT [--dry-run]",
                    2);
    EditRequest request{args.positional[1],     args.marks,  kind,
                        Mode::MandatorySuccess, args.reason, args.evidence};
    request.demoteTo = args.demoteTo.value_or(Mode::Xfail);
    if (kind == EditKind::SetMode) {
        const std::optional<Mode> mode = parseMode(args.positional[2]);
        if (!mode)
            return fail(err,
                        "unknown mode '" + args.positional[2]
                            + "' (mandatory_success, xfail, xfail_strict or skip)",
                        2);
        request.target = *mode;
    }
    Result<LoadedConfig> loaded = loadConfigFile(args.positional[0]);
    if (!loaded)
        return fail(err, loaded.message());
    Result<ModeEdit> edit = planModeEdit(loaded->text, request);
    if (!edit)
        return fail(err, edit.message());
    for (const std::string& warning : edit->warnings)
        err << "relayhud-cli: warning: " << warning << "\n";
    if (args.dryRun) {
        out << unifiedDiff(loaded->text, edit->text, diffPath(loaded->path));
        return 0;
    }
    if (Result<void> saved = saveConfigFile(*loaded, edit->text); !saved)
        return fail(err, saved.message());
    out << edit->summary << "\n";
    return 0;
}

const char* moveName(EditKind kind) { return kind == EditKind::Promote ? "promote" : "demote"; }

void printSuggestion(const Suggestion& s, std::ostream& list)
{
    list << moveName(s.kind) << " " << s.test << " (" << modeName(s.from) << " -> "
         << modeName(s.to) << "): " << s.evidence;
    if (!s.unevidenced.empty()) {
        list << "; no evidence for";
        for (const std::string& dtype : s.unevidenced)
            list << " " << dtype;
    }
    list << "\n";
}

// config suggest: list the moves the cache argues for; --dry-run prints the
// combined diff of applying them all, --apply writes it.
int runConfigSuggest(const GlobalOptions& global, const ConfigArgs& args, std::ostream& out,
                     std::ostream& err)
{
    SuggestOptions options;
    if (args.positional.size() != 1
        || (!args.runs.empty() && (!parseInt(args.runs, options.runs) || options.runs < 1)))
        return fail(err,
                    "usage: config suggest CONFIG [--runs N (>= 1)] [--repo ORG/REPO] [--apply] "
                    "[--dry-run] [--reason TEXT]",
                    2);
    Result<LoadedConfig> loaded = loadConfigFile(args.positional[0]);
    if (!loaded)
        return fail(err, loaded.message());
    Result<ParsedConfig> parsed = parseOutcomeConfig(loaded->text);
    if (!parsed)
        return fail(err, loaded->path + ": " + parsed.message());
    Result<std::unique_ptr<Database>> cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    Result<RecentResults> recent = EvidenceStore(**cache).recentResults({options.runs, args.repo});
    if (!recent)
        return fail(err, recent.message());
    if (Result<std::vector<KnownTest>> known = EvidenceStore(**cache).knownTests(); !known)
        err << "relayhud-cli: warning: patterns not checked: " << known.message() << "\n";
    else
        for (const Finding& finding : lintConfig(parsed->config, *known))
            err << loaded->path << ":" << formatFinding(finding) << "\n";
    options.demoteTo = args.demoteTo.value_or(Mode::Xfail);
    // One move per method however many jobs argue for it, by deciding entry.
    const std::vector<SuggestionGroup> groups =
        groupSuggestions(parsed->config, suggestModeChanges(parsed->config, *recent, options));
    const std::vector<Suggestion> suggestions = groupedMoves(groups);
    // With --dry-run stdout is the patch alone, for `patch -p1`.
    std::ostream& list = args.dryRun ? err : out;
    for (const SuggestionGroup& group : groups) {
        list << "# "
             << (group.entryIndex ? "entry at line " + std::to_string(group.line) : "not listed")
             << " (" << modeName(group.mode) << ")\n";
        for (const Suggestion& s : group.moves)
            printSuggestion(s, list);
    }
    list << suggestions.size() << " suggestion(s) from the last " << options.runs
         << " runs of each job\n";
    std::vector<JobSelection> selections;
    for (const std::string& item : args.selections) {
        Result<RepoSelection> selection = readSelectionFlag(item);
        if (!selection)
            return fail(err, "config suggest: " + selection.message(), 2);
        selections.push_back({selection->repo, {}, {}, selection->selection});
    }
    for (const std::string& sentence : xfailEvidence(*recent, selections).sentences)
        list << sentence << "\n";
    if (suggestions.empty() || (!args.apply && !args.dryRun))
        return 0;
    const AppliedSuggestions applied = applySuggestions(
        loaded->text, suggestions, args.hasReason ? args.reason : "suggested by relayhud");
    for (const std::string& skipped : applied.skipped)
        err << "relayhud-cli: skipped " << skipped << "\n";
    for (const std::string& warning : applied.warnings)
        err << "relayhud-cli: warning: " << warning << "\n";
    if (args.dryRun) {
        out << unifiedDiff(loaded->text, applied.text, diffPath(loaded->path));
        return 0;
    }
    if (Result<void> saved = saveConfigFile(*loaded, applied.text); !saved)
        return fail(err, saved.message());
    out << "applied " << applied.applied.size() << " edit(s) to " << loaded->path << "\n";
    return 0;
}

} // namespace

int runConfig(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    if (args.empty())
        return fail(
            err, "config needs a subcommand: explain, validate, promote, demote, set-mode, suggest",
            2);
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const ConfigArgs parsed = parseConfigArgs(rest);
    if (!parsed.error.empty())
        return fail(err, "config " + args[0] + ": " + parsed.error, 2);
    if (args[0] == "explain")
        return runExplain(parsed, std::cin, out, err);
    if (args[0] == "validate")
        return runValidate(global, parsed, out, err);
    if (args[0] == "promote")
        return runEdit(EditKind::Promote, parsed, out, err);
    if (args[0] == "demote")
        return runEdit(EditKind::Demote, parsed, out, err);
    if (args[0] == "set-mode")
        return runEdit(EditKind::SetMode, parsed, out, err);
    if (args[0] == "suggest")
        return runConfigSuggest(global, parsed, out, err);
    return fail(err, "unknown config subcommand '" + args[0] + "'", 2);
}

} // namespace relayhud::cli
