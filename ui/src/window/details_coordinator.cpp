#include "relayhud/ui/window/details_coordinator.h"

#include "relayhud/ui/details/link_label.h"
#include "relayhud/ui/details/run_details.h"
#include "relayhud/ui/details/run_details_loader.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/settings/app_settings.h"

#include <QDockWidget>
#include <QMainWindow>

namespace relayhud::ui {

DetailsCoordinator::DetailsCoordinator(QMainWindow* window, const MatrixFilterProxy* proxy,
                                       const AppSettings* settings)
    : QObject(window), m_proxy(proxy),
      m_model(qobject_cast<const MatrixModel*>(proxy->sourceModel())), m_settings(settings),
      m_panel(new RunDetailsPanel(window)), m_dock(new QDockWidget(tr("Run details"), window)),
      m_loader(new RunDetailsLoader(this))
{
    m_dock->setObjectName(QStringLiteral("runDetailsDock"));
    m_dock->setWidget(m_panel);
    m_dock->setMinimumWidth(300);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    connect(m_panel, &RunDetailsPanel::linkActivated, this, &openWebUrl);
    connect(m_loader, &RunDetailsLoader::loaded, this, &DetailsCoordinator::onLoaded);
    connect(m_loader, &RunDetailsLoader::failed, this,
            [this](CheckRunRow run, const QString& message) {
                if (run == m_run)
                    m_panel->showMessage(tr("Cannot read this run: %1").arg(message));
            });
}

void DetailsCoordinator::setCachePath(const QString& path)
{
    m_loader->setCachePath(path.toStdString());
}

void DetailsCoordinator::follow(const QModelIndex& current)
{
    if (!current.isValid())
        return showMessage(tr("Select a cell to see its run."));
    const CheckRunRow run{current.data(MatrixModel::RunRowIdRole).toLongLong()};
    if (!run)
        return showMessage(tr("No run of %1 for %2.")
                               .arg(current.data(MatrixModel::JobRole).toString(),
                                    current.data(MatrixModel::ShortShaRole).toString()));
    showRun(run, m_proxy->mapToSource(current));
}

void DetailsCoordinator::showRun(CheckRunRow run, const QModelIndex& sourceIndex)
{
    m_run = run;
    // Taken now: by the time the read is back, a sync may have moved the cell.
    m_context = {};
    // A PR row's cell may hold a run of an earlier head: that head is its commit.
    if (const UpstreamCommit* commit =
            m_model->runCommitAt(sourceIndex.row(), sourceIndex.column()))
        m_context.commit = *commit;
    if (const MatrixColumn* column = m_model->columnAt(sourceIndex.column())) {
        m_context.level = column->level;
        m_context.backend = column->backend;
    }
    m_loader->load(run);
}

void DetailsCoordinator::showMessage(const QString& text)
{
    m_run = {};
    m_panel->showMessage(text);
}

std::string DetailsCoordinator::shownBackend() const
{
    return m_run ? m_context.backend : std::string();
}

void DetailsCoordinator::raise()
{
    m_dock->show();
    m_dock->raise();
}

void DetailsCoordinator::onLoaded(const RunDetails& loaded)
{
    if (loaded.rowId != m_run)
        return; // the user moved on
    RunDetails details = loaded;
    if (m_context.commit)
        details.commit = m_context.commit;
    if (details.level == Level::Unknown)
        details.level = m_context.level;
    m_panel->showDetails(details, runLinks(details, m_settings->hudUrl));
    emit runDetailsShown(details.rowId.value);
}

} // namespace relayhud::ui
