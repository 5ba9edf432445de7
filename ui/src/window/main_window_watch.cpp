// MainWindow: watch and notify (issue 17). Followed backends, jobs and PRs;
// after each sync, one notification for what is new on them; the matrix
// marks changed cells until visited; a tray icon counts them.
#include "relayhud/ui/main_window.h"

#include "relayhud/hud/hud_summaries.h"
#include "relayhud/store/database.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/ui/format.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/watch/attributed_failures.h"
#include "relayhud/ui/watch/notifier.h"
#include "relayhud/ui/watch/watch_controller.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QSystemTrayIcon>
#include <QtConcurrent>

#include <algorithm>

namespace relayhud::ui {

namespace {

QSet<QString> toSet(const QStringList& list) { return QSet<QString>(list.begin(), list.end()); }

QStringList sorted(const QSet<QString>& set)
{
    QStringList list(set.begin(), set.end());
    list.sort();
    return list;
}

} // namespace

void MainWindow::buildWatch()
{
    m_watch = new WatchController(this);
    WatchList list;
    list.followed = toSet(m_config.settings.followed);
    list.muted = toSet(m_config.settings.muted);
    list.quietFrom = m_config.settings.quietFrom;
    list.quietTo = m_config.settings.quietTo;
    m_watch->setList(list);
    m_model->setFollowed(list.followed);
    // Sessions that keep no state (tests, screenshots) show no tray icon.
    if (m_config.persistWindow && QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(windowIcon(), this);
        connect(m_tray, &QSystemTrayIcon::activated, this, [this] {
            showNormal();
            raise();
            activateWindow();
        });
        m_tray->show();
        m_watch->setTrayIcon(m_tray);
    }
    m_watch->setNotifier(new DesktopNotifier(m_tray));
    connect(m_watch, &WatchController::listChanged, this, [this](const WatchList& next) {
        m_model->setFollowed(next.followed);
        m_config.settings.followed = sorted(next.followed);
        m_config.settings.muted = sorted(next.muted);
        m_config.settings.quietFrom = next.quietFrom;
        m_config.settings.quietTo = next.quietTo;
        updateWatchActions();
    });
    connect(m_watch, &WatchController::unseenChanged, m_model, &MatrixModel::setUnseen);
    connect(m_watch, &WatchController::selectRunRequested, this, [this](qint64 run) {
        showNormal();
        raise();
        activateWindow();
        selectRunRow(run);
    });
    connect(m_watch, &WatchController::noticeStatus, this, [this](const QString& how) {
        if (how != QLatin1String("desktop"))
            m_status->showMessage(tr("Notification: %1").arg(how));
    });
}

void MainWindow::buildWatchMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("&Watch"));
    m_followJobAction = menu->addAction(tr("Follow this &job"), this, [this] {
        if (const QString key = currentWatchKey(WatchTarget::Job); !key.isEmpty())
            m_watch->toggleFollowed(key);
    });
    m_followJobAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_followBackendAction = menu->addAction(tr("Follow this &backend"), this, [this] {
        if (const QString key = currentWatchKey(WatchTarget::Backend); !key.isEmpty())
            m_watch->toggleFollowed(key);
    });
    m_followPrAction = menu->addAction(tr("Follow this &PR"), this, [this] {
        if (const QString key = currentWatchKey(WatchTarget::Pr); !key.isEmpty())
            m_watch->toggleFollowed(key);
    });
    menu->addSeparator();
    m_muteAction = menu->addAction(tr("&Mute notifications for it"), this, [this] {
        if (const QString key = currentWatchKey(WatchTarget::Followed); !key.isEmpty())
            m_watch->toggleMuted(key);
    });
    for (QAction* action :
         {m_followJobAction, m_followBackendAction, m_followPrAction, m_muteAction})
        action->setCheckable(true);
    menu->addAction(tr("&Quiet hours…"), this, &MainWindow::showQuietHoursDialog);
    menu->addSeparator();
    QAction* next = menu->addAction(tr("&Next change not yet seen"), this, [this] {
        if (m_watch->unseen().isEmpty())
            m_status->showMessage(tr("Nothing new on followed items"));
        else
            selectRunRow(*std::min_element(m_watch->unseen().begin(), m_watch->unseen().end()));
    });
    next->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_N)); // n is the matrix's next failure
    connect(menu, &QMenu::aboutToShow, this, &MainWindow::updateWatchActions);
    updateWatchActions();
}

// The item the current cell belongs to: its job, its backend, its commit's
// PR, or the most specific of those that is followed.
QString MainWindow::currentWatchKey(WatchTarget target) const
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return {};
    const QString backend = current.data(MatrixModel::BackendRole).toString();
    const QString job = jobKey(backend, current.data(MatrixModel::WorkflowRole).toString(),
                               current.data(MatrixModel::JobRole).toString());
    const qint64 pr = current.data(MatrixModel::PrNumberRole).toLongLong();
    // A folded shard group stands for several jobs: open it to follow one.
    const bool group = current.data(MatrixModel::ShardMembersRole).toInt() > 0;
    switch (target) {
    case WatchTarget::Job: return group ? QString() : job;
    case WatchTarget::Backend: return backendKey(backend);
    case WatchTarget::Pr: return pr > 0 ? prKey(pr) : QString();
    case WatchTarget::Followed:
        for (const QString& key :
             {group ? QString() : job, pr > 0 ? prKey(pr) : QString(), backendKey(backend)})
            if (!key.isEmpty() && m_watch->list().isFollowed(key))
                return key;
        return {};
    }
    return {};
}

void MainWindow::updateWatchActions()
{
    if (!m_followJobAction)
        return;
    const WatchList& list = m_watch->list();
    const auto set = [&](QAction* action, WatchTarget target) {
        const QString key = currentWatchKey(target);
        action->setEnabled(!key.isEmpty());
        action->setChecked(
            !key.isEmpty()
            && (target == WatchTarget::Followed ? list.muted.contains(key) : list.isFollowed(key)));
    };
    set(m_followJobAction, WatchTarget::Job);
    m_followJobAction->setStatusTip(
        m_view->currentIndex().data(MatrixModel::ShardMembersRole).toInt() > 0
            ? tr("A shard group: click its label to show the shards, then follow one")
            : QString());
    set(m_followBackendAction, WatchTarget::Backend);
    set(m_followPrAction, WatchTarget::Pr);
    set(m_muteAction, WatchTarget::Followed);
}

void MainWindow::showQuietHoursDialog()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Quiet hours"));
    auto* from = new QSpinBox(&dialog);
    auto* to = new QSpinBox(&dialog);
    for (QSpinBox* box : {from, to}) {
        box->setRange(-1, 23);
        box->setSpecialValueText(tr("off"));
        box->setSuffix(tr(":00"));
    }
    from->setValue(m_watch->list().quietFrom);
    to->setValue(m_watch->list().quietTo);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(tr("No notifications from"), from);
    form->addRow(tr("until"), to);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    WatchList next = m_watch->list();
    next.quietFrom = from->value();
    next.quietTo = to->value();
    m_watch->setList(next);
}

// The cell of this run (a cache row id), clearing filters that hide it.
bool MainWindow::selectRunRow(qint64 runRowId)
{
    m_model->revealRun(runRowId); // its shard group, if folded
    for (int pass = 0; pass < 2; ++pass) {
        for (int row = 0; row < m_proxy->rowCount(); ++row)
            for (int column = 0; column < m_proxy->columnCount(); ++column) {
                const QModelIndex index = m_proxy->index(row, column);
                if (index.data(MatrixModel::RunRowIdRole).toLongLong() != runRowId)
                    continue;
                m_view->selectionModel()->setCurrentIndex(index,
                                                          QItemSelectionModel::ClearAndSelect);
                m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
                return true;
            }
        if (pass == 0 && m_proxy->filters() != MatrixFilters{})
            m_proxy->resetFilters();
        else
            break;
    }
    m_status->showMessage(tr("That run is no longer in the matrix"));
    return false;
}

namespace {

struct Evidence {
    std::vector<triage::Suggestion> suggestions;
    QString error;
};

// A worker's read: its own connection to the cache.
Evidence readEvidence(const QString& cachePath, const std::vector<std::int64_t>& runs)
{
    auto cache = Database::open(cachePath.toStdString());
    if (!cache)
        return {{}, toQString(cache.message())};
    auto suggestions = triage::suggestForRuns(**cache, runs);
    if (!suggestions)
        return {{}, toQString(suggestions.message())};
    return {std::move(*suggestions), {}};
}

} // namespace

void MainWindow::attributeAwaitedFailures()
{
    if (!m_watch->awaitsEvidence())
        return;
    const QHash<qint64, WatchEvent> awaited = m_watch->takeAwaitingEvidence();
    const std::vector<std::int64_t> runs(awaited.keyBegin(), awaited.keyEnd());
    QtConcurrent::run(&readEvidence, m_config.settings.effectiveCachePath(), runs)
        .then(this, [this, awaited](const Evidence& evidence) {
            if (!evidence.error.isEmpty())
                return m_status->showMessage(
                    tr("Cannot read the evidence on followed failures: %1").arg(evidence.error));
            m_watch->attributionsArrived(attributedFailures(evidence.suggestions, awaited));
        });
}

// Called with each snapshot: after a sync, what is new on followed items.
void MainWindow::watchSnapshot(const MatrixSnapshot& next)
{
    if (!m_watchPending)
        return;
    m_watchPending = false;
    // The first picture is the baseline: nothing is "new" against nothing.
    if (m_model->commits().rows.empty())
        return;
    m_watch->compare(m_model->commits(), next, m_relayDegraded);
    m_relayDegraded.clear();
}

void MainWindow::watchRelayHealth(int state, const QString& summary)
{
    const bool degraded = state == static_cast<int>(HealthState::Degraded);
    if (degraded && m_lastRelayHealth != state)
        m_relayDegraded = tr("Relay health degraded: %1").arg(summary.section(u'\n', 0, 0));
    m_lastRelayHealth = state;
}

} // namespace relayhud::ui
