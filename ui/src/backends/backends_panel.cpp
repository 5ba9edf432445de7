#include "relayhud/ui/backends/backends_panel.h"

#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/trend_store.h"
#include "relayhud/sync/hud_sync.h"
#include "relayhud/ui/backends/doctor_panel.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/watch/watch_list.h"
#include "relayhud/util/time.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

namespace relayhud::ui {

namespace {

enum Column {
    FollowedColumn,
    BackendColumn,
    LevelColumn,
    HudRateColumn,
    OurRateColumn,
    FailuresColumn,
    RunsColumn,
    DurationColumn,
    QueueColumn,
    ExecutionColumn,
    TimeoutColumn,
    NightlyColumn,
    DailyColumn,
    DoctorColumn,
    LastRunColumn,
    OncallColumn,
    ColumnCount
};

QString percent(std::optional<double> rate)
{
    return rate ? QStringLiteral("%1 %").arg(*rate * 100.0, 0, 'f', 1) : QStringLiteral("—");
}

// The daily pass rates a bar each, for the delegate (DailyRatesRole).
// The Doctor tab's judgement of each backend (DoctorPanel::read, offline:
// the workflows as it last read them), counted the way that tab counts, so
// the two tabs never disagree.
void readDoctorSummaries(const QString& cachePath, int days, const ArtifactAccess& access,
                         BackendsData& got)
{
    const DoctorData doctor = DoctorPanel::read(cachePath, days, access, false);
    for (const doctor::BackendReport& d : doctor.backends) {
        BackendDoctorSummary summary;
        summary.runs = d.runtime.runs;
        summary.errors = d.count(doctor::Severity::Error);
        summary.warnings = d.count(doctor::Severity::Warning);
        QStringList lines;
        for (const doctor::HealthFinding& f : d.runtime.findings)
            if (f.severity != doctor::Severity::Info)
                lines << toQString(f.message);
        for (const doctor::WorkflowReport& w : d.workflows)
            for (const doctor::Finding& f : w.lint.findings)
                if (f.severity != doctor::Severity::Info)
                    lines << QStringLiteral("%1:%2: %3")
                                 .arg(toQString(w.path))
                                 .arg(f.line)
                                 .arg(toQString(f.message));
        summary.details = lines.join(u'\n');
        summary.workflows = toQString(d.workflowsNote);
        summary.runsOnly = d.workflows.empty() && !d.workflowsNote.empty();
        got.doctor.emplace(d.repo, std::move(summary));
    }
}

// What the allowlist says of a backend that is not listed at L2+. L1 is in
// the allowlist: dispatched to, but the relay takes no results from it
// (DOMAIN.md, integration levels), so "not in the allowlist" would be wrong.
QString allowlistNote(const verdict::BackendOverview& b)
{
    if (b.allowlisted)
        return {};
    if (b.level == Level::L1)
        return BackendsPanel::tr(" (L1: dispatched to, reports nothing)");
    return BackendsPanel::tr(" (not at L2+ in the allowlist)");
}

QString allowlistToolTip(const verdict::BackendOverview& b)
{
    if (b.level == Level::L1)
        return BackendsPanel::tr("The allowlist lists %1 at L1: the relay dispatches upstream "
                                 "events to it, but takes no results from it, so the HUD and "
                                 "RelayHUD show none.")
            .arg(toQString(b.repo));
    return BackendsPanel::tr("%1 reports rows, but the allowlist does not list it at L2 or above "
                             "(it was removed, demoted, or reported before it was listed). "
                             "Found through the HUD's crcr_summary, as its /crcr page finds it.")
        .arg(toQString(b.repo));
}

QVariantList dailyRates(const std::vector<DailyRate>& days)
{
    QVariantList out;
    for (const DailyRate& d : days)
        out << d.passRate;
    return out;
}

constexpr int DailyRatesRole = Qt::UserRole + 1;

// Paints a cell's DailyRatesRole as bars, 0 % at the bottom, 100 % at the
// top; a cell without rates paints its text.
class DailyRatesDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        const QVariantList rates = index.data(DailyRatesRole).toList();
        if (rates.isEmpty()) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        QStyleOptionViewItem background = option;
        initStyleOption(&background, index);
        background.text.clear();
        option.widget->style()->drawControl(QStyle::CE_ItemViewItem, &background, painter,
                                            option.widget);
        const QRectF area = QRectF(option.rect).adjusted(3, 3, -3, -3);
        const qreal step = std::min<qreal>(6.0, area.width() / static_cast<qreal>(rates.size()));
        painter->save();
        painter->setPen(Qt::NoPen);
        for (qsizetype i = 0; i < rates.size(); ++i) {
            const double rate = std::clamp(rates[i].toDouble(), 0.0, 1.0);
            const qreal h = std::max<qreal>(1.0, area.height() * rate);
            painter->setBrush(rate >= 0.95   ? QColor(0x43, 0xa0, 0x47)
                              : rate >= 0.80 ? QColor(0xf9, 0xa8, 0x25)
                                             : QColor(0xe5, 0x39, 0x35));
            painter->drawRect(QRectF(area.left() + static_cast<qreal>(i) * step, area.bottom() - h,
                                     std::max<qreal>(1.0, step - 1.0), h));
        }
        painter->restore();
    }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        const auto bars = index.data(DailyRatesRole).toList().size();
        if (bars > 0)
            size.setWidth(static_cast<int>(bars) * 6 + 6);
        return size;
    }
};

QString dailyToolTip(const std::map<std::string, std::vector<DailyRate>>& byEvent)
{
    QStringList lines;
    for (const char* event : kKeptDailyEvents) {
        const auto it = byEvent.find(event);
        if (it == byEvent.end())
            continue;
        std::int64_t successes = 0, total = 0;
        QStringList days;
        for (const DailyRate& d : it->second) {
            successes += d.successes;
            total += d.total;
            days << BackendsPanel::tr("  %1: %2 of %3 (%4 failed, %5 timed out)")
                        .arg(toQString(d.day))
                        .arg(d.successes)
                        .arg(d.total)
                        .arg(d.failures)
                        .arg(d.timedOut);
        }
        lines << BackendsPanel::tr("%1: %2 successes of %3 runs")
                     .arg(QString::fromLatin1(event))
                     .arg(successes)
                     .arg(total)
              << days;
    }
    return lines.join(u'\n');
}

QString nightlyToolTip(const NightlySummary& s)
{
    return BackendsPanel::tr("crcr_nightly_summary: %1 successes, %2 failures, %3 timed out of %4 "
                             "nightly runs (pass rate %5)\nLast run: %6\nLatest SHA: %7")
        .arg(s.successes)
        .arg(s.failures)
        .arg(s.timedOut)
        .arg(s.total)
        .arg(percent(s.passRate))
        .arg(s.lastRun ? formatShortTime(*s.lastRun) : BackendsPanel::tr("unknown"))
        .arg(s.latestSha.empty() ? BackendsPanel::tr("none") : toQString(s.latestSha));
}

QString healthColor(HealthState state)
{
    switch (state) {
    case HealthState::Healthy: return QStringLiteral("#2e7d32");
    case HealthState::Degraded: return QStringLiteral("#c62828");
    case HealthState::NoData: break;
    }
    return QStringLiteral("#808080");
}

// The HUD's own nightly and daily aggregates of a backend, or why they are
// missing.
void fillHudAggregates(QTreeWidgetItem* item, const std::string& repo, const BackendsData& got)
{
    if (const auto n = got.nightly.find(repo); n != got.nightly.end()) {
        item->setText(
            NightlyColumn,
            BackendsPanel::tr("%1 of %2").arg(percent(n->second.passRate)).arg(n->second.total));
        item->setToolTip(NightlyColumn, plainToolTip(nightlyToolTip(n->second)));
    } else {
        item->setText(NightlyColumn, got.nightlyAnswered ? BackendsPanel::tr("no nightly")
                                                         : BackendsPanel::tr("not synced"));
    }
    if (const auto d = got.daily.find(repo); d != got.daily.end()) {
        const auto pr = d->second.find("pull_request");
        if (pr == d->second.end())
            item->setText(DailyColumn, BackendsPanel::tr("no PR runs"));
        else
            item->setData(DailyColumn, DailyRatesRole, dailyRates(pr->second));
        item->setToolTip(DailyColumn, plainToolTip(dailyToolTip(d->second)));
    } else {
        item->setText(DailyColumn, got.dailyAnswered ? BackendsPanel::tr("no runs")
                                                     : BackendsPanel::tr("not synced"));
    }
}

// The doctor's judgement of a backend's runs (none: no runs to judge).
void fillDoctor(QTreeWidgetItem* item, const BackendDoctorSummary* d)
{
    const QString nothing = BackendsPanel::tr("No runs in the window: nothing to judge");
    item->setText(DoctorColumn, QStringLiteral("—"));
    item->setToolTip(DoctorColumn, nothing);
    if (!d)
        return;
    QStringList parts;
    if (d->errors)
        parts << (d->errors == 1 ? BackendsPanel::tr("1 error")
                                 : BackendsPanel::tr("%1 errors").arg(d->errors));
    if (d->warnings)
        parts << (d->warnings == 1 ? BackendsPanel::tr("1 warning")
                                   : BackendsPanel::tr("%1 warnings").arg(d->warnings));
    const QString judged = !parts.isEmpty() ? parts.join(u" · ")
                           : d->runs == 0   ? QStringLiteral("—")
                                            : BackendsPanel::tr("sound");
    item->setText(DoctorColumn, d->runsOnly ? judged + BackendsPanel::tr(" (runs only)") : judged);
    QString tip = !d->details.isEmpty() ? d->details
                  : d->runs == 0        ? nothing
                                 : BackendsPanel::tr("Nothing the doctor would change in its runs");
    if (!d->workflows.isEmpty())
        tip += BackendsPanel::tr("\n(workflows: %1)").arg(d->workflows);
    item->setToolTip(DoctorColumn, tip);
    if (d->errors)
        item->setForeground(DoctorColumn, QColor(0xd3, 0x2f, 0x2f));
    else if (d->warnings)
        item->setForeground(DoctorColumn, QColor(0xef, 0x6c, 0x00));
}

} // namespace

BackendsPanel::BackendsPanel(QWidget* parent)
    : QWidget(parent), m_relay(new QLabel(this)), m_note(new QLabel(this)),
      m_table(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("backendsPanel"));
    m_relay->setObjectName(QStringLiteral("relayHealthCard"));
    m_relay->setTextFormat(Qt::RichText);
    m_relay->setWordWrap(true);
    m_relay->setFrameShape(QFrame::StyledPanel);
    m_relay->setMargin(6);
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_table->setObjectName(QStringLiteral("backendsTable"));
    m_table->setRootIsDecorated(false);
    m_table->setAlternatingRowColors(true);
    m_table->setUniformRowHeights(true);
    m_table->setSortingEnabled(false); // worst first, as computed
    m_table->setColumnCount(ColumnCount);
    m_table->setHeaderLabels({QStringLiteral("★"), tr("Backend"), tr("Level"), tr("Pass (HUD)"),
                              tr("Pass (ours)"), tr("Failures"), tr("Runs"), tr("Duration"),
                              tr("Queue"), tr("Execution"), tr("Timeouts"), tr("Nightly (HUD)"),
                              tr("Daily (HUD)"), tr("Doctor"), tr("Last run"), tr("On-call")});
    const QStringList tips{
        tr("Followed (Watch menu)"),
        tr("The downstream repository"),
        tr("Its level in the relay's allowlist"),
        tr("The HUD's pass rate (crcr_summary): successes over every completed PR run of "
           "the window, cancelled included, every attempt counted — as the HUD's /crcr "
           "page shows it, at the last sync"),
        tr("RelayHUD's pass rate: successes over finished runs with a verdict (success, "
           "failure, cancelled, timed out), the newest attempt of each job on each "
           "upstream commit"),
        tr("Failed or timed-out runs (newest attempts)"),
        tr("Runs in the window (newest attempt of each job on each commit)"),
        tr("Average duration, as the backend reported it (started .. completed)"),
        tr("Average queue time measured by the relay (trusted), first attempts only"),
        tr("Average execution time measured by the relay (trusted), first attempts only"),
        tr("Share of finished runs that timed out (the relay's 6 h sweep included)"),
        tr("The HUD's nightly summary (crcr_nightly_summary), in its own definition: "
           "successes over every completed nightly row of the window, every attempt counted, "
           "cancelled in the total (crcr-test's expected failures are not adjusted here). "
           "Hover a cell for successes, failures, timeouts, last run and latest SHA"),
        tr("The HUD's daily pass rate of PR runs (crcr_success_rate), oldest day first, in "
           "its own definition, a bar a day (green ≥ 95 %, amber ≥ 80 %, red below): every "
           "completed row counted, cancelled in the total, crcr-test's *xfail*/*xcancel*/"
           "*xtimeout* outcomes counted as successes. Hover for "
           "the days, and for nightly, push and periodic runs (pushes appear nowhere else)"),
        tr("What the integration doctor finds in its runs: runs never completed, swept "
           "zombies, legs sharing a job name (the Doctor tab has the details and the "
           "workflows)"),
        tr("When its last finished run ended"),
        tr("On-calls named in the allowlist")};
    for (int c = 0; c < ColumnCount; ++c)
        m_table->headerItem()->setToolTip(c, tips.value(c));
    m_table->setItemDelegateForColumn(DailyColumn, new DailyRatesDelegate(m_table));
    m_table->header()->setStretchLastSection(true);
    m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_table, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit backendActivated(item->data(BackendColumn, Qt::UserRole).toString());
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_relay);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_note);
    m_relay->setText(tr("Relay health: not known yet"));
}

BackendsData BackendsPanel::read(const QString& cachePath, int days, const ArtifactAccess& access)
{
    BackendsData got;
    auto cache = Database::open(cachePath.toStdString());
    if (!cache) {
        got.error = toQString(cache.message());
        return got;
    }
    const Database& c = **cache;
    auto backends = RunStore(c).backends();
    TrendRunQuery query;
    query.since = nowSeconds() - static_cast<EpochSeconds>(days) * kSecondsPerDay;
    auto runs = TrendStore(c).trendRuns(query);
    if (!backends || !runs) {
        got.error = toQString(!backends ? backends.message() : runs.message());
        return got;
    }
    // The HUD's own aggregates the last sync kept for this window.
    KeptAggregates hud = cachedAggregates(c, days);
    got.hudAnswered = hud.reposAnswered;
    got.nightly = std::move(hud.nightly);
    got.nightlyAnswered = hud.nightlyAnswered;
    got.daily = std::move(hud.daily);
    got.dailyAnswered = hud.dailyAnswered;
    std::vector<Backend> shown;
    for (const Backend& b : *backends)
        if (b.repo != kProbeRepo)
            shown.push_back(b);
    std::vector<TrendRun> kept;
    for (TrendRun& r : *runs)
        if (r.repo != kProbeRepo)
            kept.push_back(std::move(r));
    got.backends = verdict::backendOverviews(shown, kept, hud.repos);
    readDoctorSummaries(cachePath, days, access, got);
    got.relay = cachedRelayHealth(c);
    return got;
}

void BackendsPanel::load(const QString& cachePath, int days, const ArtifactAccess& access)
{
    const quint64 request = ++m_request;
    m_loading = true;
    QtConcurrent::run(&BackendsPanel::read, cachePath, days, access)
        .then(this, [this, request](const BackendsData& got) {
            if (request != m_request)
                return;
            m_loading = false;
            showLoaded(got);
        });
}

void BackendsPanel::setFollowed(const QSet<QString>& keys)
{
    m_followed = keys;
    for (int i = 0; i < m_table->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_table->topLevelItem(i);
        const QString repo = item->data(BackendColumn, Qt::UserRole).toString();
        item->setText(FollowedColumn,
                      m_followed.contains(backendKey(repo)) ? QStringLiteral("★") : QString());
    }
}

QString BackendsPanel::relayText() const { return m_relay->text(); }

void BackendsPanel::fillRelay(const BackendsData& got)
{
    if (!got.relay) {
        m_relay->setText(tr("<b>Relay health</b>: not reported yet (the HUD's probe repo %1 has "
                            "not been synced)")
                             .arg(QString::fromLatin1(kProbeRepo)));
        return;
    }
    const RelayHealth& h = *got.relay;
    m_relay->setText(
        tr("<span style='color:%1'>●</span> <b>Relay %2</b> — %3<br><small>From the relay's "
           "probe repo %4: its last PRs and nightlies, judged as the HUD's /crcr page "
           "does.</small>")
            .arg(healthColor(h.overall()), toQString(toString(h.overall())).toHtmlEscaped(),
                 toQString(h.summary()).toHtmlEscaped(), QString::fromLatin1(kProbeRepo)));
}

void BackendsPanel::showLoaded(const BackendsData& got)
{
    m_table->clear();
    fillRelay(got);
    if (!got.error.isEmpty()) {
        m_note->setText(tr("Cannot read the cache: %1").arg(got.error));
        emit loaded(0);
        return;
    }
    for (const verdict::BackendOverview& b : got.backends) {
        auto* item = new QTreeWidgetItem(m_table);
        const QString repo = toQString(b.repo);
        item->setData(BackendColumn, Qt::UserRole, repo);
        item->setText(FollowedColumn,
                      m_followed.contains(backendKey(repo)) ? QStringLiteral("★") : QString());
        item->setText(BackendColumn, repo + allowlistNote(b));
        item->setText(LevelColumn, levelLabel(b.level));
        item->setText(HudRateColumn, b.hudPassRate ? percent(b.hudPassRate) : tr("not reported"));
        item->setText(OurRateColumn, percent(b.passRate));
        item->setText(FailuresColumn, QString::number(b.failed));
        item->setText(RunsColumn,
                      b.running > 0 ? tr("%1 (+%2 running)").arg(b.runs - b.running).arg(b.running)
                                    : QString::number(b.runs));
        item->setText(DurationColumn, b.avgDurationSeconds ? formatDuration(b.avgDurationSeconds)
                                                           : tr("not reported"));
        item->setText(QueueColumn, formatDuration(b.avgQueueSeconds));
        item->setText(ExecutionColumn, formatDuration(b.avgExecutionSeconds));
        item->setText(TimeoutColumn, b.completed ? percent(b.timeoutRate()) : QStringLiteral("—"));
        fillHudAggregates(item, b.repo, got);
        const auto doctor = got.doctor.find(b.repo);
        fillDoctor(item, doctor == got.doctor.end() ? nullptr : &doctor->second);
        item->setText(LastRunColumn, b.lastRun ? formatShortTime(*b.lastRun) : tr("none"));
        QStringList oncalls;
        for (const std::string& o : b.oncalls)
            oncalls << toQString(o);
        item->setText(OncallColumn, oncalls.join(QStringLiteral(", ")));
        for (int c : {HudRateColumn, OurRateColumn, FailuresColumn, RunsColumn, DurationColumn,
                      QueueColumn, ExecutionColumn, TimeoutColumn, NightlyColumn})
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(BackendColumn,
                         (b.allowlisted ? repo : allowlistToolTip(b))
                             % tr("\nDouble-click or Enter: its columns in the matrix"));
        if (b.passRate && *b.passRate < 0.8)
            item->setForeground(OurRateColumn, QColor(0xc6, 0x28, 0x28));
    }
    m_note->setText(
        got.hudAnswered
            ? tr("Worst first. Pass (HUD) is the HUD's own number; Pass (ours) counts "
                 "the newest attempt per job and commit; Nightly (HUD) and Daily (HUD) are the "
                 "HUD's own aggregates, in its definitions. Hover the headers.")
            : tr("Worst first. The HUD's own pass rates are not known for this window "
                 "yet (sync first)."));
    emit loaded(static_cast<int>(got.backends.size()));
}

} // namespace relayhud::ui
