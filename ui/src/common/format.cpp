#include "relayhud/ui/common/format.h"

#include "relayhud/model/count_kind.h"

#include <QDateTime>
#include <QLocale>
#include <QObject>
#include <QTimeZone>

#include <cmath>

namespace relayhud::ui {

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString toQString(const std::string& text) { return QString::fromStdString(text); }

QString formatDuration(std::optional<double> seconds)
{
    if (!seconds || *seconds < 0)
        return QStringLiteral("—");
    const auto total = static_cast<qint64>(std::llround(*seconds));
    const qint64 h = total / 3600;
    const qint64 m = (total % 3600) / 60;
    const qint64 s = total % 60;
    if (h > 0)
        return QStringLiteral("%1h %2m").arg(h).arg(m, 2, 10, QLatin1Char('0'));
    if (m > 0)
        return QStringLiteral("%1m %2s").arg(m).arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1s").arg(s);
}

QString formatShortTime(EpochSeconds t)
{
    if (t <= 0)
        return QStringLiteral("—");
    return QDateTime::fromSecsSinceEpoch(t).toString(QStringLiteral("MMM d HH:mm"));
}

QString formatLongTime(std::optional<EpochSeconds> t)
{
    if (!t || *t <= 0)
        return QStringLiteral("—");
    const QDateTime local = QDateTime::fromSecsSinceEpoch(*t);
    const QDateTime utc = local.toTimeZone(QTimeZone::utc());
    return local.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) % u"  ("
           % utc.toString(QStringLiteral("HH:mm")) % u" UTC)";
}

QString formatDataSize(std::uint64_t bytes)
{
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

QString plainToolTip(const QString& text)
{
    return u"<p style='white-space:pre'>" % text.toHtmlEscaped() % u"</p>";
}

QString eventTypeLabel(EventType type)
{
    switch (type) {
    case EventType::PullRequest: return QStringLiteral("PR");
    case EventType::Push: return QStringLiteral("push");
    case EventType::Nightly: return QStringLiteral("nightly");
    case EventType::Periodic: return QStringLiteral("periodic");
    }
    return {};
}

QString countKindNote(const std::string& repo)
{
    switch (countKindOf(repo).kind) {
    case CountKind::TestCases: return QObject::tr("JUnit test cases");
    case CountKind::TestCommands: return QObject::tr("test commands, not test cases");
    case CountKind::HealthChecks: return QObject::tr("health checks, not tests");
    case CountKind::Unknown: break;
    }
    return {};
}

QString levelLabel(Level level)
{
    switch (level) {
    case Level::L1: return QStringLiteral("L1");
    case Level::L2: return QStringLiteral("L2");
    case Level::L3: return QStringLiteral("L3");
    case Level::L4: return QStringLiteral("L4");
    case Level::Unknown: break;
    }
    return {};
}

} // namespace relayhud::ui
