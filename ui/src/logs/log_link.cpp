#include "relayhud/ui/logs/log_link.h"

#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace relayhud::ui {

namespace {

const QString kScheme = QStringLiteral("relayhud");

// "A" or "A-B", 1-based; nullopt for 0, junk or numbers past 2^63.
std::optional<std::pair<LineNumber, LineNumber>> parseRange(const QString& text)
{
    static const QRegularExpression range(QStringLiteral("^(\\d{1,18})(?:-(\\d{1,18}))?$"));
    const QRegularExpressionMatch m = range.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const qulonglong a = m.captured(1).toULongLong();
    const qulonglong b = m.hasCaptured(2) ? m.captured(2).toULongLong() : a;
    if (a == 0 || b == 0)
        return std::nullopt;
    return std::pair{LineNumber::fromShown(std::min(a, b)), LineNumber::fromShown(std::max(a, b))};
}

std::optional<LogLink> parseUrl(const QString& text)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.scheme() != kScheme || url.host() != u"log")
        return std::nullopt;
    const QUrlQuery query(url);
    const QString path = query.queryItemValue(QStringLiteral("path"), QUrl::FullyDecoded);
    const auto range =
        parseRange(query.queryItemValue(QStringLiteral("lines"), QUrl::FullyDecoded));
    if (path.isEmpty() || !range)
        return std::nullopt;
    return LogLink{path, range->first, range->second};
}

std::optional<LogLink> parsePlain(const QString& text)
{
    // The last ':' starts the lines, so a path may hold ':' itself.
    const qsizetype colon = text.lastIndexOf(u':');
    if (colon <= 0)
        return std::nullopt;
    const auto range = parseRange(text.mid(colon + 1));
    if (!range)
        return std::nullopt;
    return LogLink{text.left(colon), range->first, range->second};
}

QString rangeText(const LogLink& link)
{
    const QString first = QString::number(link.firstLine.shown());
    return link.lastLine == link.firstLine ? first
                                           : first % u'-' % QString::number(link.lastLine.shown());
}

} // namespace

std::optional<LogLink> parseLogLink(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.startsWith(kScheme % u':', Qt::CaseInsensitive))
        return parseUrl(trimmed);
    return parsePlain(trimmed);
}

QString logLinkUrl(const LogLink& link)
{
    // '/' stays readable; everything a query could misread is encoded.
    const QByteArray path = QUrl::toPercentEncoding(link.path, "/");
    return kScheme % u"://log?path=" % QString::fromLatin1(path) % u"&lines=" % rangeText(link);
}

QString logLinkPlain(const LogLink& link) { return link.path % u':' % rangeText(link); }

} // namespace relayhud::ui
