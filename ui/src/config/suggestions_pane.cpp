#include "relayhud/ui/config/suggestions_pane.h"

#include "relayhud/ui/format.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

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
    m_list->setRootIsDecorated(false);
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
    m_applyAll->setToolTip(tr("Apply every suggestion (asks for a reason)"));
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
    connect(m_applyAll, &QPushButton::clicked, this, [this] { emit applyRequested(all()); });
    connect(m_runs, &QSpinBox::editingFinished, this, [this] { emit runsChanged(runs()); });
}

void SuggestionsPane::setRows(const std::vector<SuggestionRow>& rows, const QStringList& warnings)
{
    m_list->clear();
    QList<QTreeWidgetItem*> items;
    for (const SuggestionRow& row : rows) {
        auto* item = new QTreeWidgetItem({row.move, row.test, row.evidence, row.file});
        item->setData(0, kDocRole, static_cast<qulonglong>(row.doc));
        item->setData(0, kIndexRole, static_cast<qulonglong>(row.index));
        item->setToolTip(EvidenceColumn, plainToolTip(row.evidence));
        item->setToolTip(TestColumn, plainToolTip(row.test));
        items << item;
    }
    for (const QString& warning : warnings) {
        auto* item = new QTreeWidgetItem({tr("warning"), QString(), warning, QString()});
        item->setFlags(Qt::ItemIsEnabled); // not selectable: nothing to apply
        item->setToolTip(EvidenceColumn, plainToolTip(warning));
        items << item;
    }
    m_list->addTopLevelItems(items);
    m_list->resizeColumnToContents(MoveColumn);
    m_list->resizeColumnToContents(TestColumn);
    m_list->setColumnWidth(TestColumn, std::min(m_list->columnWidth(TestColumn) + 12, 360));
    m_applyAll->setEnabled(!rows.empty());
    m_apply->setEnabled(false);
}

void SuggestionsPane::setStatus(const QString& text) { m_status->setText(text); }

int SuggestionsPane::runs() const { return m_runs->value(); }

int SuggestionsPane::rowCount() const { return m_list->topLevelItemCount(); }

std::vector<SuggestionRef> SuggestionsPane::selected() const
{
    std::vector<SuggestionRef> refs;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = m_list->topLevelItem(i);
        if (item->isSelected() && item->data(0, kDocRole).isValid())
            refs.push_back(
                {item->data(0, kDocRole).toULongLong(), item->data(0, kIndexRole).toULongLong()});
    }
    return refs;
}

std::vector<SuggestionRef> SuggestionsPane::all() const
{
    std::vector<SuggestionRef> refs;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = m_list->topLevelItem(i);
        if (item->data(0, kDocRole).isValid())
            refs.push_back(
                {item->data(0, kDocRole).toULongLong(), item->data(0, kIndexRole).toULongLong()});
    }
    return refs;
}

} // namespace relayhud::ui
