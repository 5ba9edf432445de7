#include "relayhud/ui/matrix/view_tabs.h"

#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QSignalBlocker>

namespace relayhud::ui {

ViewTabs::ViewTabs(const MatrixModel& model, MatrixFilterProxy& proxy, QWidget* parent)
    : QTabBar(parent), m_model(model), m_proxy(proxy)
{
    setObjectName(QStringLiteral("commitViews"));
    setDrawBase(false);
    setExpanding(false);
    addTab(tr("All commits"));
    addTab(tr("Pull requests"));
    addTab(tr("Nightly && periodic"));
    addTab(tr("Release branches"));
    setTabToolTip(0, tr("Every upstream commit the backends ran on"));
    setTabToolTip(1, tr("One row per upstream pull request: its newest head, and each job's "
                        "latest run across its heads, as the PyTorch HUD's per-backend page "
                        "shows it, across backends. Click a PR's heads to see the earlier ones."));
    setTabToolTip(2, tr("Scheduled downstream runs (nightly, periodic): one row per upstream SHA "
                        "they tested"));
    setTabToolTip(3, tr("Commits aimed at release/* branches, where the data says which branch a "
                        "commit targets (the PyTorch HUD has no release view)"));
    connect(this, &QTabBar::currentChanged, this, [this](int index) {
        if (index > static_cast<int>(CommitView::Release))
            return; // a view in the matrix's place: its owner shows it
        emit matrixChosen();
        m_proxy.setCommitView(static_cast<CommitView>(index));
    });
    connect(&m_proxy, &MatrixFilterProxy::filtersChanged, this, [this] {
        {
            const QSignalBlocker blocker(this); // the proxy has the view already
            setCurrentIndex(static_cast<int>(m_proxy.filters().view));
        }
        emit matrixChosen();
    });
    connect(&m_model, &MatrixModel::merged, this, &ViewTabs::updateCounts);
}

QStringList ViewTabs::names()
{
    // CommitView's order, then the views in the matrix's place.
    return {QStringLiteral("commits"), QStringLiteral("prs"),      QStringLiteral("nightly"),
            QStringLiteral("release"), QStringLiteral("backends"), QStringLiteral("doctor")};
}

bool ViewTabs::showView(const QString& name)
{
    const int tab = static_cast<int>(names().indexOf(name));
    if (tab < 0 || tab >= count())
        return false;
    setCurrentIndex(tab);
    return true;
}

void ViewTabs::updateCounts()
{
    const MatrixSnapshot& commits = m_model.commits();
    setTabText(static_cast<int>(CommitView::PullRequests),
               tr("Pull requests (%1)").arg(rowsInView(commits, CommitView::PullRequests)));
    setTabText(static_cast<int>(CommitView::Scheduled),
               tr("Nightly && periodic (%1)").arg(rowsInView(commits, CommitView::Scheduled)));
    setTabText(static_cast<int>(CommitView::Release),
               tr("Release branches (%1)").arg(rowsInView(commits, CommitView::Release)));
}

} // namespace relayhud::ui
