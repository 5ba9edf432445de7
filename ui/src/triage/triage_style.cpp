#include "relayhud/ui/triage/triage_style.h"

#include "relayhud/ui/matrix/cell_style.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFontMetrics>
#include <QPainter>
#include <QPalette>

#include <array>

namespace relayhud::ui {

using triage::FailureClass;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("FailureClass", text); }

// How each class looks and is typed: its label and one line on what it
// means (translated), the key that sets it, and its chip colour on a light
// and on a dark palette. Core's table (model/failure_class.cpp) says which
// classes exist; a class missing here shows by its model name in grey.
struct ClassLook {
    FailureClass cls;
    const char* label;
    const char* description;
    QChar key;
    QRgb light; // chip fill on a light palette
    QRgb dark;  // on a dark one
};

// clang-format off
constexpr std::array kLooks{
    ClassLook{FailureClass::Regression, QT_TRANSLATE_NOOP("FailureClass", "Regression"),
              QT_TRANSLATE_NOOP("FailureClass", "Caused by this PR: fails on its heads, not on other PRs' runs of the job"),
              u'r', 0xd63b3b, 0xc24a4a},
    ClassLook{FailureClass::PreExisting, QT_TRANSLATE_NOOP("FailureClass", "Pre-existing"),
              QT_TRANSLATE_NOOP("FailureClass", "Already broken upstream: most PRs' runs of the job fail it since a breakage"),
              u'p', 0xb87a1e, 0xa8742a},
    ClassLook{FailureClass::Flaky, QT_TRANSLATE_NOOP("FailureClass", "Flaky"),
              QT_TRANSLATE_NOOP("FailureClass", "Passed on a rerun, or other PRs fail it now and then"),
              u'f', 0x8e5bc9, 0x8662b8},
    ClassLook{FailureClass::Infra, QT_TRANSLATE_NOOP("FailureClass", "Infra"),
              QT_TRANSLATE_NOOP("FailureClass", "The runner, network, disk or service failed, not a test"),
              u'i', 0x4a6fb5, 0x4f74b0},
    ClassLook{FailureClass::BackendBug, QT_TRANSLATE_NOOP("FailureClass", "Backend bug"),
              QT_TRANSLATE_NOOP("FailureClass", "A bug in the backend itself: every run started failing it at once"),
              u'b', 0xc24e8a, 0xb05586},
    ClassLook{FailureClass::TestOrConfig, QT_TRANSLATE_NOOP("FailureClass", "Test or config"),
              QT_TRANSLATE_NOOP("FailureClass", "The test or the outcome config is wrong"),
              u't', 0x2f8f8a, 0x348883},
    ClassLook{FailureClass::Expected, QT_TRANSLATE_NOOP("FailureClass", "Expected"),
              QT_TRANSLATE_NOOP("FailureClass", "An xfail that failed, as declared"),
              u'e', 0x7b848c, 0x6c747c},
    ClassLook{FailureClass::UnexpectedPass, QT_TRANSLATE_NOOP("FailureClass", "Unexpected pass"),
              QT_TRANSLATE_NOOP("FailureClass", "An xfail_strict test that passed: a promote candidate"),
              u'u', 0x3e9a4b, 0x3f8e4a},
};
// clang-format on

constexpr QRgb kNeutralLight = 0x9aa0a6;
constexpr QRgb kNeutralDark = 0x80868c;

const ClassLook* lookOf(FailureClass cls)
{
    for (const ClassLook& look : kLooks)
        if (look.cls == cls)
            return &look;
    return nullptr;
}

} // namespace

const std::vector<FailureClass>& triageClasses()
{
    static const std::vector<FailureClass> classes = triage::taggableClasses();
    return classes;
}

QString classLabel(FailureClass cls)
{
    if (const ClassLook* look = lookOf(cls))
        return tr(look->label);
    if (cls == FailureClass::Unset || cls == FailureClass::Untriaged || !triage::isKnownClass(cls))
        return tr("Untriaged");
    // A class core knows and this table does not: its model name, capitalised.
    QString name = QString::fromUtf8(triage::failureClassName(cls));
    name[0] = name[0].toUpper();
    return name;
}

QString classDescription(FailureClass cls)
{
    if (const ClassLook* look = lookOf(cls))
        return tr(look->description);
    return tr("No class yet");
}

std::optional<QChar> classKey(FailureClass cls)
{
    const ClassLook* look = lookOf(cls);
    return look != nullptr && !look->key.isNull() ? std::optional<QChar>(look->key) : std::nullopt;
}

std::optional<FailureClass> classForKey(QChar key)
{
    const QChar lower = key.toLower();
    if (lower == kClearTriageKey)
        return FailureClass::Untriaged;
    for (const ClassLook& look : kLooks)
        if (look.key == lower && triage::failureClassInfo(look.cls).taggable)
            return look.cls;
    return std::nullopt;
}

QString tagTimeText(std::int64_t timeMs)
{
    return QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
}

QColor classColor(FailureClass cls, const QPalette& palette)
{
    const ClassLook* look = lookOf(cls);
    const bool dark = isDarkPalette(palette);
    if (look == nullptr)
        return QColor::fromRgb(dark ? kNeutralDark : kNeutralLight);
    return QColor::fromRgb(dark ? look->dark : look->light);
}

int paintClassChip(QPainter& painter, const QRect& box, FailureClass cls, bool human,
                   const QPalette& palette, bool provisional)
{
    const QString label = provisional ? QString(classLabel(cls) % u'?') : classLabel(cls);
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
