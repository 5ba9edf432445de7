#include "relayhud/ui/config/suggestions_pane.h"

#include "relayhud/ui/common/format.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <utility>

namespace relayhud::ui {

namespace {

enum Column { MoveColumn, TestColumn, EvidenceColumn, FileColumn, ColumnCount };
constexpr int kDocRole = Qt::UserRole;
constexpr int kIndexRole = Qt::UserRole + 1;

} // namespace

SuggestionsPane::SuggestionsPane(QWidget* parent)
    : QWidget(parent), m_list(new QTreeWidget(this)), m_status(new QLabel(this)),
      m_runs(new QSpinBox(this)), m_apply(new QPushButton(tr("Apply"), this)),
      m_applyAll(new QPushButton(tr("Apply all"), this))
{
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({tr("Move"), tr("Test"), tr("Evidence"), tr("File")});
    m_list->setRootIsDecorated(true);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setUniformRowHeights(true);
    m_list->header()->setSectionResizeMode(TestColumn, QHeaderView::Interactive);
    m_list->header()->setStretchLastSection(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_runs->setRange(1, 200);
    m_runs->setValue(10);
    m_runs->setToolTip(
        tr("A job needs this many runs with results, all agreeing, to suggest a move"));
    m_apply->setToolTip(tr("Apply the selected suggestions (asks for a reason)"));
    m_applyAll->setToolTip(
        tr("Apply every suggestion (asks for a reason, then shows the count and the diff)"));
    m_apply->setEnabled(false);
    m_applyAll->setEnabled(false);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Last runs per job:"), this));
    bar->addWidget(m_runs);
    bar->addStretch(1);
    bar->addWidget(m_apply);
    bar->addWidget(m_applyAll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_list, 1);

    connect(m_list, &QTreeWidget::itemSelectionChanged, this,
            [this] { m_apply->setEnabled(!selected().empty()); });
    connect(m_list, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (item->data(0, kDocRole).isValid())
            emit testActivated(item->text(TestColumn));
    });
    connect(m_apply, &QPushButton::clicked, this, [this] { emit applyRequested(selected()); });
    connect(m_applyAll, &QPushButton::clicked, this, [this] { emit applyAllRequested(all()); });
    connect(m_runs, &QSpinBox::editingFinished, this, [this] { emit runsChanged(runs()); });
}

namespace {

QTreeWidgetItem* moveItem(const SuggestionRow& row)
{
    auto* item = new QTreeWidgetItem({row.move, row.test, row.evidence, row.file});
    item->setData(0, kDocRole, static_cast<qulonglong>(row.doc));
    item->setData(0, kIndexRole, static_cast<qulonglong>(row.index));
    item->setToolTip(EvidenceColumn, plainToolTip(row.evidence));
    item->setToolTip(TestColumn, plainToolTip(row.test));
    return item;
}

// "3 promotions", "1 demotion", "4 moves" (both kinds).
QString countText(const QTreeWidgetItem& heading)
{
    int promote = 0;
    int demote = 0;
    for (int i = 0; i < heading.childCount(); ++i)
        (heading.child(i)->text(MoveColumn) == SuggestionsPane::tr("promote") ? promote : demote)++;
    if (demote == 0)
        return promote == 1 ? SuggestionsPane::tr("1 promotion")
                            : SuggestionsPane::tr("%1 promotions").arg(promote);
    if (promote == 0)
        return demote == 1 ? SuggestionsPane::tr("1 demotion")
                           : SuggestionsPane::tr("%1 demotions").arg(demote);
    return SuggestionsPane::tr("%1 moves").arg(promote + demote);
}

} // namespace

void SuggestionsPane::setRows(const std::vector<SuggestionRow>& rows, const QStringList& warnings)
{
    m_list->clear();
    QList<QTreeWidgetItem*> items;
    QTreeWidgetItem* heading = nullptr;
    for (const SuggestionRow& row : rows) {
        if (!heading || heading->text(TestColumn) != row.group
            || heading->text(FileColumn) != row.file) {
            heading = new QTreeWidgetItem({QString(), row.group, QString(), row.file});
            QFont bold = heading->font(TestColumn);
            bold.setBold(true);
            heading->setFont(TestColumn, bold);
            heading->setToolTip(TestColumn, plainToolTip(row.group));
            items << heading;
        }
        heading->addChild(moveItem(row));
    }
    for (QTreeWidgetItem* item : std::as_const(items))
        item->setText(MoveColumn, countText(*item));
    for (const QString& warning : warnings) {
        auto* item = new QTreeWidgetItem({tr("warning"), QString(), warning, QString()});
        item->setFlags(Qt::ItemIsEnabled); // not selectable: nothing to apply
        item->setToolTip(EvidenceColumn, plainToolTip(warning));
        items << item;
    }
    m_list->addTopLevelItems(items);
    m_list->expandAll();
    m_list->resizeColumnToContents(MoveColumn);
    m_list->resizeColumnToContents(TestColumn);
    m_list->setColumnWidth(TestColumn, std::min(m_list->columnWidth(TestColumn) + 12, 360));
    m_applyAll->setEnabled(!rows.empty());
    m_applyAll->setText(rows.empty() ? tr("Apply all") : tr("Apply all (%1)…").arg(rows.size()));
    m_apply->setEnabled(false);
}

void SuggestionsPane::setStatus(const QString& text) { m_status->setText(text); }

int SuggestionsPane::runs() const { return m_runs->value(); }

int SuggestionsPane::rowCount() const { return static_cast<int>(all().size()); }

int SuggestionsPane::groupCount() const
{
    int groups = 0;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        groups += m_list->topLevelItem(i)->childCount() > 0 ? 1 : 0;
    return groups;
}

namespace {

SuggestionRef refOf(const QTreeWidgetItem& item)
{
    return {item.data(0, kDocRole).toULongLong(), item.data(0, kIndexRole).toULongLong()};
}

} // namespace

// The selected moves, and every move under a selected heading, once each.
std::vector<SuggestionRef> SuggestionsPane::selected() const
{
    std::vector<SuggestionRef> refs;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* heading = m_list->topLevelItem(i);
        for (int c = 0; c < heading->childCount(); ++c)
            if (heading->isSelected() || heading->child(c)->isSelected())
                refs.push_back(refOf(*heading->child(c)));
    }
    return refs;
}

std::vector<SuggestionRef> SuggestionsPane::all() const
{
    std::vector<SuggestionRef> refs;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* heading = m_list->topLevelItem(i);
        for (int c = 0; c < heading->childCount(); ++c)
            refs.push_back(refOf(*heading->child(c)));
    }
    return refs;
}

} // namespace relayhud::ui
