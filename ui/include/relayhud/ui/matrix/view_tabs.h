#pragma once
// The view tabs above the matrix: one per CommitView, in its order (all
// commits, pull requests, nightly and periodic, release branches), each with
// how many rows it has; then whatever views take the matrix's place (the
// backends overview, the doctor), added by their owners. Choosing a commit
// view filters the matrix; a filter change (View › Reset filters, a link)
// shows its view's tab.
#include <QStringList>
#include <QTabBar>

namespace relayhud::ui {

class MatrixFilterProxy;
class MatrixModel;

class ViewTabs : public QTabBar {
    Q_OBJECT
public:
    ViewTabs(const MatrixModel& model, MatrixFilterProxy& proxy, QWidget* parent = nullptr);

    // Every tab by name ("commits", "prs", "nightly", "release", "backends",
    // "doctor"): what --view and the saved window state name.
    static QStringList names();
    // The tab of this name; false when there is none.
    bool showView(const QString& name);
    QString currentName() const { return names().value(currentIndex()); }

signals:
    // A commit view is chosen, or the filters changed: the matrix is the
    // view to show.
    void matrixChosen();

private:
    void updateCounts();

    const MatrixModel& m_model;
    MatrixFilterProxy& m_proxy;
};

} // namespace relayhud::ui
