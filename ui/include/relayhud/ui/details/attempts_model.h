#pragma once
// Every attempt of the selected run (reruns get a new run_attempt).
#include "relayhud/model/types.h"

#include <QAbstractTableModel>

#include <vector>

namespace relayhud::ui {

class AttemptsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        AttemptColumn,
        ResultColumn,
        StartedColumn,
        DurationColumn,
        TestsColumn,
        ColumnCount
    };
    enum Role {
        RunUrlRole = Qt::UserRole, // QString
        CellStateRole,             // int(CellState), Result column only
    };

    explicit AttemptsModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // A different run replaces the whole list (a new subject, not a refresh).
    void setAttempts(std::vector<CheckRun> attempts);
    const std::vector<CheckRun>& attempts() const { return m_attempts; }

private:
    QVariant displayData(const CheckRun& run, int column) const;

    std::vector<CheckRun> m_attempts;
};

} // namespace relayhud::ui
