#include "relayhud/ui/settings/app_settings.h"

#include "relayhud/triage/rule_set.h"
#include "relayhud/ui/common/format.h"

#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace relayhud::ui {

namespace {

const QString kHudUrl = QStringLiteral("hud/url");
const QString kBackends = QStringLiteral("hud/backends");
const QString kCachePath = QStringLiteral("cache/path");
const QString kInterval = QStringLiteral("sync/intervalMinutes");
const QString kDays = QStringLiteral("sync/historyDays");
const QString kHideGreen = QStringLiteral("view/hideAllGreen");
const QString kFirstAttempt = QStringLiteral("view/showFirstAttempt");
const QString kGroupShards = QStringLiteral("view/groupShards");

const QString kGithubApi = QStringLiteral("artifacts/githubApiUrl");
const QString kS3Endpoint = QStringLiteral("artifacts/s3Endpoint");
const QString kS3Region = QStringLiteral("artifacts/s3Region");
const QString kPolicy = QStringLiteral("artifacts/fetch");
const QString kRuleFiles = QStringLiteral("triage/ruleFiles");
const QString kOutcomeConfigs = QStringLiteral("coverage/outcomeConfigs");
const QString kShrinkPercent = QStringLiteral("coverage/shrinkPercent");
const QString kTeamServer = QStringLiteral("team/server");
const QString kFollowed = QStringLiteral("watch/followed");
const QString kMuted = QStringLiteral("watch/muted");
const QString kQuietFrom = QStringLiteral("watch/quietFrom");
const QString kQuietTo = QStringLiteral("watch/quietTo");

// Stored as words, not enum numbers, so the file stays readable and an
// unknown word falls back to the default.
QString policyKey(ArtifactPolicy policy)
{
    switch (policy) {
    case ArtifactPolicy::AllRuns: return QStringLiteral("all-runs");
    case ArtifactPolicy::OnDemand: return QStringLiteral("on-demand");
    case ArtifactPolicy::FailedRuns: break;
    }
    return QStringLiteral("failed-runs");
}

ArtifactPolicy policyFromKey(const QString& key)
{
    if (key == QLatin1String("all-runs"))
        return ArtifactPolicy::AllRuns;
    if (key == QLatin1String("on-demand"))
        return ArtifactPolicy::OnDemand;
    return ArtifactPolicy::FailedRuns;
}

} // namespace

ArtifactSettings artifactSettings(const AppSettings& settings)
{
    ArtifactSettings out;
    if (!settings.githubApiUrl.trimmed().isEmpty())
        out.githubApiUrl = settings.githubApiUrl.trimmed().toStdString();
    out.s3Endpoint = settings.s3Endpoint.trimmed().toStdString();
    if (!settings.s3Region.trimmed().isEmpty())
        out.s3Region = settings.s3Region.trimmed().toStdString();
    return out;
}

QString defaultCachePath()
{
    // $XDG_CACHE_HOME/relayhud/relayhud.sqlite, the file relayhud-cli uses
    // too (relayhud::defaultCachePath), so both tools share one cache.
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
           + QStringLiteral("/relayhud/relayhud.sqlite");
}

QString AppSettings::effectiveCachePath() const
{
    return cachePath.isEmpty() ? defaultCachePath() : cachePath;
}

AppSettings loadSettings(QSettings& store)
{
    AppSettings s;
    s.hudUrl = store.value(kHudUrl, s.hudUrl).toString();
    s.backends = store.value(kBackends).toStringList();
    s.cachePath = store.value(kCachePath).toString();
    s.syncIntervalMinutes =
        std::clamp(store.value(kInterval, s.syncIntervalMinutes).toInt(), 1, 1440);
    s.historyDays = std::clamp(store.value(kDays, s.historyDays).toInt(), 1, 365);
    s.hideAllGreen = store.value(kHideGreen, false).toBool();
    s.showFirstAttempt = store.value(kFirstAttempt, false).toBool();
    s.groupShards = store.value(kGroupShards, true).toBool();
    s.githubApiUrl = store.value(kGithubApi, s.githubApiUrl).toString();
    s.s3Endpoint = store.value(kS3Endpoint).toString();
    s.s3Region = store.value(kS3Region, s.s3Region).toString();
    s.artifactPolicy = policyFromKey(store.value(kPolicy).toString());
    s.ruleFiles = store.value(kRuleFiles).toStringList();
    const QVariantMap configs = store.value(kOutcomeConfigs).toMap();
    for (auto it = configs.begin(); it != configs.end(); ++it)
        if (!it.value().toString().isEmpty())
            s.outcomeConfigs.insert(it.key(), it.value().toString());
    s.shrinkPercent = std::clamp(store.value(kShrinkPercent, s.shrinkPercent).toInt(), 0, 100);
    s.teamServer = store.value(kTeamServer).toString();
    s.followed = store.value(kFollowed).toStringList();
    s.muted = store.value(kMuted).toStringList();
    s.quietFrom = std::clamp(store.value(kQuietFrom, -1).toInt(), -1, 23);
    s.quietTo = std::clamp(store.value(kQuietTo, -1).toInt(), -1, 23);
    return s;
}

void saveSettings(QSettings& store, const AppSettings& s)
{
    store.setValue(kHudUrl, s.hudUrl);
    store.setValue(kBackends, s.backends);
    store.setValue(kCachePath, s.cachePath);
    store.setValue(kInterval, s.syncIntervalMinutes);
    store.setValue(kDays, s.historyDays);
    store.setValue(kHideGreen, s.hideAllGreen);
    store.setValue(kFirstAttempt, s.showFirstAttempt);
    store.setValue(kGroupShards, s.groupShards);
    store.setValue(kGithubApi, s.githubApiUrl);
    store.setValue(kS3Endpoint, s.s3Endpoint);
    store.setValue(kS3Region, s.s3Region);
    store.setValue(kPolicy, policyKey(s.artifactPolicy));
    store.setValue(kRuleFiles, s.ruleFiles);
    QVariantMap configs;
    for (auto it = s.outcomeConfigs.begin(); it != s.outcomeConfigs.end(); ++it)
        configs.insert(it.key(), it.value());
    store.setValue(kOutcomeConfigs, configs);
    store.setValue(kShrinkPercent, s.shrinkPercent);
    store.setValue(kTeamServer, s.teamServer);
    store.setValue(kFollowed, s.followed);
    store.setValue(kMuted, s.muted);
    store.setValue(kQuietFrom, s.quietFrom);
    store.setValue(kQuietTo, s.quietTo);
}

verdict::VerdictSources verdictSources(const AppSettings& settings)
{
    verdict::VerdictSources sources;
    for (auto it = settings.outcomeConfigs.begin(); it != settings.outcomeConfigs.end(); ++it)
        sources.configByRepo.emplace(it.key().toStdString(), it.value().toStdString());
    sources.shrinkThreshold = settings.shrinkPercent / 100.0;
    return sources;
}

RuleFilesCheck checkRuleFiles(const QStringList& ruleFiles)
{
    triage::RuleSet rules = triage::defaultRuleSet();
    RuleFilesCheck check;
    for (const QString& file : ruleFiles)
        if (auto added = rules.addFile(file.toStdString()); !added)
            check.problems << toQString(added.message());
    for (const triage::RuleProblem& problem : rules.problems())
        check.problems << toQString(problem.describe());
    check.rules = static_cast<int>(rules.size());
    return check;
}

} // namespace relayhud::ui
