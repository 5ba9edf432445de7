#include "relayhud/ui/clusters/clusters_panel.h"

#include "relayhud/ui/common/elide_words.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/triage_text.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>

namespace relayhud::ui {

namespace {

constexpr std::size_t kMembersShown = 200;

QString joinedNames(const std::vector<std::string>& names)
{
    QStringList list;
    for (const std::string& name : names)
        list << toQString(name);
    return list.join(u'\n');
}

// The reason on one line (the tooltip has it whole); WordElideDelegate
// ends it at a word.
QString reasonText(const QString& example) { return example.simplified().left(300); }

// A cell's text cut at a word to its column's width, never mid-word.
class WordElideDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const int room = option->rect.width() - 8; // the style's text margins
        if (room > 0) {
            option->text = elideAtWord(option->text, option->fontMetrics, room);
            option->textElideMode = Qt::ElideNone;
        }
    }
};

QString tagText(const triage::FailureCluster& cluster)
{
    switch (cluster.tagState) {
    case triage::ClusterTagState::Tagged: return classLabel(cluster.cls);
    case triage::ClusterTagState::Mixed:
        return ClustersModel::tr("mixed (%1 of %2 tagged)").arg(cluster.tagged).arg(cluster.count);
    case triage::ClusterTagState::Untriaged: break;
    }
    return ClustersModel::tr("untriaged");
}

} // namespace

void ClustersModel::setData(std::shared_ptr<const ClustersData> loaded)
{
    beginResetModel();
    m_data = std::move(loaded);
    endResetModel();
}

const triage::FailureCluster* ClustersModel::cluster(int row) const
{
    if (!m_data || row < 0 || static_cast<std::size_t>(row) >= m_data->clusters.size())
        return nullptr;
    return &m_data->clusters[static_cast<std::size_t>(row)];
}

int ClustersModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_data ? 0 : static_cast<int>(m_data->clusters.size());
}

int ClustersModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClustersModel::data(const QModelIndex& index, int role) const
{
    const triage::FailureCluster* c = cluster(index.row());
    if (!c)
        return {};
    if (role == Qt::TextAlignmentRole && index.column() == CountColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case CountColumn: return static_cast<qulonglong>(c->count);
        case TagColumn: return tagText(*c);
        case ReasonColumn: return reasonText(toQString(c->example));
        case FirstSeenColumn: return shortSha(c->firstSeenSha);
        case BackendsColumn:
            return tr("%n backend(s), %1 job(s)", nullptr, static_cast<int>(c->backends.size()))
                .arg(c->jobs.size());
        default: break;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case ReasonColumn:
            return plainToolTip(toQString(c->example) % u"\n\n" % tr("key: ") % toQString(c->key));
        case BackendsColumn:
            return plainToolTip(joinedNames(c->backends) % u"\n\n" % joinedNames(c->jobs));
        case FirstSeenColumn: return plainToolTip(toQString(c->firstSeenSha.value)); // CI text
        default: break;
        }
    }
    return {};
}

QVariant ClustersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CountColumn: return tr("Failures");
    case TagColumn: return tr("Tag");
    case ReasonColumn: return tr("Reason");
    case FirstSeenColumn: return tr("First seen");
    case BackendsColumn: return tr("Where");
    default: break;
    }
    return {};
}

ClustersPanel::ClustersPanel(QWidget* parent)
    : QWidget(parent), m_model(new ClustersModel(this)), m_view(new QTreeView(this)),
      m_summary(new QLabel(this)), m_members(new QPlainTextEdit(this))
{
    m_view->setObjectName(QStringLiteral("clustersView"));
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    // Reasons end at a word, never mid-word (the tooltip has them whole).
    m_view->setItemDelegateForColumn(ClustersModel::ReasonColumn, new WordElideDelegate(m_view));
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ClustersModel::ReasonColumn, QHeaderView::Stretch);
    m_view->header()->resizeSection(ClustersModel::CountColumn, 70);
    m_view->header()->resizeSection(ClustersModel::TagColumn, 150);
    m_view->header()->resizeSection(ClustersModel::FirstSeenColumn, 80);
    m_view->header()->resizeSection(ClustersModel::BackendsColumn, 150);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setForegroundRole(QPalette::PlaceholderText);
    m_members->setReadOnly(true);
    m_members->setLineWrapMode(QPlainTextEdit::NoWrap); // one member a line, scrolls sideways
    m_members->setObjectName(QStringLiteral("clusterMembers"));
    auto* tag = new QPushButton(tr("Tag cluster…"), this);
    connect(tag, &QPushButton::clicked, this, &ClustersPanel::showTagDialog);
    auto* membersBox = new QWidget(this);
    auto* membersLayout = new QVBoxLayout(membersBox);
    membersLayout->setContentsMargins(6, 0, 6, 0);
    membersLayout->addWidget(tag, 0, Qt::AlignLeft);
    membersLayout->addWidget(m_members, 1);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_view);
    splitter->addWidget(membersBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ClustersPanel::showMembers);
    for (triage::FailureClass cls : triageClasses()) {
        const auto classKeyOf = classKey(cls);
        if (!classKeyOf)
            continue;
        auto* key = new QShortcut(QKeySequence(QString(*classKeyOf)), m_view);
        key->setContext(Qt::WidgetShortcut);
        connect(key, &QShortcut::activated, this, [this, cls] { tagSelected(cls); });
    }
    auto* clear = new QShortcut(QKeySequence(QString(kClearTriageKey)), m_view);
    clear->setContext(Qt::WidgetShortcut);
    connect(clear, &QShortcut::activated, this,
            [this] { tagSelected(triage::FailureClass::Untriaged); });
    setMessage(tr("Clusters appear after a sync with test results."));
}

void ClustersPanel::setMessage(const QString& message) { m_summary->setText(message); }

void ClustersPanel::setData(std::shared_ptr<const ClustersData> loaded)
{
    const int previous = m_view->currentIndex().row();
    const std::string previousKey =
        m_model->cluster(previous) ? m_model->cluster(previous)->key : std::string();
    m_model->setData(loaded);
    m_summary->setText(
        tr("%n cluster(s) of %1 failing tests in the recent SHAs", nullptr, m_model->rowCount())
            .arg(loaded ? loaded->failures.size() : 0));
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (!previousKey.empty() && m_model->cluster(row)->key == previousKey)
            m_view->setCurrentIndex(m_model->index(row, 0));
    showMembers();
}

std::vector<TriageTarget> ClustersPanel::selectedTargets() const
{
    std::vector<TriageTarget> targets;
    const triage::FailureCluster* c = m_model->cluster(m_view->currentIndex().row());
    if (!c || !m_model->clusters())
        return targets;
    for (std::size_t member : c->members)
        targets.push_back(m_model->clusters()->failures[member].target());
    return targets;
}

void ClustersPanel::showMembers()
{
    const triage::FailureCluster* c = m_model->cluster(m_view->currentIndex().row());
    if (!c || !m_model->clusters()) {
        m_members->setPlainText(tr("Select a cluster to see its members."));
        return;
    }
    QStringList lines;
    for (std::size_t i = 0; i < c->members.size() && i < kMembersShown; ++i) {
        const FailureRecord& f = m_model->clusters()->failures[c->members[i]];
        lines << shortSha(f.sha) % u"  " % toQString(f.repo) % u" · " % toQString(f.job) % u"  "
                     % toQString(f.test);
    }
    if (c->members.size() > kMembersShown)
        lines << tr("… and %1 more").arg(c->members.size() - kMembersShown);
    m_members->setPlainText(lines.join(u'\n'));
}

QString ClustersPanel::membersText() const { return m_members->toPlainText(); }

void ClustersPanel::tagSelected(triage::FailureClass cls)
{
    std::vector<TriageTarget> targets = selectedTargets();
    if (!targets.empty())
        emit tagRequested(targets, TriageEdit{cls, {}, {}});
}

void ClustersPanel::showTagDialog()
{
    const triage::FailureClass current = [&] {
        const triage::FailureCluster* c = m_model->cluster(m_view->currentIndex().row());
        return c && c->tagState == triage::ClusterTagState::Tagged
                   ? c->cls
                   : triage::FailureClass::Untriaged;
    }();
    std::vector<TriageTarget> targets = selectedTargets();
    if (targets.empty())
        return;
    TriageDialog dialog(tr("a cluster of %n failure(s)", nullptr, static_cast<int>(targets.size())),
                        TriageEdit{current, {}, {}}, this);
    if (dialog.exec() == QDialog::Accepted)
        emit tagRequested(targets, dialog.edit());
}

} // namespace relayhud::ui
