#pragma once
// The jump box's list: the entries the typed text matched, best first.
#include "relayhud/ui/jump/jump_index.h"

#include <QAbstractListModel>

#include <vector>

namespace relayhud::ui {

class JumpModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        KindRole = Qt::UserRole, // int(JumpEntry::Kind)
        KindLabelRole,           // QString: "PR", "Job", ...
        DetailRole,              // QString, shown dimmed
    };

    explicit JumpModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // A new answer to a new query: the list is replaced whole.
    void setEntries(std::vector<JumpEntry> entries);
    const JumpEntry* entry(int row) const;

private:
    std::vector<JumpEntry> m_entries;
};

} // namespace relayhud::ui
