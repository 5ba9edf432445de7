#pragma once
// The moves the cache argues for (config/config_suggest.h), for every open
// config, one per method under the entry that decides it, with Apply (the
// selected ones, or a heading's) and Apply all; and the warnings of name
// patterns that match no test the cache knows.
#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace relayhud::ui {

// A suggestion as the pane lists it; `doc` and `index` point back into the
// editor's suggestion lists.
struct SuggestionRow {
    std::size_t doc = 0;
    std::size_t index = 0;
    QString move; // "promote" / "demote"
    QString test;
    QString evidence;
    QString file;
    // The entry that decides it ("entry at line 42 · xfail"): rows with the
    // same group (and file) are listed under one heading.
    QString group;
};

struct SuggestionRef {
    std::size_t doc = 0;
    std::size_t index = 0;
};

class SuggestionsPane : public QWidget {
    Q_OBJECT
public:
    explicit SuggestionsPane(QWidget* parent = nullptr);

    void setRows(const std::vector<SuggestionRow>& rows, const QStringList& warnings);
    void setStatus(const QString& text);
    int runs() const;
    int rowCount() const;   // suggestions (moves), not headings
    int groupCount() const; // headings
    QTreeWidget* list() const { return m_list; }
    std::vector<SuggestionRef> selected() const;
    std::vector<SuggestionRef> all() const;

signals:
    void applyRequested(const std::vector<relayhud::ui::SuggestionRef>& refs);
    // The Apply all button: every suggestion, to be confirmed first.
    void applyAllRequested(const std::vector<relayhud::ui::SuggestionRef>& refs);
    void runsChanged(int runs);
    void testActivated(const QString& test);

private:
    QTreeWidget* m_list = nullptr;
    QLabel* m_status = nullptr;
    QSpinBox* m_runs = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_applyAll = nullptr;
};

} // namespace relayhud::ui
