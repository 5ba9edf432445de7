#include "relayhud/ui/window/side_column.h"

#include "relayhud/ui/matrix/matrix_view.h"

#include <QAction>
#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
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

// The column before a cell is selected, and the share of the window it
// grows to when one is (unless the user sized it).
constexpr int kCompactDockWidth = 380;
constexpr double kOpenDockShare = 0.36;
constexpr int kOpenDockLeast = 570;

} // namespace

SideColumn::SideColumn(QMainWindow* window, QList<QDockWidget*> docks, MatrixView* view)
    : QObject(window), m_window(window), m_docks(std::move(docks)), m_view(view),
      m_action(new QAction(tr("Side &column"), window))
{
    for (QDockWidget* dock : std::as_const(m_docks)) {
        if (QWidget* panel = dock->widget(); panel && !qobject_cast<QScrollArea*>(panel))
            dock->setWidget(scrollingPanel(panel, dock));
        connect(dock->toggleViewAction(), &QAction::toggled, this, &SideColumn::updateAction);
    }
    m_action->setObjectName(QStringLiteral("sideColumnAction"));
    m_action->setCheckable(true);
    m_action->setShortcut(QKeySequence(Qt::Key_F9));
    m_action->setStatusTip(
        tr("Show or hide the panels beside the matrix (run details, tests, coverage, charts, "
           "clusters, merge gating); hidden, the matrix takes the window's width"));
    connect(m_action, &QAction::toggled, this, &SideColumn::setShown);
    window->addAction(m_action); // its key works whatever has the focus
    updateAction();
}

bool SideColumn::isShown() const
{
    for (QDockWidget* dock : m_docks)
        if (!dock->isFloating() && dock->toggleViewAction()->isChecked())
            return true;
    return false;
}

void SideColumn::setShown(bool shown)
{
    if (shown == isShown())
        return;
    if (!shown) {
        m_collapsed.clear();
        m_collapsedFront.clear();
        for (QDockWidget* dock : std::as_const(m_docks)) {
            if (dock->isFloating() || !dock->toggleViewAction()->isChecked())
                continue;
            m_collapsed << dock;
            if (dock->isVisible()) // the front tab of its group
                m_collapsedFront << dock;
        }
        for (QDockWidget* dock : std::as_const(m_collapsed))
            dock->hide();
        return;
    }
    if (m_collapsed.isEmpty()) // every dock was closed one by one
        m_collapsed = {m_docks[0], m_docks[1]};
    for (QDockWidget* dock : std::as_const(m_collapsed))
        dock->show();
    for (QDockWidget* dock : std::as_const(m_collapsedFront))
        dock->raise();
    if (m_collapsedFront.isEmpty())
        m_docks[1]->raise();
}

void SideColumn::updateAction()
{
    const QSignalBlocker blocker(m_action);
    m_action->setChecked(isShown());
}

void SideColumn::windowShown(bool layoutRestored)
{
    if (std::exchange(m_sized, true))
        return;
    if (!layoutRestored)
        applyDefaultSizes(kCompactDockWidth);
}

void SideColumn::applyDefaultSizes(int width)
{
    QDockWidget* details = m_docks[0];
    m_window->resizeDocks({details}, {width}, Qt::Horizontal);
    const int column = std::max(400, m_window->height() - 120);
    // The run's details scroll; the tests (a table and a failure's details)
    // need the room more. On a laptop screen the run's heading and first
    // fields show above the tests' table and details.
    const int top = m_window->height() < 900 ? column / 4 : column / 3;
    m_window->resizeDocks({details, m_docks[1]}, {top, column - top}, Qt::Vertical);
}

// The docks start compact; the first selected cell opens them to a third of
// the window, unless the user has already sized them.
void SideColumn::growForSelection(bool layoutRestored)
{
    if (m_grown || layoutRestored)
        return;
    m_grown = true;
    QDockWidget* details = m_docks[0];
    if (details->isFloating() || details->width() > kCompactDockWidth + 8)
        return;
    // At least the tests panel's width on a laptop screen (1366 px): its
    // buttons and "Show in log" whole, the matrix keeping 700 px.
    const int width = m_window->width();
    const int share = std::max(static_cast<int>(width * kOpenDockShare), kOpenDockLeast);
    const int wanted =
        std::clamp(share, kCompactDockWidth, std::max(kCompactDockWidth, width - 700));
    m_window->resizeDocks({details}, {wanted}, Qt::Horizontal);
    // The narrower matrix still shows the selected cell: laid out now, so
    // the scroll reads its new width (a queued scroll raced the layout).
    m_window->layout()->activate();
    if (m_view->currentIndex().isValid())
        m_view->scrollTo(m_view->currentIndex());
}

} // namespace relayhud::ui
