#pragma once
// Everything the details panel shows about one cell's run, read from the
// cache by the run's row id, and the outbound links derived from it.
#include "relayhud/model/tested_commit.h"
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <QString>
#include <QUrl>

#include <cstdint>
#include <optional>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::ui {

struct RunDetails {
    CheckRunRow rowId;
    CheckRun run;
    std::vector<CheckRun> attempts;         // every attempt, newest first
    std::optional<UpstreamCommit> commit;   // the matrix row (branch, title)
    std::optional<UpstreamCommit> previous; // base of the compare link
    // The commit the run really tested (model/tested_commit.h), and the
    // previous one of its job and branch: then the compare link's ends.
    std::optional<TestedCommit> tested;
    std::optional<TestedCommit> previousTested;
    Level level = Level::Unknown; // the relay's level for the backend
    // Its stored JUnit has failing cases: a reported success is then not a
    // green (MatrixCell::ReportedGreenTestsFailed).
    bool testsFailed = false;
};

struct RunLinks {
    QUrl run;
    QUrl artifacts;
    QUrl hudPage;
    QUrl compare;
    QUrl pullRequest;
};

// One run by row id, its attempts and its compare base (a few indexed reads).
Result<RunDetails> loadRunDetails(const Database& cache, CheckRunRow rowId);

RunLinks runLinks(const RunDetails& details, const QString& hudBaseUrl);

// Only web links leave the app: CI-provided URLs with other schemes
// (file:, javascript:, custom handlers) are refused.
bool isWebUrl(const QUrl& url);

// completed - started when both are known.
std::optional<double> runDuration(const CheckRun& run);

} // namespace relayhud::ui
