#pragma once
// Tools > Upgrade Review (issue 39): what moving a PyTorch checkout from one
// revision to another changes under a backend's configs, as a list to work
// through. The review itself is core's (upgrade/upgrade_review.h), run on a
// worker thread; the window shows its counts and one row per method change,
// stale entry and OpInfo entry, filtered by kind and by words.
#include "relayhud/util/ticket.h"

#ifndef Q_MOC_RUN
#include "relayhud/upgrade/upgrade_review.h"
#endif

#include <QAbstractTableModel>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QStringList>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace relayhud::ui {

// The review's rows: every change, stale entry and OpInfo entry.
class UpgradeReviewModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KindColumn, FileColumn, ClassColumn, MethodColumn, DetailColumn, OutcomeColumn };
    static constexpr int kColumns = 6;

    using QAbstractTableModel::QAbstractTableModel;
    void setReview(const upgrade::UpgradeReview& review);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        QString kind, file, className, method, detail, outcome;
        bool fallsToDefault = false;
    };
    std::vector<Row> m_rows;
};

class UpgradeReviewWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit UpgradeReviewWindow(QWidget* parent = nullptr);
    ~UpgradeReviewWindow() override;

    void setInputs(const QString& pytorch, const QString& from, const QString& to,
                   const QStringList& configs);
    // Reads the configs and runs the review off the GUI thread; reviewed() says when.
    void startReview();
    // "" for every kind; else "added", ..., "stale", "opinfo".
    void setKindFilter(const QString& kind);

    const UpgradeReviewModel& model() const { return *m_model; }
    const QSortFilterProxyModel& shown() const { return *m_proxy; }
    QString summaryText() const;
    bool isReviewing() const { return m_reviewing; }

signals:
    void reviewed(bool ok);

private:
    struct Outcome;
    void buildForm();
    void finish(Ticket ticket, const std::shared_ptr<Outcome>& outcome);
    void browseCheckout();
    void addConfigs();

    QLineEdit* m_pytorch;
    QLineEdit* m_from;
    QLineEdit* m_to;
    QLineEdit* m_configs; // paths joined by ";"
    QPushButton* m_run;
    QLabel* m_summary;
    QComboBox* m_kind;
    QLineEdit* m_filter;
    QTableView* m_view;
    UpgradeReviewModel* m_model;
    QSortFilterProxyModel* m_proxy;
    Tickets m_tickets;
    bool m_reviewing = false;
};

} // namespace relayhud::ui
