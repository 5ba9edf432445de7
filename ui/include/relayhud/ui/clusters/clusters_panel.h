#pragma once
// The Clusters dock: failing tests of the recent SHAs grouped by their
// normalised reason (triage/cluster.h), biggest first, with first-seen SHA,
// backends, jobs and the tag they share; selecting one lists its members,
// and one key (or "Tag cluster…") tags every member at once.
#include "relayhud/ui/triage/triage_controller.h"
#include "relayhud/ui/triage/triage_dialog.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QTreeView;

namespace relayhud::ui {

class ClustersModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        CountColumn,
        TagColumn,
        ReasonColumn,
        FirstSeenColumn,
        BackendsColumn,
        ColumnCount
    };
    using QAbstractTableModel::QAbstractTableModel;

    void setData(std::shared_ptr<const ClustersData> loaded);
    const ClustersData* clusters() const { return m_data.get(); }
    const triage::FailureCluster* cluster(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ClustersData> m_data;
};

class ClustersPanel : public QWidget {
    Q_OBJECT
public:
    explicit ClustersPanel(QWidget* parent = nullptr);

    void setData(std::shared_ptr<const ClustersData> loaded);
    void setMessage(const QString& message);
    ClustersModel& model() const { return *m_model; }
    QTreeView* view() const { return m_view; }
    QString membersText() const;
    // The members of the selected cluster as tag targets.
    std::vector<TriageTarget> selectedTargets() const;

signals:
    // Tag every member of the selected cluster.
    void tagRequested(const std::vector<relayhud::TriageTarget>& targets,
                      const relayhud::ui::TriageEdit& edit);

private:
    void showMembers();
    void tagSelected(triage::FailureClass cls);
    void showTagDialog();

    ClustersModel* m_model;
    QTreeView* m_view;
    QLabel* m_summary;
    QPlainTextEdit* m_members;
};

} // namespace relayhud::ui
