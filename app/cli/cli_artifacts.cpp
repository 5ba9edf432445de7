// relayhud-cli artifacts: the test results of finished runs, fetched from the
// downstream artifact stores into the cache (what the GUI does after a sync).
// Tokens come from the environment only: GITHUB_TOKEN (or GH_TOKEN) and
// AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/util/paths.h"

#include <chrono>

namespace relayhud::cli {
namespace {

Result<ArtifactPolicy> policyFromName(const std::string& name)
{
    if (name == "failed")
        return ArtifactPolicy::FailedRuns;
    if (name == "all")
        return ArtifactPolicy::AllRuns;
    return makeError("--runs must be failed or all (not '" + name + "')");
}

Result<ArtifactSyncOptions> syncOptions(const Flags& flags)
{
    ArtifactSyncOptions options;
    // Run by hand (a token just set, a network back): ask again at once for
    // every run whose last fetch failed or was refused.
    options.retryAfterSeconds = 0;
    auto policy = policyFromName(flags.get("runs", "failed"));
    if (!policy)
        return policy.error();
    options.policy = *policy;
    if (!parseInt(flags.get("parallel", "4"), options.maxParallel) || options.maxParallel < 1
        || options.maxParallel > 16)
        return makeError("--parallel must be between 1 and 16");
    // Without it, every run the pass needs (a page at a time).
    if (flags.has("max-runs")
        && (!parseInt64(flags.get("max-runs"), options.maxRuns) || options.maxRuns < 1))
        return makeError("--max-runs must be a positive integer");
    if (!parseInt(flags.get("days", "14"), options.days) || options.days < 1)
        return makeError("--days must be a positive integer");
    // Job failure lines: the default rules, then these (triage/suggest.h).
    options.ruleFiles = flags.all("rules");
    if (!parseInt(flags.get("checkout-sample", "5"), options.checkoutSample)
        || options.checkoutSample < 0)
        return makeError("--checkout-sample must be 0 or a positive integer");
    return options;
}

ArtifactSettings storeSettings(const Flags& flags)
{
    ArtifactSettings settings;
    settings.githubApiUrl = flags.get("github-api", settings.githubApiUrl);
    settings.s3Endpoint = flags.get("s3-endpoint");
    settings.s3Region = flags.get("s3-region", settings.s3Region);
    return settings;
}

// What a cap left for the next pass, or nothing.
void printLeft(std::int64_t left, const char* what, std::int64_t maxRuns, std::ostream& out)
{
    if (left <= 0)
        return;
    out << "left " << left << ' ' << what;
    if (maxRuns > 0)
        out << ": --max-runs " << maxRuns << " reached";
    out << "; run again for the rest\n";
}

void printReport(const ArtifactSyncReport& r, std::int64_t maxRuns, std::ostream& out)
{
    out << "fetched test results of " << r.runs << (r.runs == 1 ? " run: " : " runs: ") << r.stored
        << " stored (" << r.cases << " test cases), " << r.expired << " expired, " << r.unauthorized
        << " refused, " << r.empty << " without reports, " << r.failed << " failed\n";
    out << "read the job logs of " << r.jobLogs
        << (r.jobLogs == 1 ? " failed run: " : " failed runs: ") << r.jobLinesPicked
        << " with a failure line, " << r.jobLinesNoMatch << " without, " << r.jobLogsMissing
        << " gone, " << r.jobLogsFailed << " failed\n";
    printLeft(r.runsLeft,
              r.runsLeft == 1 ? "run's test results unfetched" : "runs' test results unfetched",
              maxRuns, out);
    printLeft(r.jobLogsLeft,
              r.jobLogsLeft == 1 ? "failed job's log unread" : "failed jobs' logs unread", maxRuns,
              out);
    if (r.checkoutLogs > 0)
        out << "read the job logs of " << r.checkoutLogs
            << (r.checkoutLogs == 1 ? " green run" : " green runs")
            << " for their tested SHA: " << r.checkoutLogsUnread << " could not be read\n";
}

} // namespace

int runArtifacts(const GlobalOptions& global, const std::vector<std::string>& args,
                 std::ostream& out, std::ostream& err)
{
    const Flags flags =
        parseFlags(args, {"--runs", "--parallel", "--max-runs", "--days", "--github-api",
                          "--s3-endpoint", "--s3-region", "--rules", "--checkout-sample"});
    if (!flags.error.empty())
        return fail(err, "artifacts: " + flags.error, 2);
    auto options = syncOptions(flags);
    if (!options)
        return fail(err, "artifacts: " + options.message(), 2);
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    auto blobs = ContentCache::open(blobRootFor((*cache)->path()));
    if (!blobs)
        return fail(err, "artifacts: " + blobs.message());
    const ArtifactSettings settings = storeSettings(flags);
    HttpOptions httpOptions;
    httpOptions.totalTimeout = std::chrono::minutes(5);
    HttpClient http(httpOptions);
    ArtifactFetcher fetcher(http, *blobs, settings, Credentials::fromEnvironment());
    ArtifactSync sync(**cache, fetcher, settings);
    auto report = sync.run(*options);
    if (!report)
        return fail(err, "artifacts: " + report.message());
    for (const std::string& e : report->errors)
        err << "error: " << e << '\n';
    for (const std::string& e : report->jobLineErrors)
        err << "error: " << e << '\n';
    printReport(*report, options->maxRuns, out);
    (void)blobs->evictToFit();
    return report->failed == 0 && report->unauthorized == 0 ? 0 : 1;
}

} // namespace relayhud::cli
