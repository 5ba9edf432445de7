#include "relayhud/ui/matrix/filter_bar.h"

#include "relayhud/model/types.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_key.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QSignalBlocker>

#include <set>

namespace relayhud::ui {

FilterBar::FilterBar(MatrixFilterProxy& proxy, QWidget* parent)
    : QWidget(parent), m_proxy(proxy), m_backendButton(new QPushButton(this)),
      m_backendMenu(new QMenu(this)), m_branch(new QComboBox(this)), m_event(new QComboBox(this)),
      m_text(new QLineEdit(this)), m_cells(new QComboBox(this)), m_counts(new QLabel(this))
{
    buildLayout();
    connect(m_branch, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy.setBranch(m_branch->currentData().toString()); });
    connect(m_event, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy.setEventType(m_event->currentData().toInt()); });
    connect(m_text, &QLineEdit::textChanged, &m_proxy, &MatrixFilterProxy::setText);
    connect(m_cells, &QComboBox::currentIndexChanged, this, &FilterBar::applyCellChoice);
    connect(&m_proxy, &MatrixFilterProxy::filtersChanged, this, &FilterBar::syncFromProxy);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved,
                        &QAbstractItemModel::columnsInserted, &QAbstractItemModel::columnsRemoved})
        connect(&m_proxy, signal, this, &FilterBar::updateCounts);
    connect(&m_proxy, &QAbstractItemModel::modelReset, this, &FilterBar::updateCounts);
    connect(&m_proxy, &QAbstractItemModel::layoutChanged, this, &FilterBar::updateCounts);
    updateCounts();
}

void FilterBar::buildLayout()
{
    m_backendButton->setText(tr("All backends"));
    m_backendButton->setMenu(m_backendMenu);
    m_backendMenu->installEventFilter(this);
    m_backendButton->setToolTip(tr("Show only the jobs of these backends"));
    m_branch->addItem(tr("All branches"), QString());
    m_branch->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_branch->setMinimumContentsLength(10);
    m_event->addItem(tr("All events"), -1);
    for (EventType type :
         {EventType::PullRequest, EventType::Push, EventType::Nightly, EventType::Periodic})
        m_event->addItem(toQString(toString(type)), static_cast<int>(type));
    m_text->setPlaceholderText(tr("Filter: SHA, #PR or job text"));
    m_text->setClearButtonEnabled(true);
    m_text->setMinimumWidth(110); // the side column needs the width on a 1366 px screen
    // Indexes 0-3, as applyCellChoice() and syncFromProxy() read them.
    m_cells->setObjectName(QStringLiteral("cellFilter"));
    m_cells->addItem(tr("All cells"));
    m_cells->addItem(tr("Hide green"));
    m_cells->addItem(tr("Failures only"));
    m_cells->addItem(tr("Untriaged only"));
    m_cells->setItemData(1, tr("Hide the commits and jobs with nothing but green (or no run)"),
                         Qt::ToolTipRole);
    m_cells->setItemData(2,
                         tr("Only the commits and jobs with a failed, timed-out or cancelled run, "
                            "or failing tests under a green"),
                         Qt::ToolTipRole);
    m_cells->setItemData(3, tr("Only the commits and jobs with a failure nobody has classed yet"),
                         Qt::ToolTipRole);
    m_cells->setToolTip(tr("Which cells the matrix is about: rows and columns without one are "
                           "hidden"));
    m_cells->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_counts->setForegroundRole(QPalette::PlaceholderText);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(8);
    layout->addWidget(m_backendButton);
    layout->addWidget(m_branch);
    layout->addWidget(m_event);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_cells);
    layout->addWidget(m_counts);
    layout->addWidget(new MatrixKeyButton(this));
}

void FilterBar::refreshChoices()
{
    refreshBackendMenu();
    refreshBranchCombo();
    updateCounts();
}

void FilterBar::refreshBackendMenu()
{
    const QAbstractItemModel* source = m_proxy.sourceModel();
    std::set<QString> backends;
    for (int column = 0; source && column < source->columnCount(); ++column)
        backends.insert(
            source->headerData(column, Qt::Horizontal, MatrixModel::BackendRole).toString());
    const QSet<QString> chosen = m_proxy.filters().backends;
    m_backendMenu->clear();
    m_backendMenu->addAction(tr("Show all backends"), this, [this] { m_proxy.setBackends({}); });
    m_backendMenu->addSeparator();
    for (const QString& backend : backends) {
        QAction* action = m_backendMenu->addAction(backend);
        action->setData(backend);
        action->setCheckable(true);
        action->setChecked(chosen.contains(backend));
        connect(action, &QAction::toggled, this, &FilterBar::applyBackendSelection);
    }
}

bool FilterBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_backendMenu && event->type() == QEvent::MouseButtonRelease) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        QAction* action = m_backendMenu->actionAt(mouse->position().toPoint());
        if (action && action->isCheckable()) {
            action->trigger();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void FilterBar::refreshBranchCombo()
{
    const QAbstractItemModel* source = m_proxy.sourceModel();
    std::set<QString> branches;
    for (int row = 0; source && row < source->rowCount(); ++row) {
        const QString branch =
            source->headerData(row, Qt::Vertical, MatrixModel::BranchRole).toString();
        if (!branch.isEmpty())
            branches.insert(branch);
    }
    const QSignalBlocker blocker(m_branch);
    const QString chosen = m_proxy.filters().branch;
    while (m_branch->count() > 1)
        m_branch->removeItem(1);
    for (const QString& branch : branches)
        m_branch->addItem(branch, branch);
    if (!chosen.isEmpty() && m_branch->findData(chosen) < 0)
        m_branch->addItem(chosen, chosen);
    m_branch->setCurrentIndex(std::max(0, m_branch->findData(chosen)));
}

void FilterBar::applyBackendSelection()
{
    QSet<QString> chosen;
    for (const QAction* action : m_backendMenu->actions())
        if (action->isCheckable() && action->isChecked())
            chosen.insert(action->data().toString());
    m_proxy.setBackends(chosen);
}

void FilterBar::applyCellChoice()
{
    switch (m_cells->currentIndex()) {
    case 1: return m_proxy.setHideAllGreen(true);
    case 2: return m_proxy.setCellFilter(CellFilter::Failures);
    case 3: return m_proxy.setCellFilter(CellFilter::Untriaged);
    default: break;
    }
    MatrixFilters next = m_proxy.filters();
    next.hideAllGreen = false;
    next.cells = CellFilter::Any;
    m_proxy.setFilters(next);
}

void FilterBar::syncFromProxy()
{
    const MatrixFilters& f = m_proxy.filters();
    {
        const QSignalBlocker b1(m_branch), b2(m_event), b3(m_text), b4(m_cells);
        m_branch->setCurrentIndex(std::max(0, m_branch->findData(f.branch)));
        m_event->setCurrentIndex(std::max(0, m_event->findData(f.eventType)));
        if (m_text->text() != f.text)
            m_text->setText(f.text);
        m_cells->setCurrentIndex(f.cells == CellFilter::Failures    ? 2
                                 : f.cells == CellFilter::Untriaged ? 3
                                 : f.hideAllGreen                   ? 1
                                                                    : 0);
    }
    for (QAction* action : m_backendMenu->actions()) {
        if (!action->isCheckable())
            continue;
        const QSignalBlocker blocker(action);
        action->setChecked(f.backends.contains(action->data().toString()));
    }
    m_backendButton->setText(f.backends.isEmpty() ? tr("All backends")
                             : f.backends.size() == 1
                                 ? *f.backends.begin()
                                 : tr("%n backends", nullptr, static_cast<int>(f.backends.size())));
    updateCounts();
}

void FilterBar::updateCounts()
{
    const QAbstractItemModel* source = m_proxy.sourceModel();
    if (!source)
        return;
    // "of N" only when the filters hide some: the bar stays narrow.
    const auto count = [](int shown, int all) {
        return shown == all ? QString::number(all) : tr("%1 of %2").arg(shown).arg(all);
    };
    m_counts->setText(tr("%1 commits · %2 jobs")
                          .arg(count(m_proxy.rowCount(), source->rowCount()),
                               count(m_proxy.columnCount(), source->columnCount())));
}

} // namespace relayhud::ui
