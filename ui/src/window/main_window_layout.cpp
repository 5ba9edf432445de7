// MainWindow: the dock column beside the matrix. Its panels scroll inside
// their docks (no panel's content sets the window's minimum size, which
// stays within a 1280x720 screen), and View › Side column (F9) hides the
// whole column so the matrix takes the window's width.
#include "relayhud/ui/window/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <utility>

namespace relayhud::ui {

namespace {

// The holder of a dock's panel answers no height-for-width: a scroll area
// would give a panel with wrapped text its preferred height (always taller
// than the dock), where the panel should take the dock's height and scroll
// only below its minimum.
class PanelHolderLayout : public QVBoxLayout {
public:
    using QVBoxLayout::QVBoxLayout;
    bool hasHeightForWidth() const override { return false; }
};

// A panel that scrolls when its dock is smaller than the panel needs,
// instead of squeezing its fields over each other.
QScrollArea* scrollingPanel(QWidget* panel, QWidget* parent)
{
    auto* scroll = new QScrollArea(parent);
    scroll->setObjectName(panel->objectName() + QStringLiteral("Scroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* holder = new QWidget(scroll);
    auto* layout = new PanelHolderLayout(holder);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(panel);
    scroll->setWidget(holder);
    return scroll;
}

} // namespace

void MainWindow::buildSideColumn()
{
    for (QDockWidget* dock : sideDocks()) {
        if (QWidget* panel = dock->widget(); panel && !qobject_cast<QScrollArea*>(panel))
            dock->setWidget(scrollingPanel(panel, dock));
        connect(dock->toggleViewAction(), &QAction::toggled, this,
                &MainWindow::updateSideColumnAction);
    }
    m_sideColumnAction = new QAction(tr("Side &column"), this);
    m_sideColumnAction->setObjectName(QStringLiteral("sideColumnAction"));
    m_sideColumnAction->setCheckable(true);
    m_sideColumnAction->setShortcut(QKeySequence(Qt::Key_F9));
    m_sideColumnAction->setStatusTip(
        tr("Show or hide the panels beside the matrix (run details, tests, coverage, charts, "
           "clusters, merge gating); hidden, the matrix takes the window's width"));
    connect(m_sideColumnAction, &QAction::toggled, this, &MainWindow::setSideColumnShown);
    addAction(m_sideColumnAction); // its key works whatever has the focus
    updateSideColumnAction();
}

QList<QDockWidget*> MainWindow::sideDocks() const
{
    QList<QDockWidget*> docks;
    for (QDockWidget* dock :
         {m_detailsDock, m_testsDock, m_coverageDock, m_chartsDock, m_clustersDock, m_gatingDock})
        if (dock)
            docks << dock;
    return docks;
}

bool MainWindow::sideColumnShown() const
{
    for (QDockWidget* dock : sideDocks())
        if (!dock->isFloating() && dock->toggleViewAction()->isChecked())
            return true;
    return false;
}

void MainWindow::setSideColumnShown(bool shown)
{
    if (shown == sideColumnShown())
        return;
    if (!shown) {
        m_collapsedDocks.clear();
        m_collapsedFront.clear();
        for (QDockWidget* dock : sideDocks()) {
            if (dock->isFloating() || !dock->toggleViewAction()->isChecked())
                continue;
            m_collapsedDocks << dock;
            if (dock->isVisible()) // the front tab of its group
                m_collapsedFront << dock;
        }
        for (QDockWidget* dock : std::as_const(m_collapsedDocks))
            dock->hide();
        return;
    }
    if (m_collapsedDocks.isEmpty()) // every dock was closed one by one
        m_collapsedDocks = {m_detailsDock, m_testsDock};
    for (QDockWidget* dock : std::as_const(m_collapsedDocks))
        dock->show();
    for (QDockWidget* dock : std::as_const(m_collapsedFront))
        dock->raise();
    if (m_collapsedFront.isEmpty())
        m_testsDock->raise();
}

void MainWindow::updateSideColumnAction()
{
    if (!m_sideColumnAction)
        return;
    const QSignalBlocker blocker(m_sideColumnAction);
    m_sideColumnAction->setChecked(sideColumnShown());
}

} // namespace relayhud::ui
