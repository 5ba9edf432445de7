#include "relayhud/ui/details/run_details.h"

#include "relayhud/store/cache.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/ui/format.h"

namespace relayhud::ui {

Result<RunDetails> loadRunDetails(const Cache& cache, std::int64_t rowId)
{
    auto run = cache.checkRun(rowId);
    if (!run)
        return run.error();
    RunDetails details;
    details.rowId = rowId;
    details.run = std::move(*run);
    details.level = details.run.trusted.level;
    auto attempts = cache.attemptsOf(rowId);
    if (!attempts)
        return attempts.error();
    details.attempts = std::move(*attempts);
    auto previous = cache.previousCommit(details.run.upstreamSha);
    if (previous)
        details.previous = std::move(*previous);
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
    links.run = webUrl(run.reported.runUrl);
    links.artifacts = webUrl(run.reported.artifactUrl);
    QString base = hudBaseUrl;
    while (base.endsWith(u'/'))
        base.chop(1);
    if (!base.isEmpty() && !run.downstreamRepo.empty())
        links.hudPage = QUrl(base % u"/crcr/" % toQString(run.downstreamRepo));
    // Two heads of one PR, or the main commits two nightlies were cut from;
    // never two different PRs' heads (PR heads are no linear history).
    const std::optional<UpstreamCommit>& previous = details.previous;
    if (previous && run.eventType == EventType::Nightly && previous->prNumber == 0)
        links.compare = webUrl(triage::compareUrl(
            run.upstreamRepo, triage::JobAttributor::nightlyMainSha(previous->title),
            triage::JobAttributor::nightlyMainSha(details.commit ? details.commit->title
                                                                 : std::string())));
    else if (previous && run.eventType != EventType::Nightly && previous->prNumber == run.prNumber)
        links.compare =
            webUrl(triage::compareUrl(run.upstreamRepo, previous->sha, run.upstreamSha));
    if (run.prNumber > 0)
        links.pullRequest =
            QUrl(u"https://github.com/" % upstream % u"/pull/" % QString::number(run.prNumber));
    return links;
}

bool isWebUrl(const QUrl& url)
{
    return url.isValid() && !url.host().isEmpty()
           && (url.scheme() == u"https" || url.scheme() == u"http");
}

std::optional<double> runDuration(const CheckRun& run)
{
    if (!run.reported.startedAt || !run.reported.completedAt)
        return std::nullopt;
    return static_cast<double>(*run.reported.completedAt - *run.reported.startedAt);
}

} // namespace relayhud::ui
