// The main window's watch and notify (watch_coordinator.h).
#include "window/watch_coordinator.h"

#include "relayhud/hud/hud_summaries.h"
#include "relayhud/store/database.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/sync_controller.h"
#include "relayhud/ui/watch/attributed_failures.h"
#include "relayhud/ui/watch/notifier.h"
#include "relayhud/ui/watch/watch_controller.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QMainWindow>
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

WatchCoordinator::WatchCoordinator(Frame frame, QObject* parent)
    : QObject(parent), m_frame(std::move(frame)), m_watch(new WatchController(this))
{
    WatchList list;
    list.followed = toSet(m_frame.settings->followed);
    list.muted = toSet(m_frame.settings->muted);
    list.quietFrom = m_frame.settings->quietFrom;
    list.quietTo = m_frame.settings->quietTo;
    m_watch->setList(list);
    m_frame.model->setFollowed(list.followed);
    // Sessions that keep no state (tests, screenshots) show no tray icon.
    if (m_frame.trayIcon && QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(m_frame.window->windowIcon(), this);
        connect(m_tray, &QSystemTrayIcon::activated, this, [this] {
            m_frame.window->showNormal();
            m_frame.window->raise();
            m_frame.window->activateWindow();
        });
        m_tray->show();
        m_watch->setTrayIcon(m_tray);
    }
    m_watch->setNotifier(new DesktopNotifier(m_tray));
    connect(m_watch, &WatchController::listChanged, this, [this](const WatchList& next) {
        m_frame.model->setFollowed(next.followed);
        m_frame.settings->followed = sorted(next.followed);
        m_frame.settings->muted = sorted(next.muted);
        m_frame.settings->quietFrom = next.quietFrom;
        m_frame.settings->quietTo = next.quietTo;
        updateActions();
    });
    connect(m_watch, &WatchController::unseenChanged, m_frame.model, &MatrixModel::setUnseen);
    connect(m_watch, &WatchController::selectRunRequested, this, [this](qint64 run) {
        m_frame.window->showNormal();
        m_frame.window->raise();
        m_frame.window->activateWindow();
        m_frame.selectRun(run);
    });
    connect(m_watch, &WatchController::noticeStatus, this, [this](const QString& how) {
        if (how != QLatin1String("desktop"))
            m_frame.status->showMessage(tr("Notification: %1").arg(how));
    });
}

void WatchCoordinator::buildMenu(QMenuBar* bar)
{
    QMenu* menu = bar->addMenu(tr("&Watch"));
    m_followJob = menu->addAction(tr("Follow this &job"), this, [this] {
        if (const QString key = currentKey(Target::Job); !key.isEmpty())
            m_watch->toggleFollowed(key);
    });
    m_followJob->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_followBackend = menu->addAction(tr("Follow this &backend"), this, [this] {
        if (const QString key = currentKey(Target::Backend); !key.isEmpty())
            m_watch->toggleFollowed(key);
    });
    m_followPr = menu->addAction(tr("Follow this &PR"), this, [this] {
        if (const QString key = currentKey(Target::Pr); !key.isEmpty())
            m_watch->toggleFollowed(key);
    });
    menu->addSeparator();
    m_mute = menu->addAction(tr("&Mute notifications for it"), this, [this] {
        if (const QString key = currentKey(Target::Followed); !key.isEmpty())
            m_watch->toggleMuted(key);
    });
    for (QAction* action : {m_followJob, m_followBackend, m_followPr, m_mute})
        action->setCheckable(true);
    menu->addAction(tr("&Quiet hours…"), this, &WatchCoordinator::showQuietHoursDialog);
    menu->addSeparator();
    QAction* next = menu->addAction(tr("&Next change not yet seen"), this, [this] {
        if (m_watch->unseen().isEmpty())
            m_frame.status->showMessage(tr("Nothing new on followed items"));
        else
            m_frame.selectRun(
                *std::min_element(m_watch->unseen().begin(), m_watch->unseen().end()));
    });
    next->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_N)); // n is the matrix's next failure
    connect(menu, &QMenu::aboutToShow, this, &WatchCoordinator::updateActions);
    updateActions();
}

// The item the current cell belongs to: its job, its backend, its commit's
// PR, or the most specific of those that is followed.
QString WatchCoordinator::currentKey(Target target) const
{
    const QModelIndex current = m_frame.view->currentIndex();
    if (!current.isValid())
        return {};
    const QString backend = current.data(MatrixModel::BackendRole).toString();
    const QString job = jobKey(backend, current.data(MatrixModel::WorkflowRole).toString(),
                               current.data(MatrixModel::JobRole).toString());
    const qint64 pr = current.data(MatrixModel::PrNumberRole).toLongLong();
    // A folded shard group stands for several jobs: open it to follow one.
    const bool group = current.data(MatrixModel::ShardMembersRole).toInt() > 0;
    switch (target) {
    case Target::Job: return group ? QString() : job;
    case Target::Backend: return backendKey(backend);
    case Target::Pr: return pr > 0 ? prKey(pr) : QString();
    case Target::Followed:
        for (const QString& key :
             {group ? QString() : job, pr > 0 ? prKey(pr) : QString(), backendKey(backend)})
            if (!key.isEmpty() && m_watch->list().isFollowed(key))
                return key;
        return {};
    }
    return {};
}

void WatchCoordinator::updateActions()
{
    if (!m_followJob)
        return;
    const WatchList& list = m_watch->list();
    const auto set = [&](QAction* action, Target target) {
        const QString key = currentKey(target);
        action->setEnabled(!key.isEmpty());
        action->setChecked(
            !key.isEmpty()
            && (target == Target::Followed ? list.muted.contains(key) : list.isFollowed(key)));
    };
    set(m_followJob, Target::Job);
    m_followJob->setStatusTip(
        m_frame.view->currentIndex().data(MatrixModel::ShardMembersRole).toInt() > 0
            ? tr("A shard group: click its label to show the shards, then follow one")
            : QString());
    set(m_followBackend, Target::Backend);
    set(m_followPr, Target::Pr);
    set(m_mute, Target::Followed);
}

void WatchCoordinator::showQuietHoursDialog()
{
    QDialog dialog(m_frame.window);
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
    std::vector<CheckRunRow> rows; // the QHash of awaited runs is keyed by the number
    for (const std::int64_t run : runs)
        rows.push_back(CheckRunRow{run});
    auto suggestions = triage::suggestForRuns(**cache, rows);
    if (!suggestions)
        return {{}, toQString(suggestions.message())};
    return {std::move(*suggestions), {}};
}

} // namespace

void WatchCoordinator::attributeAwaitedFailures(const QString& cachePath)
{
    if (!m_watch->awaitsEvidence())
        return;
    const QHash<qint64, WatchEvent> awaited = m_watch->takeAwaitingEvidence();
    const std::vector<std::int64_t> runs(awaited.keyBegin(), awaited.keyEnd());
    QtConcurrent::run(&readEvidence, cachePath, runs)
        .then(this, [this, awaited](const Evidence& evidence) {
            if (!evidence.error.isEmpty())
                return m_frame.status->showMessage(
                    tr("Cannot read the evidence on followed failures: %1").arg(evidence.error));
            m_watch->attributionsArrived(attributedFailures(evidence.suggestions, awaited));
        });
}

// Called with each snapshot: after a sync, what is new on followed items.
void WatchCoordinator::snapshotArrived(const MatrixSnapshot& next)
{
    if (!m_pending)
        return;
    m_pending = false;
    // The first picture is the baseline: nothing is "new" against nothing.
    if (m_frame.model->commits().rows.empty())
        return;
    m_watch->compare(m_frame.model->commits(), next, m_relayDegraded);
    m_relayDegraded.clear();
}

void WatchCoordinator::syncArrived(const SyncOutcome& outcome)
{
    m_pending = true;
    if (!outcome.relayHealth)
        return;
    const int state = static_cast<int>(outcome.relayHealth->overall());
    const QString summary = toQString(outcome.relayHealth->summary());
    const bool degraded = state == static_cast<int>(HealthState::Degraded);
    if (degraded && m_lastRelayHealth != state)
        m_relayDegraded = tr("Relay health degraded: %1").arg(summary.section(u'\n', 0, 0));
    m_lastRelayHealth = state;
}

void WatchCoordinator::visited(qint64 runRowId)
{
    m_watch->visited(runRowId);
    updateActions();
}

} // namespace relayhud::ui
