#pragma once
// The user's settings and where they live (QSettings). Demo and test
// sessions run on an in-memory copy and never write them back.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/verdict/verdict.h"

#include <QMap>
#include <QString>
#include <QStringList>

class QSettings;

namespace relayhud::ui {

struct AppSettings {
    QString hudUrl = QStringLiteral("https://hud.pytorch.org");
    QStringList backends; // followed backends; empty: every backend at L2 and above
    QString cachePath;    // empty: defaultCachePath()
    int syncIntervalMinutes = 15;
    int historyDays = 14;
    bool hideAllGreen = false;
    bool showFirstAttempt = false;
    bool groupShards = true; // a job's shards in one column (matrix/shard_groups.h)
    // Artifact stores (tokens are not here: see credential_store.h).
    QString githubApiUrl = QStringLiteral("https://api.github.com");
    QString s3Endpoint; // empty: AWS for the region
    QString s3Region = QStringLiteral("us-east-1");
    ArtifactPolicy artifactPolicy = ArtifactPolicy::FailedRuns;
    // Triage: the user's own failure-line rule files (ruleset.toml format),
    // loaded after the default rules, so the defaults keep their priority.
    QStringList ruleFiles;
    // Coverage: each backend's outcome config ("org/repo" -> file), which
    // verdicts judge its greens against, and how far the executed test set
    // may shrink against the previous run before a green is incomplete.
    QMap<QString, QString> outcomeConfigs;
    int shrinkPercent = 10;
    // Watch and notify (watch/watch_list.h): followed and muted item keys,
    // and local quiet hours [quietFrom, quietTo), -1 for none.
    QStringList followed;
    QStringList muted;
    int quietFrom = -1;
    int quietTo = -1;
    // The team's triage server (issue 21): a libpq conninfo or URI, never
    // with a password (the keychain holds that); empty: no team server.
    QString teamServer;

    QString effectiveCachePath() const;
    bool operator==(const AppSettings&) const = default;
};

// The core's view of the artifact settings.
ArtifactSettings artifactSettings(const AppSettings& settings);

// What a worker needs to reach the artifact stores: settings and tokens.
struct ArtifactAccess {
    ArtifactSettings settings;
    Credentials credentials;
};

// <XDG cache dir>/relayhud/relayhud.sqlite, shared with relayhud-cli.
QString defaultCachePath();

// Loads the default rules and `ruleFiles` as a sync would, and says what
// happened: "142 rules loaded" and one "FILE:LINE: MESSAGE" line per bad
// rule or unreadable file (the good rules still load).
struct RuleFilesCheck {
    int rules = 0;
    QStringList problems;
};
RuleFilesCheck checkRuleFiles(const QStringList& ruleFiles);

// The verdict engine's view of the coverage settings.
verdict::VerdictSources verdictSources(const AppSettings& settings);

AppSettings loadSettings(QSettings& store);
void saveSettings(QSettings& store, const AppSettings& settings);

} // namespace relayhud::ui
