#include "relayhud/ui/logs/line_jump_edit.h"

#include <QKeyEvent>
#include <QLocale>
#include <QRegularExpression>

namespace relayhud::ui {

LineJumpEdit::LineJumpEdit(QWidget* parent) : QLineEdit(parent)
{
    setClearButtonEnabled(false);
    hide();
}

void LineJumpEdit::open(std::uint64_t lineCount)
{
    m_lineCount = lineCount;
    setPlaceholderText(tr("Go to line (1–%1), or a range: 10-20")
                           .arg(QLocale().toString(
                               static_cast<qulonglong>(std::max<std::uint64_t>(lineCount, 1)))));
    setStyleSheet({});
    clear();
    show();
    raise();
    setFocus(Qt::ShortcutFocusReason);
}

void LineJumpEdit::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        close();
        return;
    }
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        accept();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

void LineJumpEdit::focusOutEvent(QFocusEvent* event)
{
    QLineEdit::focusOutEvent(event);
    if (isVisible())
        hide();
}

void LineJumpEdit::accept()
{
    static const QRegularExpression form(
        QStringLiteral("^\\s*(\\d{1,18})\\s*(?:[-–:]\\s*(\\d{1,18}))?\\s*$"));
    const QRegularExpressionMatch m = form.match(text());
    const qulonglong a = m.hasMatch() ? m.captured(1).toULongLong() : 0;
    const qulonglong b = m.hasCaptured(2) ? m.captured(2).toULongLong() : a;
    if (a == 0 || b == 0 || m_lineCount == 0) {
        // Not a line: say so in place and let the user fix it.
        setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #cf222e; }"));
        return;
    }
    const auto clampLine = [this](qulonglong shown) {
        return LineNumber::fromShown(std::min<qulonglong>(shown, m_lineCount));
    };
    Q_EMIT jumpRequested(clampLine(std::min(a, b)), clampLine(std::max(a, b)), m.hasCaptured(2));
    close();
}

void LineJumpEdit::close()
{
    // Focus goes back to the view before the field hides: hiding a focused
    // widget hands focus to the next in the chain (the landmark list, which
    // would then select its first row and move the view there).
    Q_EMIT closed();
    hide();
}

} // namespace relayhud::ui
