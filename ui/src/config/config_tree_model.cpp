#include "relayhud/ui/config/config_tree_model.h"

#include "relayhud/ui/common/format.h"

#include <QFileInfo>
#include <QFont>

namespace relayhud::ui {

using config::Mode;

struct ConfigTreeModel::Node {
    ConfigNodeRef ref;
    Node* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;

    Node* add(ConfigNodeRef childRef)
    {
        auto child = std::make_unique<Node>();
        child->ref = childRef;
        child->parent = this;
        child->row = static_cast<int>(children.size());
        children.push_back(std::move(child));
        return children.back().get();
    }
};

namespace {

QString listText(const std::vector<std::string>& values, QChar sign)
{
    QStringList parts;
    for (const std::string& value : values)
        parts << (sign % toQString(value));
    return parts.join(u' ');
}

QString editsText(const config::TestEntry& entry)
{
    QStringList parts;
    for (const auto& [label, edits] : {std::pair{QStringLiteral("dtypes"), &entry.dtypes},
                                       {QStringLiteral("ops"), &entry.ops}}) {
        const QString text =
            QString(listText(edits->include, u'+') % u' ' % listText(edits->exclude, u'-'))
                .trimmed();
        if (!text.isEmpty())
            parts << label % u' ' % text;
    }
    return parts.join(QStringLiteral(" · "));
}

} // namespace

ConfigTreeModel::ConfigTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

ConfigTreeModel::~ConfigTreeModel() = default;

std::optional<std::size_t> ConfigTreeModel::documentFor(const QString& path) const
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (std::size_t i = 0; i < m_docs.size(); ++i)
        if (m_docs[i].document->path() == absolute)
            return i;
    return std::nullopt;
}

std::size_t ConfigTreeModel::addDocument(ConfigDocument document)
{
    if (const std::optional<std::size_t> existing = documentFor(document.path())) {
        *m_docs[*existing].document = std::move(document);
        rebuild(*existing);
        return *existing;
    }
    const int row = static_cast<int>(m_docs.size());
    beginInsertRows({}, row, row);
    Doc doc;
    doc.document = std::make_unique<ConfigDocument>(std::move(document));
    doc.root = std::make_unique<Node>();
    doc.root->ref = {ConfigNodeRef::File, m_docs.size()};
    doc.root->row = row;
    m_docs.push_back(std::move(doc));
    endInsertRows();
    rebuild(m_docs.size() - 1);
    return m_docs.size() - 1;
}

Result<void> ConfigTreeModel::setText(std::size_t doc, std::string text)
{
    if (Result<void> set = m_docs[doc].document->setText(std::move(text)); !set)
        return set;
    rebuild(doc);
    return {};
}

Result<void> ConfigTreeModel::resetLoaded(std::size_t doc, config::LoadedConfig loaded)
{
    // After a save the text is the same: keep the rows (and the selection).
    const bool sameText = loaded.text == m_docs[doc].document->text();
    if (Result<void> set = m_docs[doc].document->resetLoaded(std::move(loaded)); !set)
        return set;
    if (!sameText) {
        rebuild(doc);
        return {};
    }
    const QModelIndex row = indexFor(doc);
    emit dataChanged(row, row.siblingAtColumn(ColumnCount - 1));
    return {};
}

// Replaces the document's rows: an edit can move a name to another entry or
// add one, so its rows are rebuilt; the other documents are untouched.
void ConfigTreeModel::rebuild(std::size_t doc)
{
    Node& root = *m_docs[doc].root;
    const QModelIndex parent = indexFor(doc);
    if (!root.children.empty()) {
        beginRemoveRows(parent, 0, static_cast<int>(root.children.size()) - 1);
        root.children.clear();
        endRemoveRows();
    }
    const config::OutcomeConfig& config = m_docs[doc].document->parsed().config;
    Node staging;
    for (std::size_t s = 0; s < config.files.size(); ++s) {
        Node* section =
            config.files.size() == 1 ? &staging : staging.add({ConfigNodeRef::Section, doc, s});
        for (std::size_t e = 0; e < config.files[s].tests.size(); ++e) {
            Node* entry = section->add({ConfigNodeRef::Entry, doc, s, e});
            for (std::size_t n = 0; n < config.files[s].tests[e].names.size(); ++n)
                entry->add({ConfigNodeRef::Name, doc, s, e, n});
        }
    }
    if (!staging.children.empty()) {
        beginInsertRows(parent, 0, static_cast<int>(staging.children.size()) - 1);
        root.children = std::move(staging.children);
        for (auto& child : root.children)
            child->parent = &root;
        endInsertRows();
    }
    const QModelIndex row = indexFor(doc);
    emit dataChanged(row, row.siblingAtColumn(ColumnCount - 1));
}

ConfigTreeModel::Node* ConfigTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : nullptr;
}

std::optional<ConfigNodeRef> ConfigTreeModel::refAt(const QModelIndex& index) const
{
    if (const Node* node = nodeOf(index))
        return node->ref;
    return std::nullopt;
}

QModelIndex ConfigTreeModel::indexFor(std::size_t doc) const
{
    if (doc >= m_docs.size())
        return {};
    return createIndex(static_cast<int>(doc), 0, m_docs[doc].root.get());
}

QModelIndex ConfigTreeModel::indexFor(std::size_t doc, std::size_t section,
                                      std::optional<std::size_t> entry,
                                      std::optional<std::size_t> name) const
{
    if (doc >= m_docs.size())
        return {};
    const Node* node = m_docs[doc].root.get();
    auto child = [&](std::size_t i) -> const Node* {
        return node && i < node->children.size() ? node->children[i].get() : nullptr;
    };
    if (m_docs[doc].document->parsed().config.files.size() > 1)
        node = child(section);
    if (entry)
        node = child(*entry);
    if (entry && name)
        node = child(*name);
    return node ? createIndex(node->row, 0, const_cast<Node*>(node)) : QModelIndex();
}

QModelIndex ConfigTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_docs.size())
                   ? createIndex(row, column, m_docs[static_cast<std::size_t>(row)].root.get())
                   : QModelIndex();
    const Node* node = nodeOf(parent);
    if (!node || row >= static_cast<int>(node->children.size()))
        return {};
    return createIndex(row, column, node->children[static_cast<std::size_t>(row)].get());
}

QModelIndex ConfigTreeModel::parent(const QModelIndex& child) const
{
    const Node* node = nodeOf(child);
    if (!node || !node->parent)
        return {};
    return createIndex(node->parent->row, 0, node->parent);
}

int ConfigTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_docs.size());
    if (parent.column() != 0)
        return 0;
    const Node* node = nodeOf(parent);
    return node ? static_cast<int>(node->children.size()) : 0;
}

int ConfigTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ConfigTreeModel::display(const Node& node, int column) const
{
    const ConfigDocument& doc = *m_docs[node.ref.doc].document;
    const ConfigNodeRef& r = node.ref;
    const config::OutcomeConfig& config = doc.parsed().config;
    if (r.kind == ConfigNodeRef::File)
        return column == NameColumn
                   ? QVariant(QFileInfo(doc.path()).fileName()
                              + (doc.modified() ? QStringLiteral(" •") : QString()))
                   : QVariant();
    const config::FileSection& section = config.files[r.section];
    if (r.kind == ConfigNodeRef::Section) {
        if (column == NameColumn)
            return toQString(section.path);
        if (column == ModeColumn)
            return tr("unlisted: %1").arg(QLatin1String(modeName(section.effectiveUnlistedMode())));
        return {};
    }
    const config::TestEntry& entry = section.tests[r.entry];
    if (r.kind == ConfigNodeRef::Entry) {
        switch (column) {
        case NameColumn:
            return entry.names.size() == 1 ? tr("entry, 1 name (line %1)").arg(entry.pos.line)
                                           : tr("entry, %1 names (line %2)")
                                                 .arg(entry.names.size())
                                                 .arg(entry.pos.line);
        case ModeColumn: return QLatin1String(modeName(entry.effectiveMode()));
        case EditsColumn: return editsText(entry);
        case RationaleColumn: return doc.entryComment(r.section, r.entry);
        default: return {};
        }
    }
    switch (column) {
    case NameColumn: return toQString(entry.names[r.name].name);
    case ModeColumn: return QLatin1String(modeName(entry.effectiveMode()));
    case RationaleColumn: return doc.nameComment(r.section, r.entry, r.name);
    default: return {};
    }
}

QVariant ConfigTreeModel::data(const QModelIndex& index, int role) const
{
    const Node* node = nodeOf(index);
    if (!node)
        return {};
    const ConfigNodeRef& r = node->ref;
    const ConfigDocument& doc = *m_docs[r.doc].document;
    const config::OutcomeConfig& config = doc.parsed().config;
    switch (role) {
    case Qt::DisplayRole: return display(*node, index.column());
    case Qt::ToolTipRole:
        if (r.kind == ConfigNodeRef::File)
            return doc.path();
        if (index.column() == RationaleColumn || index.column() == NameColumn)
            return plainToolTip(display(*node, index.column()).toString());
        return {};
    case Qt::FontRole:
        if (r.kind == ConfigNodeRef::File || r.kind == ConfigNodeRef::Section) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case KindRole: return static_cast<int>(r.kind);
    case ModeRole:
        if (r.kind == ConfigNodeRef::Section)
            return static_cast<int>(config.files[r.section].effectiveUnlistedMode());
        if (r.kind == ConfigNodeRef::Entry || r.kind == ConfigNodeRef::Name)
            return static_cast<int>(config.files[r.section].tests[r.entry].effectiveMode());
        return {};
    case LineRole:
        switch (r.kind) {
        case ConfigNodeRef::File: return 0;
        case ConfigNodeRef::Section: return static_cast<int>(config.files[r.section].pos.line);
        case ConfigNodeRef::Entry:
            return static_cast<int>(config.files[r.section].tests[r.entry].pos.line);
        case ConfigNodeRef::Name:
            return static_cast<int>(config.files[r.section].tests[r.entry].names[r.name].pos.line);
        }
        return {};
    case PatternRole:
        return r.kind == ConfigNodeRef::Name
               && config.files[r.section].tests[r.entry].names[r.name].regex;
    case SearchTextRole:
        return QString(display(*node, NameColumn).toString() % u'\n'
                       % display(*node, EditsColumn).toString() % u'\n'
                       % display(*node, RationaleColumn).toString());
    default: return {};
    }
}

QVariant ConfigTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case ModeColumn: return tr("Mode");
    case EditsColumn: return tr("Edits");
    case RationaleColumn: return tr("Rationale");
    default: return {};
    }
}

} // namespace relayhud::ui

namespace relayhud::ui {

ConfigFilterProxy::ConfigFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
}

void ConfigFilterProxy::setText(const QString& text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

void ConfigFilterProxy::setMode(std::optional<config::Mode> mode)
{
    m_mode = mode;
    invalidateFilter();
}

bool ConfigFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_text.isEmpty() && !m_mode)
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const int kind = index.data(ConfigTreeModel::KindRole).toInt();
    if (kind != ConfigNodeRef::Name && kind != ConfigNodeRef::Entry)
        return false; // shown when something under it matches
    if (m_mode && index.data(ConfigTreeModel::ModeRole).toInt() != static_cast<int>(*m_mode))
        return false;
    if (kind == ConfigNodeRef::Entry && m_text.isEmpty())
        return false; // a mode filter lists names
    return m_text.isEmpty()
           || index.data(ConfigTreeModel::SearchTextRole)
                  .toString()
                  .contains(m_text, Qt::CaseInsensitive);
}

} // namespace relayhud::ui
