#include "relayhud/ui/details/run_details_panel.h"

#include "relayhud/triage/attribution.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/details/attempts_model.h"
#include "relayhud/ui/details/link_label.h"
#include "relayhud/ui/details/state_delegate.h"
#include "relayhud/ui/details/state_tile.h"
#include "relayhud/util/time.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTableView>

#include <algorithm>

namespace relayhud::ui {

namespace {

QLabel* plainLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

// The counts, named for what they count where that is known (model/count_kind.h).
QString testsSummary(const CheckRun& run)
{
    const QString kind = countKindNote(run.downstreamRepo);
    if (!run.reported.tests)
        return kind.isEmpty() ? RunDetailsPanel::tr("not reported")
                              : RunDetailsPanel::tr("not reported (its counts are %1)").arg(kind);
    const TestCounts& t = *run.reported.tests;
    const QString counts = RunDetailsPanel::tr("%1 passed · %2 failed · %3 skipped · %4 total")
                               .arg(t.passed)
                               .arg(t.failed)
                               .arg(t.skipped)
                               .arg(t.total);
    return kind.isEmpty() ? counts : QString(counts % u" (" % kind % u')');
}

QString seconds(const std::optional<double>& value)
{
    return value ? formatDuration(value) : RunDetailsPanel::tr("not measured");
}

// A nightly's "SHA" is the downstream's delivery-id: a pytorch main commit
// (the one its nightly was cut from, or main's HEAD), or free text that is
// no commit at all (../shared/specs/real-backends.md section 2; R6).
QString shaText(const RunDetails& details)
{
    const CheckRun& run = details.run;
    const QString sha = toQString(run.upstreamSha.value);
    if (run.eventType != EventType::Nightly && run.eventType != EventType::Periodic)
        return sha;
    return isUpstreamCommit(run.upstreamSha.value)
               ? RunDetailsPanel::tr("%1 (main)").arg(sha)
               : RunDetailsPanel::tr("%1 (not an upstream commit)").arg(sha);
}

// The commit the run really tested, where its log or names say, beside the
// row's (a merged PR's build of its base's HEAD; real-backends.md 3.1).
QString testedText(const RunDetails& details)
{
    if (!details.tested)
        return RunDetailsPanel::tr("not shown by its log or names (the row's commit)");
    const CheckRun& run = details.run;
    const std::string line =
        testedCommitText(*details.tested, run.upstreamSha, run.prNumber,
                         details.commit && run.prNumber.value > 0 ? details.commit->branch : "");
    return RunDetailsPanel::tr("%1 (from its %2)")
        .arg(toQString(line), toQString(testedCommitSourceName(details.tested->source)));
}

} // namespace

RunDetailsPanel::RunDetailsPanel(QWidget* parent)
    : QWidget(parent), m_stack(new QStackedWidget(this)), m_message(new QLabel(this)),
      m_attempts(new AttemptsModel(this))
{
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    m_message->setMargin(16);
    m_stack->addWidget(m_message);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(buildContent());
    m_stack->addWidget(scroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    showMessage(tr("Select a cell to see its run."));
}

QWidget* RunDetailsPanel::buildContent()
{
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(10, 8, 10, 10);
    layout->setSpacing(4);
    layout->addWidget(buildHeading());

    QFormLayout* run = addSection(*layout, tr("Run"));
    addField(*run, BackendField, tr("Backend"));
    addField(*run, LevelField, tr("Level"));
    addField(*run, WorkflowField, tr("Workflow"));
    addField(*run, JobField, tr("Job"));
    addField(*run, ShaField, tr("SHA"));
    addField(*run, TestedField, tr("Tested"));
    addField(*run, PrField, tr("PR"));
    addField(*run, EventField, tr("Event"));
    addField(*run, BranchField, tr("Branch"));
    m_fields[ShaField]->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    QFormLayout* reported = addSection(*layout, tr("Self-reported"),
                                       tr("The backend's own claim, not verified by the relay"));
    addField(*reported, StatusField, tr("Status"));
    addField(*reported, ConclusionField, tr("Conclusion"));
    addField(*reported, TestsField, tr("Tests"));
    addField(*reported, StartedField, tr("Started"));
    addField(*reported, CompletedField, tr("Completed"));
    addField(*reported, DurationField, tr("Duration"));

    QFormLayout* trusted = addSection(*layout, tr("Trusted (relay-measured)"));
    addField(*trusted, QueueTimeField, tr("Queue time"));
    addField(*trusted, ExecutionTimeField, tr("Execution time"));

    QFormLayout* attempts = addSection(*layout, tr("Attempts"),
                                       tr("Results and test counts as the backend reported them"));
    m_attemptsView = new QTableView(content);
    m_attemptsView->setObjectName(QStringLiteral("attemptsView"));
    m_attemptsView->setModel(m_attempts);
    m_attemptsView->setItemDelegate(
        new StateDelegate(AttemptsModel::CellStateRole, m_attemptsView));
    m_attemptsView->verticalHeader()->hide();
    m_attemptsView->verticalHeader()->setDefaultSectionSize(20);
    m_attemptsView->horizontalHeader()->setStretchLastSection(true);
    m_attemptsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_attemptsView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_attemptsView->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_attemptsView->setWordWrap(false);
    m_attemptsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attemptsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attemptsView->setShowGrid(false);
    m_attemptsView->setAlternatingRowColors(true);
    connect(m_attemptsView, &QTableView::activated, this, [this](const QModelIndex& index) {
        emit linkActivated(QUrl(index.data(AttemptsModel::RunUrlRole).toString()));
    });
    attempts->addRow(m_attemptsView);

    QFormLayout* links = addSection(*layout, tr("Links"));
    addLink(*links, RunLink, tr("Run"));
    addLink(*links, ArtifactLink, tr("Artifacts"));
    addLink(*links, HudLink, tr("HUD"));
    addLink(*links, CompareLink, tr("Compare"));
    addLink(*links, PullRequestLink, tr("Pull request"));
    layout->addStretch(1);
    return content;
}

QWidget* RunDetailsPanel::buildHeading()
{
    auto* heading = new QWidget;
    auto* layout = new QVBoxLayout(heading);
    layout->setContentsMargins(0, 0, 0, 4);
    layout->setSpacing(2);
    m_title = plainLabel(heading);
    m_title->setObjectName(QStringLiteral("detailsTitle"));
    QFont big = m_title->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_title->setFont(big);
    m_subtitle = plainLabel(heading);
    m_subtitle->setForegroundRole(QPalette::PlaceholderText);
    auto* stateRow = new QHBoxLayout;
    stateRow->setSpacing(6);
    m_stateTile = new StateTile(heading);
    m_stateText = plainLabel(heading);
    m_stateText->setWordWrap(false);
    stateRow->addWidget(m_stateTile);
    stateRow->addWidget(m_stateText, 1);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);
    layout->addLayout(stateRow);
    return heading;
}

QFormLayout* RunDetailsPanel::addSection(QVBoxLayout& layout, const QString& title,
                                         const QString& note)
{
    auto* caption = new QLabel(title);
    QFont bold = caption->font();
    bold.setBold(true);
    caption->setFont(bold);
    caption->setContentsMargins(0, 8, 0, 0);
    layout.addWidget(caption);
    if (!note.isEmpty()) {
        auto* hint = new QLabel(note);
        hint->setWordWrap(true);
        hint->setForegroundRole(QPalette::PlaceholderText);
        layout.addWidget(hint);
    }
    auto* form = new QFormLayout;
    form->setContentsMargins(8, 2, 0, 0);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(3);
    form->setLabelAlignment(Qt::AlignRight);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout.addLayout(form);
    return form;
}

void RunDetailsPanel::addField(QFormLayout& form, Field field, const QString& label)
{
    QLabel* value = plainLabel(nullptr);
    m_fields[static_cast<std::size_t>(field)] = value;
    auto* name = new QLabel(label);
    name->setForegroundRole(QPalette::PlaceholderText);
    form.addRow(name, value);
}

void RunDetailsPanel::addLink(QFormLayout& form, Link link, const QString& label)
{
    auto* value = new LinkLabel;
    m_links[static_cast<std::size_t>(link)] = value;
    connect(value, &LinkLabel::activated, this, &RunDetailsPanel::linkActivated);
    auto* name = new QLabel(label);
    name->setForegroundRole(QPalette::PlaceholderText);
    form.addRow(name, value);
}

void RunDetailsPanel::showMessage(const QString& message)
{
    m_message->setText(message);
    m_stack->setCurrentIndex(0);
}

bool RunDetailsPanel::hasDetails() const { return m_stack->currentIndex() == 1; }

QString RunDetailsPanel::fieldText(Field field) const
{
    return m_fields[static_cast<std::size_t>(field)]->text();
}

QUrl RunDetailsPanel::linkUrl(Link link) const
{
    return m_links[static_cast<std::size_t>(link)]->url();
}

QString RunDetailsPanel::titleText() const { return m_title->text(); }

QString RunDetailsPanel::stateText() const { return m_stateText->text(); }

void RunDetailsPanel::setField(Field field, const QString& text)
{
    m_fields[static_cast<std::size_t>(field)]->setText(text.isEmpty() ? QStringLiteral("—") : text);
}

void RunDetailsPanel::showDetails(const RunDetails& details, const RunLinks& links)
{
    m_shownRowId = details.rowId;
    fillRun(details);
    fillSelfReported(details.run);
    fillTiming(details.run);
    fillLinks(details, links);
    m_attempts->setAttempts(details.attempts);
    const int rows = m_attempts->rowCount();
    m_attemptsView->setFixedHeight(m_attemptsView->horizontalHeader()->sizeHint().height()
                                   + 20 * std::min(rows, 6) + 2 * m_attemptsView->frameWidth());
    m_stack->setCurrentIndex(1);
}

void RunDetailsPanel::fillRun(const RunDetails& details)
{
    const CheckRun& run = details.run;
    const CellState reported =
        cellStateOf(run.reported.status, run.reported.conclusion, run.isStale(nowSeconds()));
    // Not a green, whatever the callback said (real-backends.md 3.2).
    const CellState state = reported == CellState::Success && details.testsFailed
                                ? CellState::SuccessTestsFailed
                                : reported;
    m_title->setText(toQString(run.jobName));
    m_subtitle->setText(toQString(run.downstreamRepo) % u" · " % toQString(run.workflow));
    m_stateTile->setState(state);
    m_stateText->setText(cellStateText(state) % u"  ·  "
                         % tr("attempt %1 of %2")
                               .arg(run.runAttempt)
                               .arg(std::max<std::size_t>(1, details.attempts.size())));
    setField(BackendField, toQString(run.downstreamRepo));
    // Only crcr_hud_results says the level the relay verified at dispatch
    // (L3/L4 runs); otherwise it is the backend's allowlist level now (R7).
    setField(LevelField,
             details.level == Level::Unknown ? QString()
             : run.trusted.levelAtDispatch
                 ? tr("%1 (verified by the relay at dispatch)").arg(levelLabel(details.level))
                 : tr("%1 (allowlist level now)").arg(levelLabel(details.level)));
    setField(WorkflowField, toQString(run.workflow));
    setField(JobField, toQString(run.jobName));
    setField(ShaField, shaText(details));
    setField(TestedField, testedText(details));
    setField(PrField,
             run.prNumber.value > 0 ? u"#" % QString::number(run.prNumber.value) : QString());
    setField(EventField, toQString(toString(run.eventType)));
    const QString branch = details.commit ? toQString(details.commit->branch) : QString();
    // The HUD's rows name no branch for a PR (hud-read-api.md section 4).
    setField(BranchField, !branch.isEmpty() ? branch
                          : run.prNumber.value > 0
                              ? tr("not reported (the HUD's rows name no branch for a PR)")
                              : tr("not reported"));
}

void RunDetailsPanel::fillSelfReported(const CheckRun& run)
{
    setField(StatusField, toQString(toString(run.reported.status)));
    setField(ConclusionField, run.reported.conclusionText.empty()
                                  ? toQString(toString(run.reported.conclusion))
                                  : tr("\"%1\" (as reported; not a conclusion RelayHUD knows)")
                                        .arg(toQString(run.reported.conclusionText)));
    setField(TestsField, testsSummary(run));
}

void RunDetailsPanel::fillTiming(const CheckRun& run)
{
    setField(StartedField, formatLongTime(run.reported.startedAt));
    setField(CompletedField, formatLongTime(run.reported.completedAt));
    setField(DurationField, runDuration(run) ? formatDuration(runDuration(run))
                            : run.reported.completedAt
                                ? tr("not reported (one callback, no start time)")
                                : formatDuration(std::nullopt));
    // The relay measures a rerun's queue time from the first dispatch (its
    // README: "use run_attempt to decide if trustworthy"; R9).
    setField(QueueTimeField, run.runAttempt >= 2 && run.trusted.queueTimeSeconds
                                 ? tr("%1 since the first dispatch (not this attempt's wait)")
                                       .arg(seconds(run.trusted.queueTimeSeconds))
                                 : seconds(run.trusted.queueTimeSeconds));
    setField(ExecutionTimeField, seconds(run.trusted.executionTimeSeconds));
}

void RunDetailsPanel::fillLinks(const RunDetails& details, const RunLinks& links)
{
    m_links[RunLink]->setUrl(links.run);
    m_links[ArtifactLink]->setUrl(links.artifacts);
    m_links[HudLink]->setUrl(links.hudPage);
    const QString compareCaption = details.previous
                                       ? toQString(details.previous->sha.shortSha()) % u"…"
                                             % toQString(details.run.upstreamSha.shortSha())
                                       : QString();
    m_links[CompareLink]->setUrl(links.compare, compareCaption);
    m_links[PullRequestLink]->setUrl(links.pullRequest,
                                     details.run.prNumber.value > 0
                                         ? u"#" % QString::number(details.run.prNumber.value)
                                         : QString());
}

} // namespace relayhud::ui
