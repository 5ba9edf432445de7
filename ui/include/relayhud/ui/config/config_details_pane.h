#pragma once
// What the editor shows about the selected row: its title, why the config
// gives a test its mode (explainTest's steps), and the history of the tests
// it names in the cache's recent runs, one strip per job and variant.
#ifndef Q_MOC_RUN
#include "relayhud/model/test_results.h"
#include "relayhud/store/recent_results.h"
#endif

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QVBoxLayout;

namespace relayhud::ui {

struct HistoryRow {
    QString label; // "org/repo · test (default) · test_add_spyre_float16"
    TestHistory history;
};

// One row per job and test among `testIndices` (into recent.tests), at most
// `limit` rows; `more` gets how many were left out.
std::vector<HistoryRow> historyRows(const RecentResults& recent,
                                    const std::vector<std::size_t>& testIndices, int limit,
                                    int* more);

class ConfigDetailsPane : public QWidget {
    Q_OBJECT
public:
    explicit ConfigDetailsPane(QWidget* parent = nullptr);

    void showText(const QString& title, const QStringList& lines);
    // `note` replaces the strips when there are none ("no cache", "loading").
    void setHistories(const std::vector<HistoryRow>& rows, int more, const QString& note);

    QString title() const;
    QString explanation() const;
    int historyCount() const { return m_historyCount; }

private:
    QLabel* m_title = nullptr;
    QLabel* m_why = nullptr;
    QLabel* m_historyNote = nullptr;
    QWidget* m_strips = nullptr;
    QVBoxLayout* m_stripsLayout = nullptr;
    int m_historyCount = 0;
};

} // namespace relayhud::ui
