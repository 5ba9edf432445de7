// Keys over a cache filled from the simulated world (issue 36): a link or a
// jump to a row lands on its first failure; `?` lists every key the window
// binds, none shadows another, and the README lists the same.
#include "relayhud/ui/jump/jump_box.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/matrix/triage_walk.h"
#include "relayhud/ui/triage/key_table.h"
#include "relayhud/ui/triage/triage_dialog.h"
#include "relayhud/ui/window/links_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <gmock/gmock.h>

#include <map>
#include <set>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

WalkCell walkCellOf(const QModelIndex& index)
{
    return {index.row(), index.column(),
            static_cast<CellState>(index.data(MatrixModel::CellStateRole).toInt()),
            index.data(MatrixModel::TriageRole).toInt()
                == static_cast<int>(MatrixModel::TriageMark::Untriaged)};
}

qint64 runOf(const QModelIndex& index)
{
    return index.data(MatrixModel::RunRowIdRole).toLongLong();
}

void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWidget* focus = QApplication::focusWidget();
    ASSERT_NE(focus, nullptr) << "nothing has the keyboard focus";
    QTest::keyClick(focus, key, modifiers);
}

// A window over a cache filled from the simulated world, without syncing.
class KeysOffline : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_path = m_dir.filePath(QStringLiteral("cache.sqlite"));
        fillCache(m_path.toStdString(), dataset());
        m_window = std::make_unique<MainWindow>(offlineSession(m_path));
        m_window->resize(1600, 1000);
        m_window->show();
        QApplication::setActiveWindow(m_window.get());
        ASSERT_TRUE(
            QTest::qWaitFor([&] { return m_window->matrix()->model().rowCount() > 0; }, kWaitMs))
            << "no matrix; busy pool threads: "
            << QThreadPool::globalInstance()->activeThreadCount() << " of "
            << QThreadPool::globalInstance()->maxThreadCount();
    }

    // A commit row (a full SHA) whose first run is no failure but which
    // failed somewhere: where "its first column" and "its first failure" differ.
    int rowFailingPastItsFirstRun(bool pullRequest) const
    {
        const MatrixFilterProxy& proxy = m_window->matrix()->proxy();
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const QString sha = proxy.headerData(r, Qt::Vertical, MatrixModel::ShaRole).toString();
            const qint64 pr =
                proxy.headerData(r, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong();
            if (sha.size() != 40 || (pullRequest && pr <= 0))
                continue;
            int firstRun = 0;
            while (firstRun < proxy.columnCount() && runOf(proxy.index(r, firstRun)) == 0)
                ++firstRun;
            const std::vector<WalkCell> cells = rowCells(r);
            const auto landing = TriageWalk::landingColumn(cells);
            if (landing && *landing != firstRun)
                return r;
        }
        return -1;
    }

    std::vector<WalkCell> rowCells(int row) const
    {
        std::vector<WalkCell> cells;
        for (int c = 0; c < m_window->matrix()->proxy().columnCount(); ++c)
            cells.push_back(walkCellOf(m_window->matrix()->proxy().index(row, c)));
        return cells;
    }

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<MainWindow> m_window;
};

// Every binding the window and its children hold, as the key table names it.
std::set<QString> boundKeys(const QWidget& window)
{
    std::set<QString> keys;
    const auto add = [&](const QKeySequence& key) {
        if (!key.isEmpty())
            keys.insert(normalizedKey(key).toString(QKeySequence::PortableText));
    };
    for (const QAction* action : window.findChildren<QAction*>())
        for (const QKeySequence& key : action->shortcuts())
            add(key);
    for (const QShortcut* shortcut : window.findChildren<QShortcut*>())
        for (const QKeySequence& key : shortcut->keys())
            add(key);
    for (const QAbstractButton* button : window.findChildren<QAbstractButton*>())
        add(button->shortcut());
    return keys;
}

// Keys bound twice where both would fire, which makes Qt fire neither: two
// window-wide bindings, two on one widget, or one on a widget that a
// window-wide one shadows. Mnemonics (Alt+letter) are the labels' own.
QStringList clashes(const QWidget& window)
{
    std::map<QString, int> wide;
    std::map<std::pair<const QObject*, QString>, int> local;
    const auto name = [](const QKeySequence& key) {
        return key.toString(QKeySequence::PortableText);
    };
    for (const QAction* action : window.findChildren<QAction*>())
        if (action->shortcutContext() != Qt::WidgetShortcut)
            for (const QKeySequence& key : action->shortcuts())
                ++wide[name(key)];
    for (const QAbstractButton* button : window.findChildren<QAbstractButton*>())
        if (!button->shortcut().isEmpty() && !name(button->shortcut()).startsWith(u"Alt+"))
            ++wide[name(button->shortcut())];
    for (const QShortcut* shortcut : window.findChildren<QShortcut*>())
        for (const QKeySequence& key : shortcut->keys())
            ++local[{shortcut->parent(), name(key)}];
    QStringList found;
    for (const auto& [key, count] : wide)
        if (count > 1)
            found << key + u" twice in the window"_qs;
    for (const auto& [where, count] : local)
        if (count > 1 || wide.count(where.second) > 0)
            found << where.second + u" on "_qs + where.first->objectName()
                         + u" (also window-wide)"_qs;
    return found;
}

// The README's generated section: between its two markers.
const QString kReadmeBegin = QStringLiteral("<!-- keys: written from keyTable() -->\n");
const QString kReadmeEnd = QStringLiteral("<!-- /keys -->");

} // namespace

TEST_F(KeysOffline, ALinkOrAJumpToARowLandsOnItsFirstFailure)
{
    MainWindow& w = *m_window;
    const int row = rowFailingPastItsFirstRun(false);
    ASSERT_GE(row, 0) << "no row fails past its first run";
    const QString sha =
        w.matrix()->proxy().headerData(row, Qt::Vertical, MatrixModel::ShaRole).toString();
    QSignalSpy opened(w.links(), &LinksCoordinator::linkOpened);
    w.links()->openLink(QStringLiteral("relayhud://sha/") + sha);
    ASSERT_TRUE(opened.count() > 0 || opened.wait(kWaitMs));
    ASSERT_TRUE(opened.first().at(1).toBool()) << opened.first().at(2).toString().toStdString();
    const QModelIndex current = w.matrix()->view()->currentIndex();
    EXPECT_EQ(current.data(MatrixModel::ShaRole).toString(), sha);
    const auto state = static_cast<CellState>(current.data(MatrixModel::CellStateRole).toInt());
    EXPECT_TRUE(failureRank(state)) << "landed on " << cellStateText(state).toStdString();
    EXPECT_EQ(current.column(), TriageWalk::landingColumn(rowCells(current.row())));
    for (int c = 0; c < current.column(); ++c) // nothing worse to its left
        EXPECT_FALSE(walkCellOf(current.siblingAtColumn(c)).untriaged
                     && failureRank(walkCellOf(current.siblingAtColumn(c)).state)
                            <= failureRank(state));

    // Ctrl+K, "#PR", Enter: the PR's newest head, on its first failure.
    const int prRow = rowFailingPastItsFirstRun(true);
    ASSERT_GE(prRow, 0) << "no PR row fails past its first run";
    const qint64 pr =
        w.matrix()->proxy().headerData(prRow, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong();
    w.matrix()->view()->setCurrentIndex(w.matrix()->proxy().index(0, 0));
    w.matrix()->view()->setFocus();
    press(Qt::Key_K, Qt::ControlModifier);
    auto* jump = w.findChild<JumpBox*>(QStringLiteral("jumpBox"));
    ASSERT_NE(jump, nullptr);
    QLineEdit* box = jump->edit();
    QTest::keyClicks(box, QStringLiteral("#") + QString::number(pr));
    QTest::keyClick(box, Qt::Key_Return);
    const QModelIndex jumped = w.matrix()->view()->currentIndex();
    EXPECT_EQ(jumped.data(MatrixModel::PrNumberRole).toLongLong(), pr);
    const auto jumpedState =
        static_cast<CellState>(jumped.data(MatrixModel::CellStateRole).toInt());
    EXPECT_TRUE(failureRank(jumpedState)) << cellStateText(jumpedState).toStdString();
    EXPECT_EQ(jumped.column(), TriageWalk::landingColumn(rowCells(jumped.row())));
}

TEST_F(KeysOffline, QuestionMarkListsEveryKeyTheWindowBindsAndTheReadmeAgrees)
{
    MainWindow& w = *m_window;
    // Every binding is in the table (a key added without a row fails here).
    std::set<QString> listed;
    for (const KeyEntry& entry : keyTable())
        for (const QKeySequence& key : entry.keys + entry.alternatives)
            listed.insert(normalizedKey(key).toString(QKeySequence::PortableText));
    for (const QString& key : boundKeys(w))
        EXPECT_TRUE(listed.count(key) > 0) << key.toStdString() << " is bound but not in the sheet";

    // No key is bound where another shadows it. Ctrl+F is seen and left: the
    // tests panel's filter and the matrix's share it (before issue 36).
    QStringList clashing;
    for (const QString& clash : clashes(w))
        if (!clash.startsWith(u"Ctrl+F "_qs))
            clashing << clash;
    EXPECT_TRUE(clashing.isEmpty()) << clashing.join(u'\n').toStdString();

    // `?` in the matrix shows the sheet, one line per row of the table.
    w.matrix()->view()->setFocus();
    press(Qt::Key_Question);
    auto* sheet = w.findChild<TriageShortcutsDialog*>();
    ASSERT_NE(sheet, nullptr);
    EXPECT_TRUE(sheet->isVisible());
    QStringList shownKeys;
    for (const QLabel* label : sheet->findChildren<QLabel*>(QStringLiteral("keys")))
        shownKeys << label->text();
    QStringList tableKeys;
    for (const KeyEntry& entry : keyTable())
        tableKeys << keysText(entry.keys);
    EXPECT_EQ(shownKeys, tableKeys);
    EXPECT_LE(sheet->height(), 700) << "the sheet fits a 768-pixel screen";
    test::keepPictures(*sheet, QStringLiteral("key-sheet"));
    sheet->close();

    // The README's key list is the same table.
    QFile readme(QStringLiteral(RELAYHUD_README));
    ASSERT_TRUE(readme.open(QIODevice::ReadOnly | QIODevice::Text));
    QString text = QString::fromUtf8(readme.readAll());
    readme.close();
    const qsizetype begin = text.indexOf(kReadmeBegin);
    const qsizetype end = text.indexOf(kReadmeEnd);
    ASSERT_GE(begin, 0) << "README.md has no generated key list";
    ASSERT_GT(end, begin);
    const qsizetype from = begin + kReadmeBegin.size();
    const QString written = text.mid(from, end - from);
    if (written != keyTableMarkdown() && qEnvironmentVariableIsSet("RELAYHUD_UPDATE_README")) {
        text.replace(from, end - from, keyTableMarkdown());
        ASSERT_TRUE(readme.open(QIODevice::WriteOnly | QIODevice::Text | QIODevice::Truncate));
        readme.write(text.toUtf8());
        return;
    }
    EXPECT_EQ(written, keyTableMarkdown())
        << "README.md's key list differs from keyTable(); run this test with "
           "RELAYHUD_UPDATE_README=1 to write it";
}
