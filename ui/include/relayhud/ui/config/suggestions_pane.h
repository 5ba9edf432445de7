#pragma once
// The moves the cache argues for (config/config_suggest.h), for every open
// config, with Apply (the selected ones) and Apply all; and the warnings of
// name patterns that match no test the cache knows.
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
    int rowCount() const;
    std::vector<SuggestionRef> selected() const;
    std::vector<SuggestionRef> all() const;

signals:
    void applyRequested(const std::vector<relayhud::ui::SuggestionRef>& refs);
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
