// relayhud-cli doctor: is a backend's CRCR integration sound? Lints its
// GitHub workflows against the relay's rules (issue 20; the checks and their
// facts: core/include/relayhud/doctor/workflow_lint.h).
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/doctor/workflow_lint.h"
#include "relayhud/util/read_file.h"

#include <ostream>

namespace relayhud::cli {
namespace {

constexpr int kFoundErrors = 1;
constexpr int kTrouble = 2;

// One TSV field: tabs and line breaks from a workflow's own text become spaces.
std::string field(std::string text)
{
    for (char& c : text)
        if (c == '\t' || c == '\n' || c == '\r')
            c = ' ';
    return text;
}

void printText(const std::string& path, const doctor::WorkflowLint& lint, std::ostream& out)
{
    std::size_t counts[3] = {0, 0, 0};
    for (const doctor::Finding& f : lint.findings) {
        ++counts[static_cast<int>(f.severity)];
        out << path << ':' << f.line << ": " << doctor::severityName(f.severity) << ": [" << f.check
            << "] " << f.message << "\n    fix: " << f.fix << '\n';
    }
    out << path << ": " << counts[0] << (counts[0] == 1 ? " error, " : " errors, ") << counts[1]
        << (counts[1] == 1 ? " warning, " : " warnings, ") << counts[2]
        << (counts[2] == 1 ? " note" : " notes") << " (" << lint.callbackSteps
        << " callback steps in " << lint.jobs << (lint.jobs == 1 ? " job)\n" : " jobs)\n");
}

void printTsv(const std::string& path, bool several, const doctor::WorkflowLint& lint,
              std::ostream& out)
{
    for (const doctor::Finding& f : lint.findings)
        out << doctor::severityName(f.severity) << '\t' << f.check << '\t'
            << (several ? path + ":" : std::string()) << f.line << '\t' << field(f.message) << '\n';
}

} // namespace

int runDoctor(const GlobalOptions&, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    std::vector<std::string> files;
    std::string format = "text";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--format" && i + 1 < args.size()) {
            format = args[++i];
        } else if (args[i] == "--workflow" && i + 1 < args.size()) {
            files.push_back(args[++i]);
        } else if (args[i] == "--checks") {
            for (const doctor::CheckInfo& check : doctor::workflowChecks())
                out << check.name << '\t' << check.summary << '\t' << check.fact << '\n';
            return 0;
        } else {
            return fail(err, "doctor: unknown argument '" + args[i] + "' (try --help)", kTrouble);
        }
    }
    if (format != "text" && format != "tsv")
        return fail(err, "doctor: --format is text or tsv", kTrouble);
    if (files.empty())
        return fail(err, "doctor: give at least one --workflow FILE (try --help)", kTrouble);
    bool errors = false;
    for (const std::string& path : files) {
        auto text = readRegularFile(path, kMaxWorkflowFileBytes, "a workflow");
        if (!text)
            return fail(err, "doctor: " + text.message(), kTrouble);
        auto lint = doctor::lintWorkflow(*text);
        if (!lint)
            return fail(err, "doctor: " + path + ": " + lint.message(), kTrouble);
        errors = errors || lint->hasError();
        if (format == "tsv")
            printTsv(path, files.size() > 1, *lint, out);
        else
            printText(path, *lint, out);
    }
    return errors ? kFoundErrors : 0;
}

} // namespace relayhud::cli
