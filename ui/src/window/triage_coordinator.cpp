#include "relayhud/ui/window/triage_coordinator.h"

#include "relayhud/team/team_server.h"
#include "relayhud/ui/clusters/clusters_panel.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/settings/credential_store.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/triage/team_client.h"
#include "relayhud/ui/triage/triage_controller.h"
#include "relayhud/ui/triage/triage_style.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"
#include "relayhud/util/time.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>

#include <map>
#include <unordered_map>

namespace relayhud::ui {

namespace {

// Sets (or, undone, puts back) the tags of some targets. Both directions are
// "make these targets hold these values", which restoreTriageTags does.
class TriageCommand : public QUndoCommand {
public:
    using Apply = std::function<void(const std::vector<TriageTarget>&,
                                     const std::vector<std::optional<TriageTag>>&)>;
    TriageCommand(const QString& text, std::vector<TriageTarget> targets,
                  std::vector<std::optional<TriageTag>> before,
                  std::vector<std::optional<TriageTag>> after, Apply apply)
        : QUndoCommand(text), m_targets(std::move(targets)), m_before(std::move(before)),
          m_after(std::move(after)), m_apply(std::move(apply))
    {
    }
    void redo() override { m_apply(m_targets, m_after); }
    void undo() override { m_apply(m_targets, m_before); }

private:
    std::vector<TriageTarget> m_targets;
    std::vector<std::optional<TriageTag>> m_before;
    std::vector<std::optional<TriageTag>> m_after;
    Apply m_apply;
};

bool sameRun(const TriageTarget& a, const TriageTarget& b)
{
    return a.repo == b.repo && a.workflow == b.workflow && a.job == b.job && a.sha == b.sha
           && a.attempt == b.attempt;
}

} // namespace

QString TriageCoordinator::triageAuthor() const
{
    const QString configured = qEnvironmentVariable("RELAYHUD_AUTHOR");
    if (!configured.isEmpty())
        return configured;
    const QString user = qEnvironmentVariable("USER");
    return user.isEmpty() ? tr("unknown") : user;
}

TriageCoordinator::TriageCoordinator(Frame frame, QObject* parent)
    : QObject(parent), m_frame(std::move(frame)), m_triage(new TriageController(this)),
      m_team(new TeamClient(this)), m_undo(new QUndoStack(this)), m_marksReload(new QTimer(this))
{
    buildClustersDock();
    connectTeam();
    m_triage->setCachePath(m_frame.settings->effectiveCachePath().toStdString());
    connect(m_frame.tests->panel(), &TestsPanel::triageRequested, this,
            &TriageCoordinator::onTriageRequested);
    m_marksReload->setSingleShot(true);
    m_marksReload->setInterval(250); // a burst of j/r/j/r keys reloads the matrix once
    connect(m_marksReload, &QTimer::timeout, this, [this] {
        m_frame.reloadMatrix();
        reloadClusters();
    });
    connect(m_triage, &TriageController::written, this, [this](qint64, const QString& error) {
        if (error.isEmpty()) {
            m_marksReload->start();
            m_team->syncSoon(); // the outbox has it: off to the team
            emit triageWritten();
            return;
        }
        // The panel showed what was asked; show what the cache holds instead.
        m_frame.status->showMessage(tr("Could not store the triage: %1").arg(error));
        m_frame.tests->reload(false);
    });
    connect(m_triage, &TriageController::exported, this,
            [this](const QString& path, qint64 count, const QString& error) {
                m_frame.status->showMessage(
                    error.isEmpty()
                        ? tr("Exported %n triage tag(s) to %1", nullptr, static_cast<int>(count))
                              .arg(path)
                        : tr("Could not export the triage: %1").arg(error));
            });
    connect(m_triage, &TriageController::imported, this,
            [this](const QString& path, const QString& summary, const QStringList& conflicts,
                   const QString& error) {
                if (!error.isEmpty()) {
                    m_frame.status->showMessage(
                        tr("Nothing imported from %1: %2").arg(path, error));
                    emit triageImported(error);
                    return;
                }
                m_frame.status->showMessage(tr("Triage imported from %1: %2").arg(path, summary));
                if (!conflicts.isEmpty() && m_frame.window->isVisible()) {
                    QMessageBox box(QMessageBox::Information, tr("Triage imported"),
                                    tr("%1\n\nNewest wins; conflicts:").arg(summary),
                                    QMessageBox::Ok, m_frame.window);
                    box.setDetailedText(conflicts.join(u'\n'));
                    box.exec();
                }
                m_marksReload->start();
                m_frame.tests->reload(false);
                m_team->syncSoon();
                emit triageImported(QString());
            });
}

void TriageCoordinator::connectTeam()
{
    connect(m_team, &TeamClient::viewChanged, this, [this](const TeamView& view) {
        m_frame.status->showTeam(view.summary(), view.details(),
                                 view.state == TeamView::State::Offline || !view.error.isEmpty());
        emit teamViewChanged();
    });
    connect(m_team, &TeamClient::changesArrived, this, [this](const TeamArrival& arrival) {
        // The matrix's folded corners, the clusters dock and the shown run's
        // tests read the cache again, as after an import.
        m_marksReload->start();
        m_frame.tests->reload(false);
        if (arrival.applied > 0)
            m_frame.status->showMessage(tr("Team: %1 changed %n triage field(s)", nullptr,
                                           static_cast<int>(arrival.applied))
                                            .arg(arrival.authors.join(QStringLiteral(", "))));
        if (!arrival.conflicts.isEmpty())
            m_frame.status->showMessage(tr("Team: %n conflict(s), the newer edit kept: %1", nullptr,
                                           static_cast<int>(arrival.conflicts.size()))
                                            .arg(arrival.conflicts.first()));
        emit teamChangesArrived(arrival.applied);
    });
}

void TriageCoordinator::applyTeamSettings()
{
    const QString server = m_frame.settings->teamServer.trimmed();
    const QString cachePath = m_frame.settings->effectiveCachePath();
    if (server.isEmpty()) {
        if (m_team->running())
            m_team->stop();
        return;
    }
    // Not before the keychain answered: a first attempt without its password
    // would show a refusal for nothing (applyCredentials() calls again).
    if (!m_frame.credentials->isLoaded())
        return;
    const std::string password = m_frame.credentials->credentials().teamPassword;
    if (m_team->running() && m_team->conninfo() == server && m_team->password() == password
        && m_team->cachePath() == cachePath)
        return;
    if (const std::string problem = team::serverSettingProblem(server.toStdString());
        !problem.empty()) {
        m_team->stop();
        m_frame.status->showTeam(tr("team: not connected"), toQString(problem), true);
        return;
    }
    m_team->start(server, password, cachePath);
}

void TriageCoordinator::buildMenus(QMenuBar* bar)
{
    QMenu* edit = bar->addMenu(tr("&Edit"));
    QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    QMenu* triage = bar->addMenu(tr("&Triage"));
    QAction* next = triage->addAction(tr("&Next untriaged failure"), this,
                                      [this] { m_frame.matrix->walkFailures(true); });
    // The menu shows the key; the matrix and the tests table bind it
    // (MatrixCoordinator, TestsPanel), where typing in a filter is not triage.
    next->setShortcut(QKeySequence(Qt::Key_J));
    next->setShortcutContext(Qt::WidgetShortcut);
    triage->addAction(tr("&Tag the selection…"), this,
                      [this] { m_frame.tests->panel()->showTagDialog(false); });
    triage->addSeparator();
    triage->addAction(tr("&Export Triage…"), this, &TriageCoordinator::showExportTriageDialog);
    triage->addAction(tr("&Import Triage…"), this, &TriageCoordinator::showImportTriageDialog);
    triage->addSeparator();
    QAction* keys = triage->addAction(tr("&Keyboard Shortcuts"), this,
                                      [this] { m_frame.tests->panel()->showShortcuts(); });
    keys->setShortcut(QKeySequence(Qt::Key_Question));
    keys->setShortcutContext(Qt::WidgetShortcut);
}

void TriageCoordinator::onTriageRequested(const TriageRequest& request)
{
    const TestsModel& model = m_frame.tests->panel()->model();
    std::optional<TriageTarget> base;
    std::vector<TriageTarget> targets;
    std::vector<std::optional<TriageTag>> before;
    for (const TestId testId : request.testIds) {
        const TestTriage* current = m_frame.tests->panel()->triageOf(testId);
        if (!current)
            continue;
        TriageTarget target;
        if (current->tag) {
            target = current->tag->target;
        } else if (m_frame.tests->shownTarget()) {
            target = *m_frame.tests->shownTarget();
            if (testId) {
                const QModelIndex index = model.indexOfTest(testId);
                const StoredTestResult* result = model.result(index);
                if (!result) { // filtered out of view: find it among all results
                    for (const StoredTestResult& r : model.results())
                        if (r.testId == testId)
                            result = &r;
                }
                if (!result)
                    continue;
                target.test = result->identity;
            }
        } else {
            continue;
        }
        targets.push_back(std::move(target));
        before.push_back(current->tag);
    }
    pushTriage(std::move(targets), std::move(before), request.edit, request.keepNotes);
}

// One undoable step: `edit` on every target, whose tags were `before`. A
// class key keeps each target's note and bug link; the dialog sets them.
void TriageCoordinator::pushTriage(std::vector<TriageTarget> targets,
                                   std::vector<std::optional<TriageTag>> before,
                                   const TriageEdit& edit, bool keepNotes)
{
    if (targets.empty())
        return;
    const std::int64_t now = nowMilliseconds();
    const std::string author = triageAuthor().toStdString();
    std::vector<std::optional<TriageTag>> after;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        TriageTag tag;
        tag.target = targets[i];
        tag.cls = edit.cls;
        tag.author = author;
        tag.timeMs = now;
        if (keepNotes && before[i]) {
            tag.note = before[i]->note;
            tag.bugUrl = before[i]->bugUrl;
        } else if (!keepNotes) {
            tag.note = edit.note.toStdString();
            tag.bugUrl = edit.bugUrl.toStdString();
        }
        after.emplace_back(std::move(tag));
    }
    const QString text = tr("Tag %n failure(s) %1", nullptr, static_cast<int>(targets.size()))
                             .arg(classLabel(edit.cls));
    m_undo->push(new TriageCommand(text, std::move(targets), std::move(before), std::move(after),
                                   [this](const auto& t, const auto& v) { applyTriage(t, v); }));
}

void TriageCoordinator::buildClustersDock()
{
    QMainWindow* window = m_frame.window;
    m_clustersPanel = new ClustersPanel(window);
    m_clustersDock = m_frame.tests->addTabBeside(tr("Clusters"), QStringLiteral("clustersDock"),
                                                 m_clustersPanel);
    connect(m_clustersPanel, &ClustersPanel::tagRequested, this,
            &TriageCoordinator::onClusterTagRequested);
    connect(m_triage, &TriageController::clustersLoaded, this,
            [this](const std::shared_ptr<const ClustersData>& loaded) {
                m_clustersPanel->setData(loaded);
                emit clustersShown(static_cast<int>(loaded->clusters.size()));
            });
    connect(m_triage, &TriageController::clustersFailed, this,
            [this](qint64, const QString& error) {
                m_clustersPanel->setMessage(tr("Cannot build the clusters: %1").arg(error));
            });
}

void TriageCoordinator::reloadClusters()
{
    FailureQuery query;
    query.newestShas = 200; // what the matrix shows by default
    m_triage->loadClusters(query);
}

void TriageCoordinator::onClusterTagRequested(const std::vector<TriageTarget>& targets,
                                              const TriageEdit& edit)
{
    // What each member had: the clusters were read with their tags.
    std::vector<std::optional<TriageTag>> before(targets.size());
    if (const ClustersData* shown = m_clustersPanel->model().clusters()) {
        std::map<TriageTarget, const TriageTag*> known;
        for (const TriageTag& tag : shown->tags)
            known.emplace(tag.target, &tag);
        for (std::size_t i = 0; i < targets.size(); ++i)
            if (const auto found = known.find(targets[i]); found != known.end())
                before[i] = *found->second;
    }
    pushTriage(targets, std::move(before), edit, edit.note.isEmpty() && edit.bugUrl.isEmpty());
}

// Writes the values and shows them where the tests panel shows those targets.
void TriageCoordinator::applyTriage(const std::vector<TriageTarget>& targets,
                                    const std::vector<std::optional<TriageTag>>& values)
{
    m_triage->restore(targets, values);
    if (!m_frame.tests->shownTarget())
        return;
    std::unordered_map<std::string, std::size_t> shown; // test identity -> index into targets
    for (std::size_t i = 0; i < targets.size(); ++i)
        if (sameRun(targets[i], *m_frame.tests->shownTarget()))
            shown[targets[i].test] = i;
    if (shown.empty())
        return;
    if (const auto job = shown.find(std::string()); job != shown.end())
        if (const TestTriage* current = m_frame.tests->panel()->triageOf(TestId{})) {
            TestTriage next = *current;
            next.tag = values[job->second];
            m_frame.tests->panel()->applyTriage(TestId{}, next);
        }
    for (const StoredTestResult& result : m_frame.tests->panel()->model().results()) {
        const auto found = shown.find(result.identity);
        if (found == shown.end())
            continue;
        if (const TestTriage* current = m_frame.tests->panel()->triageOf(result.testId)) {
            TestTriage next = *current;
            next.tag = values[found->second];
            m_frame.tests->panel()->applyTriage(result.testId, next);
        }
    }
}

void TriageCoordinator::showExportTriageDialog()
{
    const QString start = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                          + QStringLiteral("/relayhud-triage.json");
    const QString path = QFileDialog::getSaveFileName(m_frame.window, tr("Export triage"), start,
                                                      tr("Triage files (*.json)"));
    if (!path.isEmpty())
        exportTriage(path);
}

void TriageCoordinator::showImportTriageDialog()
{
    const QString start = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString path = QFileDialog::getOpenFileName(m_frame.window, tr("Import triage"), start,
                                                      tr("Triage files (*.json);;All files (*)"));
    if (!path.isEmpty())
        importTriage(path);
}

void TriageCoordinator::setCachePath(const QString& path)
{
    m_triage->setCachePath(path.toStdString());
    m_undo->clear(); // its tags live in the old cache
}

void TriageCoordinator::exportTriage(const QString& path) { m_triage->exportTo(path); }
void TriageCoordinator::importTriage(const QString& path) { m_triage->importFrom(path); }

} // namespace relayhud::ui
