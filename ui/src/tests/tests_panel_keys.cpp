// TestsPanel: keyboard triage in the tests table. j / k walk the run's
// untriaged failures (and, in the main window, on into the next failed
// cell), one key sets a class, T opens the tag dialog, ? shows every key.
#include "relayhud/ui/tests/tests_panel.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/triage_walk.h"
#include "relayhud/ui/tests/test_details_view.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QShortcut>
#include <QTreeView>

namespace relayhud::ui {

void TestsPanel::connectTriageKeys()
{
    // Keys act where the table has focus, so typing in the filter stays typing.
    const auto key = [this](const QKeySequence& sequence, auto&& action) {
        auto* shortcut = new QShortcut(sequence, m_view);
        shortcut->setContext(Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, action);
    };
    key(QKeySequence(Qt::Key_J), [this] { stepKey(true); });
    key(QKeySequence(Qt::Key_K), [this] { stepKey(false); });
    for (triage::FailureClass cls : triageClasses())
        if (const auto classKeyOf = classKey(cls))
            key(QKeySequence(QString(*classKeyOf)), [this, cls] { triageSelection(cls); });
    key(QKeySequence(QString(kClearTriageKey)),
        [this] { triageSelection(triage::FailureClass::Untriaged); });
    key(QKeySequence(Qt::SHIFT | Qt::Key_T), [this] { showTagDialog(false); });
    key(QKeySequence(Qt::Key_Question), [this] { showShortcuts(); });
    key(QKeySequence(Qt::SHIFT | Qt::Key_Question), [this] { showShortcuts(); });
    const auto openLog = [this] {
        const StoredTestResult* result = m_model->result(m_view->currentIndex());
        if (result && m_details->offersShowInLog())
            emit showInLogRequested(result->testId.value, toQString(result->identity));
    };
    key(QKeySequence(Qt::Key_Return), openLog);
    key(QKeySequence(Qt::Key_Enter), openLog);
}

std::vector<QModelIndex> TestsPanel::testRowsInViewOrder() const
{
    std::vector<QModelIndex> rows;
    rows.reserve(m_model->visibleTestCount());
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex top = m_model->index(row, 0);
        if (m_model->result(top)) {
            rows.push_back(top);
            continue;
        }
        for (int child = 0; child < m_model->rowCount(top); ++child)
            rows.push_back(m_model->index(child, 0, top));
    }
    return rows;
}

QVector<TestId> TestsPanel::selectedTriageIds() const
{
    QVector<TestId> ids;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        if (const StoredTestResult* result = m_model->result(index))
            if (m_model->triage(result->testId))
                ids.push_back(result->testId);
    if (ids.isEmpty())
        if (const StoredTestResult* result = m_model->result(m_view->currentIndex()))
            if (m_model->triage(result->testId))
                ids.push_back(result->testId);
    return ids;
}

bool TestsPanel::selectNextUntriaged(bool forward)
{
    if (stepUntriagedInRun(forward))
        return true;
    return enterRun(forward); // wraps around to the first (last) one
}

bool TestsPanel::stepUntriagedInRun(bool forward)
{
    const std::vector<QModelIndex> rows = testRowsInViewOrder();
    const QModelIndex currentIndex = m_view->currentIndex();
    const StoredTestResult* current =
        currentIndex.isValid() ? m_model->result(currentIndex) : nullptr;
    std::optional<std::size_t> at;
    for (std::size_t i = 0; current && i < rows.size(); ++i)
        if (m_model->result(rows[i])->testId == current->testId)
            at = i;
    if (!at) // no test selected: the walk starts at the top (bottom)
        return enterRun(forward);
    const auto next = TriageWalk::nextTest(walkTests(rows), at, forward);
    return next && selectTest(m_model->result(rows[*next])->testId);
}

bool TestsPanel::enterRun(bool forward)
{
    const std::vector<QModelIndex> rows = testRowsInViewOrder();
    const auto entry = TriageWalk::nextTest(walkTests(rows), std::nullopt, forward);
    return entry && selectTest(m_model->result(rows[*entry])->testId);
}

// j / k: the run's next untriaged failure; past its last, the window's walk
// goes on to the next failed cell (a panel on its own wraps around instead).
void TestsPanel::stepKey(bool forward)
{
    if (stepUntriagedInRun(forward))
        return;
    if (m_walksBeyondRun)
        emit walkRequested(forward, false);
    else
        selectNextUntriaged(forward);
}

std::vector<WalkTest> TestsPanel::walkTests(const std::vector<QModelIndex>& rows) const
{
    std::vector<WalkTest> tests;
    tests.reserve(rows.size());
    for (const QModelIndex& row : rows) {
        const StoredTestResult* result = m_model->result(row);
        const TestTriage* triage = m_model->triage(result->testId);
        const bool failing = isFailingOutcome(result->outcome);
        tests.push_back({failing, failing && triage && !triage->hasHuman()});
    }
    return tests;
}

QModelIndex TestsPanel::firstFailingTest() const
{
    const std::vector<QModelIndex> rows = testRowsInViewOrder();
    const auto first = TriageWalk::firstFailing(walkTests(rows));
    return first ? rows[*first] : firstTest();
}

void TestsPanel::triageSelection(triage::FailureClass cls)
{
    const QVector<TestId> ids = selectedTriageIds();
    if (ids.isEmpty() || !m_data || !m_data->triageBase)
        return;
    TriageRequest request{ids, {cls, {}, {}}, true};
    emit triageRequested(request);
}

void TestsPanel::showTagDialog(bool job)
{
    if (!m_data || !m_data->triageBase)
        return;
    const QVector<TestId> ids = job ? QVector<TestId>{TestId{}} : selectedTriageIds();
    if (ids.isEmpty() || (job && !m_job))
        return;
    // Start from the tag they share, if they share one.
    TriageEdit initial;
    bool first = true;
    bool same = true;
    for (const TestId id : ids) {
        const TestTriage* triage = triageOf(id);
        TriageEdit mine;
        if (triage) {
            mine.cls = triage->effective();
            if (triage->hasHuman()) {
                mine.note = toQString(triage->tag->note);
                mine.bugUrl = toQString(triage->tag->bugUrl);
            }
        }
        if (first)
            initial = mine;
        else if (mine.cls != initial.cls || mine.note != initial.note
                 || mine.bugUrl != initial.bugUrl)
            same = false;
        first = false;
    }
    if (!same)
        initial = {};
    QString subject;
    if (job)
        subject = tr("the job");
    else if (ids.size() == 1)
        subject = m_details->identityText();
    else
        subject = tr("%n failure(s)", nullptr, static_cast<int>(ids.size()));
    TriageDialog dialog(subject, initial, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    emit triageRequested(TriageRequest{ids, dialog.edit(), false});
}

void TestsPanel::showShortcuts() { showKeySheet(this); }

} // namespace relayhud::ui
