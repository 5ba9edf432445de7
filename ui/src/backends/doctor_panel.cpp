#include "relayhud/ui/backends/doctor_panel.h"

#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/net/http_client.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/util/paths.h"
#include "relayhud/util/time.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace relayhud::ui {

namespace {

enum BackendColumn { RepoColumn, LevelColumn, ErrorsColumn, WarningsColumn, BackendColumns };
enum FindingColumn { SeverityColumn, CheckColumn, WhereColumn, WhatColumn, FindingColumns };
enum RunColumn {
    ShaColumn,
    CheckedOutColumn, // beside the dispatched SHA it is compared with
    PrColumn,
    JobColumn,
    AttemptColumn,
    StatusColumn,
    StartedColumn,
    RunColumns
};

// Item data: the finding's fix, and the runs behind it.
constexpr int FixRole = Qt::UserRole;
constexpr int RunsRole = Qt::UserRole + 1;

QColor severityColor(doctor::Severity severity)
{
    switch (severity) {
    case doctor::Severity::Error: return QColor(0xd3, 0x2f, 0x2f);
    case doctor::Severity::Warning: return QColor(0xef, 0x6c, 0x00);
    case doctor::Severity::Info: break;
    }
    return QColor(0x75, 0x75, 0x75);
}

QString severityText(doctor::Severity severity)
{
    switch (severity) {
    case doctor::Severity::Error: return DoctorPanel::tr("● error");
    case doctor::Severity::Warning: return DoctorPanel::tr("● warning");
    case doctor::Severity::Info: break;
    }
    return DoctorPanel::tr("● note");
}

// "1 run", "3 runs": English counts, whole words.
QString count(std::size_t n, const QString& one, const QString& many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

QString statusText(const HealthRun& run)
{
    if (run.status != RunStatus::Completed)
        return toQString(toString(run.status));
    return toQString(toString(run.conclusion));
}

} // namespace

DoctorPanel::DoctorPanel(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_split(new QSplitter(this)),
      m_backends(new QTreeWidget(m_split)), m_findings(new QTreeWidget(this)),
      m_fix(new QLabel(this)), m_runs(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("doctorPanel"));
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Integration doctor: not read yet"));
    setUpBackends();
    setUpFindings();
    auto* right = new QWidget(m_split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(4);
    rightLayout->addWidget(m_findings, 3);
    rightLayout->addWidget(m_fix);
    rightLayout->addWidget(m_runs, 2);
    m_split->addWidget(m_backends);
    m_split->addWidget(right);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);
    m_split->setSizes({380, 1200}); // the backends' names and counts whole

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_summary);
    layout->addWidget(m_split, 1);
    wire();
}

void DoctorPanel::setUpBackends()
{
    m_backends->setObjectName(QStringLiteral("doctorBackends"));
    m_backends->setRootIsDecorated(false);
    m_backends->setUniformRowHeights(true);
    m_backends->setColumnCount(BackendColumns);
    m_backends->setHeaderLabels({tr("Backend"), tr("Level"), tr("Errors"), tr("Warnings")});
    m_backends->headerItem()->setToolTip(
        ErrorsColumn, tr("Findings that lose or misfile results: refused or missing callbacks, "
                         "runs that never complete, the wrong commit tested"));
    m_backends->headerItem()->setToolTip(WarningsColumn,
                                         tr("Findings that make results fragile or unverifiable"));
    m_backends->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

// The selected backend's findings, the selected finding's fix and its runs.
void DoctorPanel::setUpFindings()
{
    m_findings->setObjectName(QStringLiteral("doctorFindings"));
    m_findings->setColumnCount(FindingColumns);
    m_findings->setHeaderLabels({tr("Severity"), tr("Check"), tr("Where"), tr("What")});
    m_findings->setUniformRowHeights(true);
    m_findings->setWordWrap(false);
    m_findings->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_findings->header()->setStretchLastSection(true);
    m_fix->setObjectName(QStringLiteral("doctorFix"));
    m_fix->setWordWrap(true);
    m_fix->setTextFormat(Qt::PlainText);
    m_fix->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runs->setObjectName(QStringLiteral("doctorRuns"));
    m_runs->setRootIsDecorated(false);
    m_runs->setUniformRowHeights(true);
    m_runs->setColumnCount(RunColumns);
    m_runs->setHeaderLabels({tr("Upstream SHA"), tr("Log checked out"), tr("PR"), tr("Job"),
                             tr("Attempt"), tr("Status"), tr("Started")});
    m_runs->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_runs->setToolTip(tr("The runs behind the finding. Double-click or Enter: that run in the "
                          "matrix"));
}

const doctor::BackendReport* DoctorPanel::backendOf(const QTreeWidgetItem* item) const
{
    const int index = item ? item->data(RepoColumn, Qt::UserRole).toInt() : -1;
    return m_data && index >= 0 ? &m_data->backends[static_cast<std::size_t>(index)] : nullptr;
}

void DoctorPanel::wire()
{
    connect(m_backends, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* item, QTreeWidgetItem*) { showBackend(backendOf(item)); });
    connect(m_findings, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* item, QTreeWidgetItem*) {
                m_fix->setText(
                    item && !item->data(SeverityColumn, FixRole).toString().isEmpty()
                        ? tr("Fix: %1").arg(item->data(SeverityColumn, FixRole).toString())
                        : QString());
                std::vector<CheckRunRow> rows;
                if (item)
                    for (const QVariant& v : item->data(SeverityColumn, RunsRole).toList())
                        rows.push_back(CheckRunRow{v.toLongLong()});
                showRuns(backendOf(m_backends->currentItem()), rows);
            });
    connect(m_runs, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit runActivated(item->data(ShaColumn, Qt::UserRole).toLongLong());
    });
}

DoctorData DoctorPanel::read(const QString& cachePath, int days, const ArtifactAccess& access,
                             bool online)
{
    DoctorData got;
    got.days = days;
    auto cache = Database::open(cachePath.toStdString());
    if (!cache) {
        got.error = toQString(cache.message());
        return got;
    }
    auto blobs = ContentCache::open(blobRootFor(cachePath.toStdString()));
    if (!blobs) {
        got.error = toQString(blobs.message());
        return got;
    }
    HttpOptions options;
    options.retry.maxAttempts = 2;
    options.totalTimeout = std::chrono::seconds(30);
    HttpClient http(options);
    ArtifactFetcher fetcher(http, *blobs, access.settings, access.credentials);
    auto reports = doctor::examineBackends(**cache, fetcher, nowSeconds(), days, online);
    if (!reports) {
        got.error = toQString(reports.message());
        return got;
    }
    got.backends = std::move(*reports);
    return got;
}

void DoctorPanel::load(const QString& cachePath, int days, const ArtifactAccess& access,
                       bool online)
{
    const quint64 request = ++m_request;
    m_loading = true;
    m_summary->setText(tr("Integration doctor: reading the cache and each backend's workflows…"));
    QtConcurrent::run(&DoctorPanel::read, cachePath, days, access, online)
        .then(this, [this, request](DoctorData got) {
            if (request != m_request)
                return;
            m_loading = false;
            showLoaded(std::make_shared<const DoctorData>(std::move(got)));
        });
}

bool DoctorPanel::selectBackend(const QString& repo)
{
    for (int i = 0; i < m_backends->topLevelItemCount(); ++i)
        if (m_backends->topLevelItem(i)->text(RepoColumn) == repo) {
            m_backends->setCurrentItem(m_backends->topLevelItem(i));
            return true;
        }
    return false;
}

void DoctorPanel::showLoaded(const std::shared_ptr<const DoctorData>& got)
{
    const QString previous =
        m_backends->currentItem() ? m_backends->currentItem()->text(RepoColumn) : QString();
    m_data = got;
    m_backends->clear();
    if (!got->error.isEmpty()) {
        m_summary->setText(tr("Integration doctor: cannot read the cache: %1").arg(got->error));
        showBackend(nullptr);
        emit loaded(0);
        return;
    }
    std::size_t withErrors = 0;
    std::size_t withWarnings = 0;
    for (std::size_t i = 0; i < got->backends.size(); ++i) {
        const doctor::BackendReport& d = got->backends[i];
        const std::size_t errors = d.count(doctor::Severity::Error);
        const std::size_t warnings = d.count(doctor::Severity::Warning);
        withErrors += errors > 0 ? 1 : 0;
        withWarnings += errors == 0 && warnings > 0 ? 1 : 0;
        auto* item = new QTreeWidgetItem(m_backends);
        item->setText(RepoColumn, toQString(d.repo));
        item->setData(RepoColumn, Qt::UserRole, static_cast<int>(i));
        item->setText(LevelColumn, levelLabel(d.level));
        item->setText(ErrorsColumn, errors ? QString::number(errors) : QStringLiteral("—"));
        item->setText(WarningsColumn, warnings ? QString::number(warnings) : QStringLiteral("—"));
        item->setTextAlignment(ErrorsColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(WarningsColumn, Qt::AlignRight | Qt::AlignVCenter);
        if (errors)
            item->setForeground(ErrorsColumn, severityColor(doctor::Severity::Error));
        if (warnings)
            item->setForeground(WarningsColumn, severityColor(doctor::Severity::Warning));
    }
    m_summary->setText(
        tr("Integration doctor, last %1: whether each backend's CRCR integration can be "
           "trusted, from its rows in the cache and its workflows. %2 of %3 backends have "
           "errors, %4 only warnings. Worst first.")
            .arg(count(static_cast<std::size_t>(got->days), tr("day"), tr("days")))
            .arg(withErrors)
            .arg(got->backends.size())
            .arg(withWarnings));
    if (got->backends.empty())
        showBackend(nullptr);
    else if (previous.isEmpty() || !selectBackend(previous))
        m_backends->setCurrentItem(m_backends->topLevelItem(0));
    emit loaded(static_cast<int>(got->backends.size()));
}

void DoctorPanel::showBackend(const doctor::BackendReport* d)
{
    m_findings->clear();
    m_fix->clear();
    showRuns(nullptr, {});
    if (!d)
        return;
    addRuntimeFindings(*d);
    addWorkflowFindings(*d);
    // The first finding that is not a note: what to look at first.
    for (QTreeWidgetItemIterator it(m_findings); *it; ++it)
        if ((*it)->data(SeverityColumn, FixRole).isValid()
            && !(*it)->text(SeverityColumn).contains(tr("note"))) {
            m_findings->setCurrentItem(*it);
            break;
        }
}

QTreeWidgetItem* DoctorPanel::addFinding(QTreeWidgetItem* parent, doctor::Severity severity,
                                         const QString& check, const QString& where,
                                         const QString& what, const QString& fix)
{
    auto* item = new QTreeWidgetItem(parent);
    item->setText(SeverityColumn, severityText(severity));
    item->setForeground(SeverityColumn, severityColor(severity));
    item->setText(CheckColumn, check);
    item->setText(WhereColumn, where);
    item->setText(WhatColumn, what);
    item->setToolTip(WhatColumn, what + QStringLiteral("\n\n") + tr("Fix: %1").arg(fix));
    item->setData(SeverityColumn, FixRole, fix);
    return item;
}

// What its runs in the window say, each finding with the runs behind it.
void DoctorPanel::addRuntimeFindings(const doctor::BackendReport& d)
{
    auto* runtime = new QTreeWidgetItem(m_findings);
    runtime->setText(SeverityColumn, tr("Runtime"));
    runtime->setText(WhatColumn, tr("%1 in the last %2, %3 completed")
                                     .arg(count(d.runtime.runs, tr("run"), tr("runs")))
                                     .arg(count(static_cast<std::size_t>(m_data ? m_data->days : 0),
                                                tr("day"), tr("days")))
                                     .arg(d.runtime.completed));
    for (const doctor::HealthFinding& f : d.runtime.findings) {
        QTreeWidgetItem* item =
            addFinding(runtime, f.severity, toQString(f.check),
                       f.runs.empty() ? QString() : count(f.runs.size(), tr("run"), tr("runs")),
                       toQString(f.message), toQString(f.fix));
        QVariantList rows;
        for (const CheckRunRow row : f.runs)
            rows << QVariant::fromValue<qint64>(row.value);
        item->setData(SeverityColumn, RunsRole, rows);
    }
    if (d.runtime.findings.empty())
        addFinding(runtime, doctor::Severity::Info, QString(), QString(),
                   tr("Nothing to report: no run in the window"), QString());
    runtime->setExpanded(true);
}

// What its workflow files say, file by file.
void DoctorPanel::addWorkflowFindings(const doctor::BackendReport& d)
{
    auto* workflows = new QTreeWidgetItem(m_findings);
    workflows->setText(SeverityColumn, tr("Workflows"));
    workflows->setText(WhatColumn, d.workflowsNote.empty()
                                       ? tr("%1 from GitHub's contents API")
                                             .arg(count(d.workflows.size(), tr("workflow file"),
                                                        tr("workflow files")))
                                       : toQString(d.workflowsNote));
    for (const doctor::WorkflowReport& w : d.workflows) {
        auto* file = new QTreeWidgetItem(workflows);
        file->setText(SeverityColumn, toQString(w.path.substr(w.path.rfind('/') + 1)));
        file->setToolTip(SeverityColumn, toQString(w.htmlUrl.empty() ? w.path : w.htmlUrl));
        const QString steps =
            count(w.lint.callbackSteps, tr("callback step"), tr("callback steps"));
        if (!w.error.empty())
            addFinding(file, doctor::Severity::Error, QStringLiteral("yaml"), QString(),
                       toQString(w.error), tr("make it a workflow GitHub can read"));
        else if (w.lint.findings.empty())
            file->setText(WhatColumn, tr("sound: every check holds (%1)").arg(steps));
        else
            file->setText(WhatColumn,
                          tr("%1 in %2").arg(steps).arg(count(w.lint.jobs, tr("job"), tr("jobs"))));
        for (const doctor::Finding& f : w.lint.findings)
            addFinding(file, f.severity, toQString(f.check),
                       f.line ? tr("line %1").arg(f.line) : QString(), toQString(f.message),
                       toQString(f.fix));
        file->setExpanded(!w.lint.findings.empty() || !w.error.empty());
    }
    workflows->setExpanded(true);
}

void DoctorPanel::showRuns(const doctor::BackendReport* d, const std::vector<CheckRunRow>& rows)
{
    m_runs->clear();
    m_runs->setVisible(d && !rows.empty());
    if (!d)
        return;
    for (const CheckRunRow row : rows) {
        const auto it = d->runs.find(row);
        if (it == d->runs.end())
            continue;
        const HealthRun& run = it->second;
        auto* item = new QTreeWidgetItem(m_runs);
        item->setData(ShaColumn, Qt::UserRole, QVariant::fromValue<qint64>(row.value));
        item->setText(ShaColumn, toQString(run.sha.value.substr(0, 10)));
        item->setText(PrColumn, run.prNumber.value > 0
                                    ? QStringLiteral("#%1").arg(run.prNumber.value)
                                    : QStringLiteral("—"));
        item->setText(JobColumn, toQString(run.workflow + " / " + run.job));
        item->setText(AttemptColumn, QString::number(run.attempt));
        item->setText(StatusColumn, statusText(run));
        item->setText(StartedColumn,
                      run.startedAt ? formatShortTime(*run.startedAt) : tr("not reported"));
        showCheckout(item, run);
    }
}

// What the run's job log says actions/checkout checked out of the upstream
// repository (the tested-SHA check): red when it is not the dispatched SHA.
void DoctorPanel::showCheckout(QTreeWidgetItem* item, const HealthRun& run)
{
    const doctor::TestedSha tested = doctor::testedSha(run);
    const QString upstream = toQString(tested.upstreamRepo);
    switch (tested.evidence) {
    case doctor::ShaEvidence::NotRead:
        item->setText(CheckedOutColumn, tr("log not read"));
        item->setToolTip(CheckedOutColumn, tr("Its job log has not been fetched: a sync reads "
                                              "the failed runs' logs and the newest greens'"));
        break;
    case doctor::ShaEvidence::NotShown:
        item->setText(CheckedOutColumn, tr("none shown"));
        item->setToolTip(CheckedOutColumn,
                         tr("The log shows no actions/checkout of %1: cannot judge").arg(upstream));
        break;
    case doctor::ShaEvidence::Verified:
    case doctor::ShaEvidence::Mismatched: {
        const LogCheckout& checkout = *tested.checkout;
        item->setText(
            CheckedOutColumn,
            tr("%1 (line %2)").arg(toQString(checkout.sha.substr(0, 10))).arg(checkout.line));
        if (tested.evidence == doctor::ShaEvidence::Verified) {
            item->setToolTip(
                CheckedOutColumn,
                tr("The log shows %1 checked out at the dispatched SHA").arg(upstream));
            break;
        }
        item->setToolTip(CheckedOutColumn,
                         tr("The log shows %1 checked out at %2, not at the dispatched %3")
                             .arg(upstream, toQString(checkout.sha), toQString(run.sha.value)));
        item->setForeground(CheckedOutColumn, severityColor(doctor::Severity::Error));
        break;
    }
    }
}

} // namespace relayhud::ui
