// relayhud:// links (ui/links/app_link.h, ui/logs/log_link.h): text a browser,
// a chat message or a shell hands to `relayhud`. Checked, on any text:
//  - parsing never breaks, and a refusal is one line even when the link
//    holds newlines or control characters;
//  - only relayhud: links are app links (a javascript: or http: link is not);
//  - a parsed link written back (appLinkUrl, logLinkUrl) parses to the same
//    link, so "Copy link" leads back to what was opened;
//  - what a link carries is bounded: a SHA without spaces or control
//    characters, a test identity of at most 4096 characters.
#include "fuzz_check.h"
#include "relayhud/ui/links/app_link.h"
#include "relayhud/ui/logs/log_link.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

using namespace relayhud;
using namespace relayhud::ui;

void checkAppLink(const QString& text)
{
    const Result<AppLink> link = parseAppLink(text);
    if (!text.trimmed().startsWith(QStringLiteral("relayhud:"), Qt::CaseInsensitive))
        FUZZ_CHECK(!isAppLink(text) && !link, "only relayhud: links are app links");
    if (!link) {
        FUZZ_CHECK(link.message().find('\n') == std::string::npos
                       && link.message().find('\r') == std::string::npos,
                   "a refusal is one line");
        return;
    }
    if (link->kind == AppLink::Kind::Commit)
        for (const QChar c : link->sha)
            FUZZ_CHECK(c.isPrint() && !c.isSpace(), "a SHA holds no spaces or control characters");
    FUZZ_CHECK(link->test.size() <= 4096, "a test identity is bounded");
    const Result<AppLink> again = parseAppLink(appLinkUrl(*link));
    FUZZ_CHECK(again.ok(), "a written link parses");
    FUZZ_CHECK(again->kind == link->kind && again->sha == link->sha && again->pr == link->pr
                   && again->checkRun.value == link->checkRun.value && again->test == link->test,
               "to the same link");
}

void checkLogLink(const QString& text)
{
    const std::optional<LogLink> link = parseLogLink(text);
    if (!link)
        return;
    FUZZ_CHECK(!link->path.isEmpty(), "a log link names a file");
    FUZZ_CHECK(link->firstLine.value <= link->lastLine.value, "its range is in order");
    const std::optional<LogLink> again = parseLogLink(logLinkUrl(*link));
    FUZZ_CHECK(again.has_value() && *again == *link, "a written log link parses to itself");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString text =
        QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    checkAppLink(text);
    checkLogLink(text);
    return 0;
}
