#include "relayhud/ui/links/app_link.h"

#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

#include <optional>

namespace relayhud::ui {

namespace {

const QString kScheme = QStringLiteral("relayhud");
constexpr qsizetype kMaxSha = 200;       // a nightly's key is free text, but short
constexpr qsizetype kMaxIdentity = 4096; // pytest ids with long parameters

constexpr qsizetype kMaxShownLink = 200; // a refusal quotes a link up to this

// One line, whatever the text holds: a link from a browser or a chat may
// carry CR, LF or escapes.
QString oneLine(QString text)
{
    for (QChar& c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20)
            c = QChar(char16_t(0x2400 + u)); // the control pictures: LF -> U+240A
        else if (u == 0x7f)
            c = QChar(char16_t(0x2421));
        else if ((u >= 0x80 && u < 0xa0) || u == 0x2028 || u == 0x2029)
            c = QChar(QChar::ReplacementCharacter);
    }
    return text;
}

// A refusal quotes the link, on one line and not a page long.
Error linkError(const QString& text, const QString& why)
{
    const QString link =
        text.size() > kMaxShownLink ? QString(text.left(kMaxShownLink) % u'…') : text;
    return makeError(oneLine(link % u": " % why).toStdString());
}

bool isHex(const QString& text)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9A-Fa-f]+$"));
    return hex.match(text).hasMatch();
}

// "123", or "#123" as people write PRs; nullopt for 0, junk or > 18 digits.
std::optional<std::int64_t> positiveNumber(QString text)
{
    static const QRegularExpression digits(QStringLiteral("^[0-9]{1,18}$"));
    if (text.startsWith(u'#'))
        text.remove(0, 1);
    if (!digits.match(text).hasMatch())
        return std::nullopt;
    const qlonglong n = text.toLongLong();
    return n > 0 ? std::optional<std::int64_t>(n) : std::nullopt;
}

Result<AppLink> parseCommit(const QString& text, const QString& value)
{
    if (value.size() < 4 || value.size() > kMaxSha)
        return linkError(text, QStringLiteral("a commit link needs 4 to 40 hex digits of the SHA"));
    if (isHex(value)) {
        if (value.size() > 40)
            return linkError(text, QStringLiteral("a SHA has at most 40 hex digits"));
        return AppLink{AppLink::Kind::Commit, value.toLower(), 0, {}, {}};
    }
    for (const QChar c : value)
        if (!c.isPrint() || c.isSpace())
            return linkError(text, QStringLiteral("a SHA holds no spaces or control characters"));
    return AppLink{AppLink::Kind::Commit, value, 0, {}, {}}; // a nightly's key
}

Result<AppLink> parseRun(const QString& text, const QString& value, const QUrlQuery& query)
{
    static const QRegularExpression digits(QStringLiteral("^[0-9]{1,20}$"));
    if (!digits.match(value).hasMatch())
        return linkError(text, QStringLiteral("a run link needs the check run's id (digits, as "
                                              "the HUD and GitHub show it)"));
    AppLink link{AppLink::Kind::Run, {}, 0, CheckRunId{value.toStdString()}, {}};
    if (query.hasQueryItem(QStringLiteral("test"))) {
        link.test = query.queryItemValue(QStringLiteral("test"), QUrl::FullyDecoded);
        if (link.test.isEmpty() || link.test.size() > kMaxIdentity)
            return linkError(text, QStringLiteral("test= needs a test's identity "
                                                  "(file::Class::name)"));
    }
    return link;
}

// The one path segment after the kind: "/abc" or "/abc/".
std::optional<QString> singleSegment(const QUrl& url)
{
    QString path = url.path(QUrl::FullyDecoded);
    if (path.endsWith(u'/'))
        path.chop(1);
    if (!path.startsWith(u'/') || path.size() < 2 || path.indexOf(u'/', 1) >= 0)
        return std::nullopt;
    return path.mid(1);
}

} // namespace

bool isAppLink(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (!trimmed.startsWith(kScheme % u':', Qt::CaseInsensitive))
        return false;
    const QUrl url(trimmed);
    return !(url.isValid() && url.host() == u"log");
}

Result<AppLink> parseAppLink(const QString& input)
{
    const QString text = input.trimmed();
    if (!text.startsWith(kScheme % u"://", Qt::CaseInsensitive))
        return linkError(text, QStringLiteral("not a relayhud:// link"));
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        return linkError(text, QStringLiteral("malformed link (%1)").arg(url.errorString()));
    const QString kind = url.host();
    if (kind != u"sha" && kind != u"pr" && kind != u"run")
        return linkError(text, QStringLiteral("unknown link kind '%1' (relayhud:// links are "
                                              "sha/<SHA>, pr/<number>, run/<check run id> and "
                                              "log?path=…)")
                                   .arg(kind));
    if (!url.userInfo().isEmpty() || url.port() != -1 || url.hasFragment())
        return linkError(text, QStringLiteral("malformed link"));
    const std::optional<QString> value = singleSegment(url);
    if (!value)
        return linkError(text, QStringLiteral("the link names no %1 after %2/")
                                   .arg(kind == u"sha"  ? QStringLiteral("commit")
                                        : kind == u"pr" ? QStringLiteral("pull request")
                                                        : QStringLiteral("run"),
                                        kind));
    const QUrlQuery query(url);
    for (const auto& [key, _] : query.queryItems())
        if (kind != u"run" || key != u"test")
            return linkError(text, QStringLiteral("unknown parameter '%1' (only a run link "
                                                  "takes one: test=)")
                                       .arg(key));
    if (kind == u"sha")
        return parseCommit(text, *value);
    if (kind == u"run")
        return parseRun(text, *value, query);
    const auto pr = positiveNumber(*value);
    if (!pr)
        return linkError(text, QStringLiteral("a pull request link needs its number"));
    return AppLink{AppLink::Kind::PullRequest, {}, PrNumber{*pr}, {}, {}};
}

QString commitLinkUrl(const QString& sha)
{
    return kScheme % u"://sha/" % QString::fromLatin1(QUrl::toPercentEncoding(sha));
}

QString pullRequestLinkUrl(PrNumber pr) { return kScheme % u"://pr/" % QString::number(pr.value); }

QString runLinkUrl(const CheckRunId& id, const QString& testIdentity)
{
    const QString run =
        kScheme % u"://run/"
        % QString::fromLatin1(QUrl::toPercentEncoding(QString::fromStdString(id.value)));
    if (testIdentity.isEmpty())
        return run;
    // '/' and ':' stay readable (file/path.py::Class::name); the rest a query
    // could misread ('&', '=', '+', '#', brackets, spaces) is encoded.
    return run % u"?test=" % QString::fromLatin1(QUrl::toPercentEncoding(testIdentity, "/:"));
}

QString appLinkUrl(const AppLink& link)
{
    switch (link.kind) {
    case AppLink::Kind::Commit: return commitLinkUrl(link.sha);
    case AppLink::Kind::PullRequest: return pullRequestLinkUrl(link.pr);
    case AppLink::Kind::Run: return runLinkUrl(link.checkRun, link.test);
    }
    return {};
}

} // namespace relayhud::ui
