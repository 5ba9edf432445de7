#include "relayhud/ui/jump/jump_model.h"

namespace relayhud::ui {

JumpModel::JumpModel(QObject* parent) : QAbstractListModel(parent) {}

int JumpModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

QVariant JumpModel::data(const QModelIndex& index, int role) const
{
    const JumpEntry* e = entry(index.row());
    if (!e || index.parent().isValid())
        return {};
    switch (role) {
    case Qt::DisplayRole: return e->text;
    case Qt::ToolTipRole:
        return e->detail.isEmpty() ? e->text : QString(e->text % u'\n' % e->detail);
    case KindRole: return static_cast<int>(e->kind);
    case KindLabelRole: return kindLabel(e->kind);
    case DetailRole: return e->detail;
    default: return {};
    }
}

void JumpModel::setEntries(std::vector<JumpEntry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

const JumpEntry* JumpModel::entry(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_entries.size())
        return nullptr;
    return &m_entries[static_cast<std::size_t>(row)];
}

} // namespace relayhud::ui
