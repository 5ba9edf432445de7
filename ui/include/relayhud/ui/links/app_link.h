#pragma once
// Links to a place in the app, for chat, tickets and the desktop's URL
// handler (relayhud.desktop registers the scheme):
//   relayhud://sha/<sha>                    a commit's row (full SHA or a unique prefix)
//   relayhud://pr/<n>                       the newest head of a pull request
//   relayhud://run/<check_run_id>           a run's cell (the newest attempt's)
//   relayhud://run/<check_run_id>?test=<identity>   and then that test of the run
// relayhud://log?... links to lines of a log file live in logs/log_link.h.
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <QString>

#include <cstdint>

namespace relayhud::ui {

struct AppLink {
    enum class Kind { Commit, PullRequest, Run };
    Kind kind = Kind::Commit;
    QString sha;         // Commit: hex lower-cased; a nightly's key as written
    PrNumber pr;         // PullRequest: its number
    CheckRunId checkRun; // Run: GitHub's check_run_id, digits
    QString test;        // Run: the ?test= identity; "" for the run alone
    bool operator==(const AppLink&) const = default;
};

// True for any relayhud: text that is not a relayhud://log link, so that a
// malformed one reaches parseAppLink and its error instead of opening as a file.
bool isAppLink(const QString& text);

// The link, or why it is not one: a message a user can act on.
Result<AppLink> parseAppLink(const QString& text);

QString commitLinkUrl(const QString& sha);
QString pullRequestLinkUrl(PrNumber pr);
QString runLinkUrl(const CheckRunId& id, const QString& testIdentity = {});
QString appLinkUrl(const AppLink& link);

} // namespace relayhud::ui
