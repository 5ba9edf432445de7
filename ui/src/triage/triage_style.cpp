#include "relayhud/ui/triage/triage_style.h"

#include "relayhud/ui/matrix/cell_style.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFontMetrics>
#include <QPainter>
#include <QPalette>

namespace relayhud::ui {

using triage::FailureClass;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("FailureClass", text); }

struct ClassLook {
    QChar key;
    QColor light; // chip fill on a light palette
    QColor dark;  // on a dark one
};

ClassLook lookOf(FailureClass cls)
{
    switch (cls) {
    case FailureClass::Regression:
        return {u'r', QColor(0xd6, 0x3b, 0x3b), QColor(0xc2, 0x4a, 0x4a)};
    case FailureClass::PreExisting:
        return {u'p', QColor(0xb8, 0x7a, 0x1e), QColor(0xa8, 0x74, 0x2a)};
    case FailureClass::Flaky: return {u'f', QColor(0x8e, 0x5b, 0xc9), QColor(0x86, 0x62, 0xb8)};
    case FailureClass::Infra: return {u'i', QColor(0x4a, 0x6f, 0xb5), QColor(0x4f, 0x74, 0xb0)};
    case FailureClass::BackendBug:
        return {u'b', QColor(0xc2, 0x4e, 0x8a), QColor(0xb0, 0x55, 0x86)};
    case FailureClass::TestOrConfig:
        return {u't', QColor(0x2f, 0x8f, 0x8a), QColor(0x34, 0x88, 0x83)};
    case FailureClass::Expected: return {u'e', QColor(0x7b, 0x84, 0x8c), QColor(0x6c, 0x74, 0x7c)};
    case FailureClass::UnexpectedPass:
        return {u'u', QColor(0x3e, 0x9a, 0x4b), QColor(0x3f, 0x8e, 0x4a)};
    case FailureClass::Unset:
    case FailureClass::Untriaged: break;
    }
    return {QChar(), QColor(0x9a, 0xa0, 0xa6), QColor(0x80, 0x86, 0x8c)};
}

} // namespace

QString classLabel(FailureClass cls)
{
    switch (cls) {
    case FailureClass::Regression: return tr("Regression");
    case FailureClass::PreExisting: return tr("Pre-existing");
    case FailureClass::Flaky: return tr("Flaky");
    case FailureClass::Infra: return tr("Infra");
    case FailureClass::BackendBug: return tr("Backend bug");
    case FailureClass::TestOrConfig: return tr("Test or config");
    case FailureClass::Expected: return tr("Expected");
    case FailureClass::UnexpectedPass: return tr("Unexpected pass");
    case FailureClass::Unset:
    case FailureClass::Untriaged: break;
    }
    return tr("Untriaged");
}

QString classDescription(FailureClass cls)
{
    switch (cls) {
    case FailureClass::Regression:
        return tr("Caused by this PR: fails on its heads, not on other PRs' runs of the job");
    case FailureClass::PreExisting:
        return tr("Already broken upstream: most PRs' runs of the job fail it since a breakage");
    case FailureClass::Flaky: return tr("Passed on a rerun, or other PRs fail it now and then");
    case FailureClass::Infra: return tr("The runner, network, disk or service failed, not a test");
    case FailureClass::BackendBug:
        return tr("A bug in the backend itself: every run started failing it at once");
    case FailureClass::TestOrConfig: return tr("The test or the outcome config is wrong");
    case FailureClass::Expected: return tr("An xfail that failed, as declared");
    case FailureClass::UnexpectedPass:
        return tr("An xfail_strict test that passed: a promote candidate");
    case FailureClass::Unset:
    case FailureClass::Untriaged: break;
    }
    return tr("No class yet");
}

std::optional<QChar> classKey(FailureClass cls)
{
    const QChar key = lookOf(cls).key;
    return key.isNull() ? std::nullopt : std::optional<QChar>(key);
}

std::optional<FailureClass> classForKey(QChar key)
{
    const QChar lower = key.toLower();
    if (lower == kClearTriageKey)
        return FailureClass::Untriaged;
    for (FailureClass cls : kTriageClasses)
        if (lookOf(cls).key == lower)
            return cls;
    return std::nullopt;
}

QString tagTimeText(std::int64_t timeMs)
{
    return QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
}

QColor classColor(FailureClass cls, const QPalette& palette)
{
    const ClassLook look = lookOf(cls);
    return isDarkPalette(palette) ? look.dark : look.light;
}

int paintClassChip(QPainter& painter, const QRect& box, FailureClass cls, bool human,
                   const QPalette& palette)
{
    const QString label = classLabel(cls);
    QFont font = painter.font();
    font.setItalic(!human);
    const QFontMetrics metrics(font);
    const int padding = 6;
    const int width = std::min(box.width(), metrics.horizontalAdvance(label) + 2 * padding);
    const int height = std::min(box.height(), metrics.height() + 2);
    const QRectF chip(box.left() + 0.5, box.top() + (box.height() - height) / 2.0 + 0.5,
                      width - 1.0, height - 1.0);
    const QColor color = classColor(cls, palette);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(font);
    if (human) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawRoundedRect(chip, 4, 4);
        painter.setPen(QColor(Qt::white));
    } else {
        painter.setPen(QPen(color, 1.2, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(chip, 4, 4);
        painter.setPen(palette.color(QPalette::Text));
    }
    painter.drawText(chip, Qt::AlignCenter,
                     metrics.elidedText(label, Qt::ElideRight, width - 2 * padding + 4));
    painter.restore();
    return width;
}

} // namespace relayhud::ui
