#pragma once
// Ctrl+G in the log view: a small field over the view's top edge that takes
// "1234" (a line) or "1200-1250" (a range, selected), Enter to jump, Escape
// to leave. Inline rather than a dialog, so typing goes on where it was.
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/logs/line_number.h"
#endif

#include <QLineEdit>

#include <cstdint>

namespace relayhud::ui {

class LineJumpEdit : public QLineEdit {
    Q_OBJECT
public:
    explicit LineJumpEdit(QWidget* parent);

    // Shows it for a log of `lineCount` lines, focused.
    void open(std::uint64_t lineCount);

Q_SIGNALS:
    void jumpRequested(relayhud::LineNumber first, relayhud::LineNumber last, bool select);
    void closed();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void accept();
    void close();

    std::uint64_t m_lineCount = 0;
};

} // namespace relayhud::ui
