#pragma once
// A run's tests, ready to drop into the run details: counts (artifacts beside
// self-reported), the filterable, sortable, groupable table with history
// strips, and the selected test's details below it. It is fed plain data by
// the caller's worker and never reads the cache; it asks for tracebacks and
// histories by signal and takes them when they come.
#include "relayhud/ui/tests/tests_panel_data.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <set>
#include <string>

class QLabel;
class QSplitter;
class QStackedWidget;
class QTreeView;

namespace relayhud::ui {

class ElidedLabel;
class TestDetailsView;
class TestsCountsBar;
class TestsFilterBar;
class TestsModel;

class TestsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TestsPanel(QWidget* parent = nullptr);
    ~TestsPanel() override;

    // "Fetching test results…" (or `message`) in place of the table.
    void setLoading(const QString& message = {});
    // A note in place of everything ("Select a cell …", a load error).
    void setMessage(const QString& message);
    // Shows a run's tests. Returns false, changing nothing, for a load older
    // than one already shown (loadId below the latest seen).
    bool setData(std::shared_ptr<const TestsPanelData> loaded);
    bool setData(TestsPanelData loaded);
    // The text asked for with tracebackRequested.
    void setTraceback(qint64 textId, const QString& text, bool cut, const QString& fullPath);
    // A history asked for with historyRequested (or a newer one).
    void setHistory(const TestHistory& history);

    bool selectTest(std::int64_t testId);
    std::int64_t selectedTestId() const { return m_selectedTestId; }
    bool isShowingTable() const;
    QString messageText() const;
    QString titleText() const;

    TestsModel& model() const { return *m_model; }
    QTreeView* view() const { return m_view; }
    TestsCountsBar* countsBar() const { return m_counts; }
    TestsFilterBar* filterBar() const { return m_filterBar; }
    TestDetailsView* detailsView() const { return m_details; }

signals:
    void tracebackRequested(qint64 textId);
    void historyRequested(qint64 testId);
    void testActivated(qint64 testId);
    // "Show in log" on a failing test of a run (not an import).
    void showInLogRequested(qint64 testId, const QString& identity);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* buildTable();
    void configureView();
    void connectParts();
    void showRunState(const TestsPanelData& loaded);
    void applyFilter();
    void applyGrouping();
    void onCurrentChanged(const QModelIndex& current);
    void afterLayout();
    void restoreExpansion();
    void restoreSelection();
    void rememberExpansion(const QModelIndex& index, bool expanded);
    QModelIndex firstTest() const;

    std::shared_ptr<const TestsPanelData> m_data;
    std::int64_t m_latestLoad = 0;
    std::int64_t m_selectedTestId = 0;
    std::set<QString> m_collapsedGroups;
    bool m_restoringExpansion = false;
    TestsModel* m_model;
    ElidedLabel* m_title;
    TestsCountsBar* m_counts;
    QStackedWidget* m_stack;
    QLabel* m_message;
    TestsFilterBar* m_filterBar = nullptr;
    QTreeView* m_view = nullptr;
    QSplitter* m_splitter = nullptr;
    TestDetailsView* m_details = nullptr;
};

} // namespace relayhud::ui
