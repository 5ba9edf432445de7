#pragma once
// A run's tests, ready to drop into the run details: counts (artifacts beside
// self-reported), the filterable, sortable, groupable table with history
// strips, and the selected test's details below it. It is fed plain data by
// the caller's worker and never reads the cache; it asks for tracebacks and
// histories by signal and takes them when they come.
#include "relayhud/ui/tests/tests_panel_data.h"
#include "relayhud/ui/triage/triage_dialog.h"

#include <QVector>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <set>
#include <string>

class QLabel;
class QSplitter;
class QStackedWidget;
class QToolButton;
class QTreeView;

namespace relayhud::ui {

// A class set on failures of the shown run: test ids (0 is the job itself).
// `keepNotes`: a class key changes the class alone; the dialog sets all three.
struct TriageRequest {
    QVector<TestId> testIds;
    TriageEdit edit;
    bool keepNotes = false;
};

class ElidedLabel;
class TestDetailsView;
class TestsCountsBar;
class TestsFilterBar;
class TestsModel;
struct WalkTest;

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
    // than one already shown (ticket below the latest seen).
    bool setData(std::shared_ptr<const TestsPanelData> loaded);
    bool setData(TestsPanelData loaded);
    // The text asked for with tracebackRequested.
    void setTraceback(qint64 textId, const QString& text, bool cut, const QString& fullPath);
    // A history asked for with historyRequested (or a newer one).
    void setHistory(const TestHistory& history);

    // A tag was written or undone: shows the new triage of one test (0: the job).
    void applyTriage(TestId testId, const TestTriage& triage);
    const TestTriage* triageOf(TestId testId) const;
    // The selected tests that can be triaged (failures and xfail outcomes
    // with a triage entry), in view order.
    QVector<TestId> selectedTriageIds() const;
    // Moves to the next (previous) failing test without a person's tag,
    // wrapping around; false when there is none.
    bool selectNextUntriaged(bool forward);
    // The same without wrapping: false past the run's last (first) one.
    bool stepUntriagedInRun(bool forward);
    // The run's first (last) untriaged failing test; false when it has none.
    bool enterRun(bool forward);
    // j / k past the run's last (first) untriaged failure ask for the next
    // (previous) failed cell (walkRequested) instead of wrapping around the run.
    void setWalksBeyondRun(bool on) { m_walksBeyondRun = on; }
    // What keys do in the table: sets `cls` on the selection (as `x`, r, p...).
    void triageSelection(triage::FailureClass cls);
    // "Tag…" on the selection (or the job when `job`): the dialog, then triageRequested.
    void showTagDialog(bool job = false);
    void showShortcuts();
    QString jobTriageText() const;

    bool selectTest(TestId testId);
    // The shown run's test with this report identity; false when it has none
    // (or the filters hide it).
    bool selectIdentity(const QString& identity);
    TestId selectedTestId() const { return m_selectedTestId; }
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
    void triageRequested(const relayhud::ui::TriageRequest& request);
    void openInConfigRequested(const QString& identity, const QString& marks);
    // With setWalksBeyondRun: j / k went past the run's untriaged failures.
    // (`wholeCell` is always false here: n / p are the matrix's, as p is a
    // class key in the table.)
    void walkRequested(bool forward, bool wholeCell);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The details pane's height follows the panel's; the table takes the rest.
    void splitTableAndDetails();
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
    void connectTriageKeys();
    void updateJobTriage();
    std::vector<QModelIndex> testRowsInViewOrder() const;
    std::vector<WalkTest> walkTests(const std::vector<QModelIndex>& rows) const;
    QModelIndex firstFailingTest() const;
    void stepKey(bool forward);

    std::shared_ptr<const TestsPanelData> m_data;
    Ticket m_latestLoad;
    TestId m_selectedTestId;
    std::set<QString> m_collapsedGroups;
    bool m_restoringExpansion = false;
    bool m_walksBeyondRun = false;
    TestsModel* m_model;
    ElidedLabel* m_title;
    TestsCountsBar* m_counts;
    QStackedWidget* m_stack;
    QLabel* m_message;
    TestsFilterBar* m_filterBar = nullptr;
    QTreeView* m_view = nullptr;
    QSplitter* m_splitter = nullptr;
    bool m_splitByUser = false; // the user dragged the handle: their split stays
    TestDetailsView* m_details = nullptr;
    QWidget* m_jobBar = nullptr;
    QLabel* m_jobTriage = nullptr;
    QToolButton* m_tagJob = nullptr;
    std::optional<TestTriage> m_job; // the job's own triage, when it failed without failing tests
};

} // namespace relayhud::ui
