#pragma once
// The log viewer's search row: the pattern, regex and case toggles, "only
// matching lines" with its context, the running match count and previous /
// next. Typing starts a new search after a short pause (each keystroke
// restarts the pause), so a fast typist never waits on stale searches.
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/logs/log_search.h"
#endif

#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace relayhud::ui {

class LogSearchBar : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 150;

    explicit LogSearchBar(QWidget* parent = nullptr);

    SearchQuery query() const;
    bool filterOn() const;
    int context() const;

    // "1,234 matches" (with "…" while the search runs), or "No matches".
    void setCount(qint64 count, bool finished);
    // The pattern does not compile: say why in place.
    void setError(const QString& message);
    void clearCount();
    void focusSearch();

    QLineEdit* textEdit() const { return m_text; }
    QToolButton* regexButton() const { return m_regex; }
    QToolButton* caseButton() const { return m_case; }
    QToolButton* filterButton() const { return m_filter; }
    QSpinBox* contextSpin() const { return m_context; }
    QLabel* countLabel() const { return m_count; }

Q_SIGNALS:
    // The query to search for now; an empty pattern clears the search.
    void queryChanged();
    void nextRequested();
    void previousRequested();
    void filterChanged(bool on, int context);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QToolButton* toggle(const QString& text, const QString& tip);
    void emitQueryNow();

    QLineEdit* m_text;
    QToolButton* m_regex;
    QToolButton* m_case;
    QToolButton* m_filter;
    QSpinBox* m_context;
    QLabel* m_count;
    QToolButton* m_previous;
    QToolButton* m_next;
    QTimer m_debounce;
};

} // namespace relayhud::ui
