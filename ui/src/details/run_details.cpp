#include "relayhud/ui/details/run_details.h"

#include "relayhud/store/checkout_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/ui/common/format.h"

#include <algorithm>

namespace relayhud::ui {

using namespace Qt::StringLiterals;

Result<RunDetails> loadRunDetails(const Database& cache, CheckRunRow rowId)
{
    auto run = RunStore(cache).checkRun(rowId);
    if (!run)
        return run.error();
    RunDetails details;
    details.rowId = rowId;
    details.run = std::move(*run);
    details.level = details.run.trusted.level;
    auto attempts = RunStore(cache).attemptsOf(rowId);
    if (!attempts)
        return attempts.error();
    details.attempts = std::move(*attempts);
    auto previous = RunStore(cache).previousCommit(details.run.upstreamSha);
    if (previous)
        details.previous = std::move(*previous);
    auto tested = CheckoutStore(cache).testedCommit(rowId);
    if (!tested)
        return tested.error();
    details.tested = std::move(*tested);
    if (details.tested) {
        auto before = CheckoutStore(cache).previousTestedCommit(rowId);
        if (!before)
            return before.error();
        details.previousTested = std::move(*before);
    }
    auto results = TestResultStore(cache).testRunForCheckRun(rowId);
    if (!results)
        return results.error();
    if (*results && (*results)->state == TestRunState::Stored) {
        const TestRunTotals& t = (*results)->totals;
        details.testsFailed = t.count(TestOutcome::Failed) + t.count(TestOutcome::Error)
                                  + t.count(TestOutcome::XPassStrict)
                              > 0;
    }
    return details;
}

namespace {

QUrl webUrl(const std::string& text)
{
    const QUrl url(toQString(text), QUrl::StrictMode);
    return isWebUrl(url) ? url : QUrl();
}

} // namespace

RunLinks runLinks(const RunDetails& details, const QString& hudBaseUrl)
{
    const CheckRun& run = details.run;
    const QString upstream = toQString(run.upstreamRepo);
    RunLinks links;
    // The job's page, as the HUD's "Show log" builds it: workflow_run_url +
    // "/job/" + check_run_id (test-infra pages/crcr/[org]/[repo].tsx:382-387; R18).
    const bool numericJob = !run.checkRunId.value.empty()
                            && std::all_of(run.checkRunId.value.begin(), run.checkRunId.value.end(),
                                           [](char c) { return c >= '0' && c <= '9'; });
    links.run = webUrl(numericJob && !run.reported.runUrl.empty()
                           ? run.reported.runUrl + "/job/" + run.checkRunId.value
                           : run.reported.runUrl);
    links.artifacts = webUrl(run.reported.artifactUrl);
    QString base = hudBaseUrl;
    while (base.endsWith(u'/'))
        base.chop(1);
    if (!base.isEmpty() && !run.downstreamRepo.empty())
        links.hudPage =
            QUrl(base % u"/crcr/" % toQString(run.downstreamRepo)
                 % (run.eventType == EventType::Nightly ? u"?event=nightly"_s : QString()));
    // Two heads of one PR, two nightlies (main commits: main..main; free
    // text gets none), or a merged PR's build against the job's previous
    // tested commit of its branch; never two different PRs' heads (PR heads
    // are no linear history; R18).
    const std::optional<UpstreamCommit>& previous = details.previous;
    const bool scheduled =
        run.eventType == EventType::Nightly || run.eventType == EventType::Periodic;
    if (details.tested) {
        if (details.previousTested)
            links.compare = webUrl(triage::compareUrl(
                run.upstreamRepo, Sha{details.previousTested->sha}, Sha{details.tested->sha}));
    } else if (previous && scheduled && previous->prNumber.value == 0) {
        links.compare =
            webUrl(triage::compareUrl(run.upstreamRepo, previous->sha, run.upstreamSha));
    } else if (previous && !scheduled && previous->prNumber == run.prNumber) {
        links.compare =
            webUrl(triage::compareUrl(run.upstreamRepo, previous->sha, run.upstreamSha));
    }
    if (run.prNumber.value > 0)
        links.pullRequest = QUrl(u"https://github.com/" % upstream % u"/pull/"
                                 % QString::number(run.prNumber.value));
    return links;
}

bool isWebUrl(const QUrl& url)
{
    return url.isValid() && !url.host().isEmpty()
           && (url.scheme() == u"https" || url.scheme() == u"http");
}

std::optional<double> runDuration(const CheckRun& run)
{
    return callbackDuration(run.reported.startedAt, run.reported.completedAt);
}

} // namespace relayhud::ui
