// relayhud-cli config: explain, validate and edit torch-spyre outcome configs
// (issue 6). Edits print a unified diff with --dry-run and write nothing.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_explain.h"
#include "relayhud/config/config_file.h"
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
    std::string error;
};

ConfigArgs parseConfigArgs(const std::vector<std::string>& args)
{
    ConfigArgs out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--dry-run") {
            out.dryRun = true;
            continue;
        }
        const bool valued =
            arg == "--reason" || arg == "--evidence" || arg == "--op" || arg == "--dtype";
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

int runValidate(const ConfigArgs& args, std::ostream& out, std::ostream& err)
{
    if (args.positional.size() != 1)
        return fail(err, "usage: config validate CONFIG", 2);
    const std::string& path = args.positional[0];
    Result<LoadedConfig> loaded = loadConfigFile(path);
    if (!loaded)
        return fail(err, loaded.message());
    Result<ParsedConfig> parsed = parseOutcomeConfig(loaded->text);
    if (!parsed)
        return fail(err, path + ": " + parsed.message());
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

} // namespace

int runConfig(const GlobalOptions&, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    if (args.empty())
        return fail(err, "config needs a subcommand: explain, validate, promote, demote, set-mode",
                    2);
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const ConfigArgs parsed = parseConfigArgs(rest);
    if (!parsed.error.empty())
        return fail(err, "config " + args[0] + ": " + parsed.error, 2);
    if (args[0] == "explain")
        return runExplain(parsed, out, err);
    if (args[0] == "validate")
        return runValidate(parsed, out, err);
    if (args[0] == "promote")
        return runEdit(EditKind::Promote, parsed, out, err);
    if (args[0] == "demote")
        return runEdit(EditKind::Demote, parsed, out, err);
    if (args[0] == "set-mode")
        return runEdit(EditKind::SetMode, parsed, out, err);
    return fail(err, "unknown config subcommand '" + args[0] + "'", 2);
}

} // namespace relayhud::cli
