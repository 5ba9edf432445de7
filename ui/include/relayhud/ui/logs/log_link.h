#pragma once
// A link to a range of lines in a log file, in the two forms a user copies:
//   relayhud://log?path=%2Fhome%2Fme%2Fjob.log&lines=120-135   (for chat, tickets)
//   /home/me/job.log:120-135                                      (for a shell)
// and "PATH:N" for one line. Line numbers in links are 1-based, as shown.
#include "relayhud/logs/line_number.h"

#include <QString>

#include <optional>

namespace relayhud::ui {

struct LogLink {
    QString path;
    LineNumber firstLine;
    LineNumber lastLine; // >= firstLine
    bool operator==(const LogLink&) const = default;
};

// Either form; nullopt for anything else (no path, no line, line 0, junk).
// A reversed range ("9-3") is put in order.
std::optional<LogLink> parseLogLink(const QString& text);

// relayhud://log?path=<percent-encoded path>&lines=A-B ("lines=A" for one line).
QString logLinkUrl(const LogLink& link);
// PATH:A-B ("PATH:A" for one line).
QString logLinkPlain(const LogLink& link);

} // namespace relayhud::ui
