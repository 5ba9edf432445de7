// relayhud-cli doctor: is a backend's CRCR integration sound? Lints its
// GitHub workflows against the relay's rules (issue 20; the checks and their
// facts: core/include/relayhud/doctor/workflow_lint.h).
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/doctor/workflow_lint.h"
#include "relayhud/net/http_client.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/util/paths.h"
#include "relayhud/util/read_file.h"
#include "relayhud/util/terminal_text.h"

#include <iterator>
#include <ostream>

namespace relayhud::cli {
namespace {

constexpr int kFoundErrors = 1;

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
            << (several ? path + ":" : std::string()) << f.line << '\t' << oneLine(f.message)
            << '\n';
}

struct Workflow {
    std::string path; // as printed: the file, or "owner/repo:.github/workflows/x.yml"
    std::string text;
};

// A repository's workflows through GitHub's contents API, kept in the cache's
// blob store (conditional: unchanged files cost a 304).
Result<std::vector<Workflow>> fetchRepo(const GlobalOptions& global, const std::string& repo,
                                        const std::string& githubApi)
{
    const auto slash = repo.find('/');
    if (slash == std::string::npos || repo.find('/', slash + 1) != std::string::npos)
        return makeError("--repo takes OWNER/REPO, not '" + repo + "'");
    auto blobs = ContentCache::open(
        blobRootFor(global.cachePath.empty() ? defaultCachePath() : global.cachePath));
    if (!blobs)
        return blobs.error();
    ArtifactSettings settings;
    if (!githubApi.empty())
        settings.githubApiUrl = githubApi;
    HttpClient http;
    ArtifactFetcher fetcher(http, *blobs, settings, Credentials::fromEnvironment());
    auto fetched = fetcher.fetchWorkflowFiles(repo.substr(0, slash), repo.substr(slash + 1));
    if (!fetched)
        return fetched.error();
    if (fetched->status != FetchStatus::Fetched)
        return makeError(fetched->message);
    std::vector<Workflow> out;
    for (RepoFile& file : fetched->files)
        out.push_back({repo + ":" + file.path, std::move(file.text)});
    return out;
}

} // namespace

int runDoctor(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    std::vector<std::string> files;
    std::vector<std::string> repos;
    std::string format = "text";
    std::string githubApi;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--format" && i + 1 < args.size()) {
            format = args[++i];
        } else if (args[i] == "--workflow" && i + 1 < args.size()) {
            files.push_back(args[++i]);
        } else if (args[i] == "--repo" && i + 1 < args.size()) {
            repos.push_back(args[++i]);
        } else if (args[i] == "--github-api" && i + 1 < args.size()) {
            githubApi = args[++i];
        } else if (args[i] == "--checks") {
            for (const doctor::CheckInfo& check : doctor::workflowChecks())
                out << check.name << '\t' << oneLine(check.summary) << '\t' << oneLine(check.fact)
                    << '\n';
            return 0;
        } else {
            return fail(err, "doctor: unknown argument '" + args[i] + "' (try --help)", kTrouble);
        }
    }
    if (format != "text" && format != "tsv")
        return fail(err, "doctor: --format is text or tsv", kTrouble);
    if (files.empty() && repos.empty())
        return fail(err, "doctor: give --workflow FILE or --repo OWNER/REPO (try --help)",
                    kTrouble);
    std::vector<Workflow> workflows;
    for (const std::string& path : files) {
        auto text = readRegularFile(path, kMaxWorkflowFileBytes, "a workflow");
        if (!text)
            return fail(err, "doctor: " + text.message(), kTrouble);
        workflows.push_back({path, std::move(*text)});
    }
    for (const std::string& repo : repos) {
        auto fetched = fetchRepo(global, repo, githubApi);
        if (!fetched)
            return fail(err, "doctor: " + repo + ": " + fetched.message(), kTrouble);
        std::move(fetched->begin(), fetched->end(), std::back_inserter(workflows));
    }
    bool errors = false;
    for (const Workflow& workflow : workflows) {
        auto lint = doctor::lintWorkflow(workflow.text);
        if (!lint)
            return fail(err, "doctor: " + workflow.path + ": " + lint.message(), kTrouble);
        errors = errors || lint->hasError();
        if (format == "tsv")
            printTsv(workflow.path, workflows.size() > 1, *lint, out);
        else
            printText(workflow.path, *lint, out);
    }
    return errors ? kFoundErrors : 0;
}

} // namespace relayhud::cli
