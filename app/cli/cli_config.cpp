// relayhud-cli config: explain, validate, edit and suggest edits to
// torch-spyre outcome configs (issue 6). Edits print a unified diff with
// --dry-run and write nothing.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_explain.h"
#include "relayhud/config/config_file.h"
#include "relayhud/config/config_suggest.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/text_diff.h"

#include <filesystem>

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
        const bool valued = arg == "--reason" || arg == "--evidence" || arg == "--op"
                            || arg == "--dtype" || arg == "--runs" || arg == "--repo";
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
        } else {
            out.marks.items.push_back({arg == "--op" ? MarkKind::Op : MarkKind::Dtype, value});
        }
    }
    return out;
}

std::string decidedBy(const Explanation& ex, const OutcomeConfig& config)
{
    const FileSection& file = config.files[ex.fileIndex];
    if (ex.decision == Decision::Unlisted)
        return file.unlistedMode ? "unlisted_test_mode of the files entry at line "
                                       + std::to_string(file.pos.line)
                                 : "the code default for unlisted tests (xfail)";
    const TestEntry& entry = file.tests[*ex.entryIndex];
    const NameItem& item = entry.names[*ex.nameIndex];
    return std::string(ex.decision == Decision::Pattern ? "pattern '" : "name '") + item.name
           + "' at line " + std::to_string(item.pos.line) + " in the entry at line "
           + std::to_string(entry.pos.line);
}

int runExplain(const ConfigArgs& args, std::ostream& out, std::ostream& err)
{
    if (args.positional.size() != 2)
        return fail(err, "usage: config explain CONFIG TEST [--op OP] [--dtype DTYPE]", 2);
    Result<LoadedConfig> loaded = loadConfigFile(args.positional[0]);
    if (!loaded)
        return fail(err, loaded.message());
    Result<ParsedConfig> parsed = parseOutcomeConfig(loaded->text);
    if (!parsed)
        return fail(err, args.positional[0] + ": " + parsed.message());
    TestQuery query = parseTestQuery(args.positional[1]);
    query.marks = args.marks;
    Result<Explanation> ex = explainTest(parsed->config, query);
    if (!ex)
        return fail(err, ex.message());
    out << args.positional[1] << "\n  outcome: " << ex->outcome()
        << "\n  base name: " << ex->baseName << "\n  decided by: " << decidedBy(*ex, parsed->config)
        << "\n";
    for (const std::string& step : ex->steps)
        out << "  - " << step << "\n";
    return 0;
}

// With --known, also the patterns that match no test the cache knows.
Result<std::vector<Finding>> knownTestFindings(const GlobalOptions& global,
                                               const OutcomeConfig& config)
{
    Result<std::unique_ptr<Cache>> cache = openCache(global);
    if (!cache)
        return cache.error();
    Result<std::vector<KnownTest>> known = (*cache)->knownTests();
    if (!known)
        return known.error();
    return unmatchedPatterns(config, *known);
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
    if (args.known) {
        Result<std::vector<Finding>> unmatched = knownTestFindings(global, parsed->config);
        if (!unmatched)
            return fail(err, unmatched.message());
        parsed->findings.insert(parsed->findings.end(), unmatched->begin(), unmatched->end());
    }
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
    Result<std::unique_ptr<Cache>> cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    Result<RecentResults> recent = (*cache)->recentResults({options.runs, args.repo});
    if (!recent)
        return fail(err, recent.message());
    if (Result<std::vector<KnownTest>> known = (*cache)->knownTests(); !known)
        err << "relayhud-cli: warning: patterns not checked: " << known.message() << "\n";
    else
        for (const Finding& finding : unmatchedPatterns(parsed->config, *known))
            err << loaded->path << ":" << formatFinding(finding) << "\n";
    const std::vector<Suggestion> suggestions =
        suggestModeChanges(parsed->config, *recent, options);
    // With --dry-run stdout is the patch alone, for `patch -p1`.
    std::ostream& list = args.dryRun ? err : out;
    for (const Suggestion& s : suggestions)
        list << moveName(s.kind) << " " << s.test << " (" << modeName(s.from) << " -> "
             << modeName(s.to) << "): " << s.evidence << "\n";
    list << suggestions.size() << " suggestion(s) from the last " << options.runs
         << " runs of each job\n";
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
        return runExplain(parsed, out, err);
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
