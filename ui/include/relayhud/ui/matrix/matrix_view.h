#pragma once
// The matrix table: commit header on the left, two-tier job header on top,
// compact state tiles, arrow-key navigation and Enter to open a cell.
#include <QTableView>

namespace relayhud::ui {

class CommitHeaderView;
class JobHeaderView;

class MatrixView : public QTableView {
    Q_OBJECT
public:
    explicit MatrixView(QWidget* parent = nullptr);
    // Also re-measures the job header when its labels change.
    void setModel(QAbstractItemModel* model) override;

    // Shown in place of the matrix while it has no cells.
    void setEmptyText(const QString& text);
    QString emptyText() const { return m_emptyText; }

    CommitHeaderView* commitHeader() const { return m_commitHeader; }
    JobHeaderView* jobHeader() const { return m_jobHeader; }

signals:
    // Enter/Return or a double click on a cell.
    void cellActivated(const QModelIndex& index);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void currentChanged(const QModelIndex& current, const QModelIndex& previous) override;
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void updateGeometries() override;

private:
    // Widens the columns of a backend whose band is too narrow for its
    // badge and distinguishing name (JobHeaderView::bandMinimumWidth).
    void fitBandColumns();
    void paintGroupSeparators();
    void paintEmptyText();

    CommitHeaderView* m_commitHeader;
    JobHeaderView* m_jobHeader;
    QWidget* m_corner = nullptr;
    QString m_emptyText;
};

} // namespace relayhud::ui
