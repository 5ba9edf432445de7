#include "relayhud/ui/coverage/coverage_panel.h"

#include "bucket_table.h"

#include "relayhud/store/database.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/coverage/op_dtype_heatmap.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/cell_style.h"

#include <QEvent>
#include <QFileInfo>
#include <QFrame>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace relayhud::ui {

namespace {

using verdict::Verdict;

struct Judged {
    std::shared_ptr<const verdict::RunVerdict> verdict;
    QString error;
};

Judged judge(const std::string& cachePath, CheckRunRow rowId,
             const verdict::VerdictSources& sources)
{
    auto cache = Database::open(cachePath);
    if (!cache)
        return {nullptr, toQString(cache.message())};
    auto v = verdict::verdictForRun(**cache, rowId, sources);
    if (!v)
        return {nullptr, toQString(v.message())};
    return {std::make_shared<const verdict::RunVerdict>(std::move(*v)), {}};
}

// The banner borrows the matrix's state colours, so a verdict looks like the
// cell it explains; unverified greens get an amber of their own.
CellState bannerState(Verdict v)
{
    switch (v) {
    case Verdict::VerifiedGreen: return CellState::Success;
    case Verdict::Red: return CellState::Failure;
    case Verdict::Pending: return CellState::InProgress;
    case Verdict::Stale: return CellState::Stale;
    case Verdict::Inconclusive: return CellState::Cancelled;
    default: return CellState::TimedOut; // the amber "needs a look" tile
    }
}

QString verdictTitle(Verdict v)
{
    QString name = QString::fromUtf8(verdict::verdictName(v));
    if (!name.isEmpty())
        name[0] = name[0].toUpper();
    return name;
}

QString htmlEscaped(const std::string& text) { return toQString(text).toHtmlEscaped(); }

enum ItemRole { ConfigNameRole = Qt::UserRole, ConfigLineRole, IdentityRole };

QLabel* sectionLabel(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    label->setFont(f);
    label->setContentsMargins(0, 8, 0, 2);
    return label;
}

} // namespace

CoveragePanel::CoveragePanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("coveragePanel"));
    m_stack = new QStackedWidget(this);
    m_message = new QLabel(this);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    m_message->setObjectName(QStringLiteral("coverageMessage"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(buildContent());
    m_stack->addWidget(m_message);
    m_stack->addWidget(scroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    setMessage(tr("Select a cell to see what its run covered."));
}

QWidget* CoveragePanel::buildContent()
{
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(4);
    layout->addWidget(buildBanner(content));

    layout->addWidget(sectionLabel(tr("Checks"), content));
    m_checks = new QLabel(content);
    m_checks->setObjectName(QStringLiteral("verdictChecks"));
    m_checks->setTextFormat(Qt::RichText);
    m_checks->setWordWrap(true);
    m_checks->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_checks);

    layout->addWidget(sectionLabel(tr("Declared against ran"), content));
    layout->addWidget(buildBuckets(content));
    m_bucketsNote = new QLabel(content);
    m_bucketsNote->setObjectName(QStringLiteral("bucketsNote"));
    m_bucketsNote->setWordWrap(true);
    m_bucketsNote->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_bucketsNote);

    layout->addWidget(sectionLabel(tr("Tests behind the verdict"), content));
    layout->addWidget(buildTests(content));

    layout->addWidget(sectionLabel(tr("Ops × dtypes"), content));
    m_heatmapNote = new QLabel(content);
    m_heatmapNote->setWordWrap(true);
    m_heatmapNote->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_heatmapNote);
    m_heatmap = new OpDtypeHeatmap(content);
    layout->addWidget(m_heatmap, 0, Qt::AlignLeft);
    layout->addStretch(1);
    return content;
}

// The verdict's banner: its title, a subtitle and the reasons.
QFrame* CoveragePanel::buildBanner(QWidget* content)
{
    m_bannerFrame = new QFrame(content);
    m_bannerFrame->setObjectName(QStringLiteral("verdictBanner"));
    m_bannerFrame->setAutoFillBackground(true);
    auto* banner = new QVBoxLayout(m_bannerFrame);
    banner->setContentsMargins(10, 8, 10, 8);
    m_title = new QLabel(m_bannerFrame);
    m_title->setObjectName(QStringLiteral("verdictTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_subtitle = new QLabel(m_bannerFrame);
    m_subtitle->setWordWrap(true);
    m_subtitle->setTextFormat(Qt::PlainText);
    m_reasons = new QLabel(m_bannerFrame);
    m_reasons->setObjectName(QStringLiteral("verdictReasons"));
    m_reasons->setWordWrap(true);
    m_reasons->setTextFormat(Qt::RichText);
    m_reasons->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner->addWidget(m_title);
    banner->addWidget(m_subtitle);
    banner->addWidget(m_reasons);
    return m_bannerFrame;
}

// Declared against ran: a fixed table, no selection, no scrolling.
QTableWidget* CoveragePanel::buildBuckets(QWidget* content)
{
    m_buckets = new QTableWidget(0, 5, content);
    m_buckets->setObjectName(QStringLiteral("bucketTable"));
    setUpBucketTable(*m_buckets);
    m_buckets->verticalHeader()->hide();
    m_buckets->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_buckets->setSelectionMode(QAbstractItemView::NoSelection);
    m_buckets->setFocusPolicy(Qt::NoFocus);
    m_buckets->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_buckets->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return m_buckets;
}

// The tests behind the verdict, each opening its place.
QTreeWidget* CoveragePanel::buildTests(QWidget* content)
{
    m_tests = new QTreeWidget(content);
    m_tests->setObjectName(QStringLiteral("verdictTests"));
    m_tests->setHeaderHidden(true);
    m_tests->setColumnCount(2);
    m_tests->setRootIsDecorated(true);
    m_tests->setUniformRowHeights(true);
    m_tests->setMinimumHeight(120);
    m_tests->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tests->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tests->header()->setStretchLastSection(false);
    // One click opens an item; Enter too. A double click's activation is
    // left out: its first click already opened it.
    connect(m_tests, &QTreeWidget::itemClicked, this, &CoveragePanel::onItemActivated);
    connect(m_tests, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (QGuiApplication::mouseButtons() == Qt::NoButton)
            onItemActivated(item);
    });
    return m_tests;
}

void CoveragePanel::setSources(verdict::VerdictSources sources)
{
    m_sources = std::move(sources);
    if (m_rowId)
        refresh();
}

void CoveragePanel::setMessage(const QString& message)
{
    ++m_request; // an answer still on its way is for another run
    m_shown.reset();
    m_message->setText(message);
    m_stack->setCurrentIndex(0);
}

void CoveragePanel::showRun(CheckRunRow rowId)
{
    m_rowId = rowId;
    if (!rowId) {
        setMessage(tr("No run here."));
        return;
    }
    const std::uint64_t request = ++m_request;
    if (!m_shown || m_shown->checkRunRow != rowId) {
        m_message->setText(tr("Judging the run…"));
        m_stack->setCurrentIndex(0);
    }
    QtConcurrent::run(judge, m_cachePath, rowId, m_sources)
        .then(this, [this, request, rowId](const Judged& judged) {
            if (request != m_request)
                return;
            if (!judged.verdict) {
                m_message->setText(tr("Cannot judge this run: %1").arg(judged.error));
                m_stack->setCurrentIndex(0);
                return;
            }
            m_shown = judged.verdict;
            showVerdict(*m_shown);
            emit verdictShown(rowId);
        });
}

void CoveragePanel::showVerdict(const verdict::RunVerdict& v)
{
    if (!m_shown || m_shown.get() != &v)
        m_shown = std::make_shared<const verdict::RunVerdict>(v);
    auto config = m_sources.configByRepo.find(v.run.downstreamRepo);
    m_configPath = config != m_sources.configByRepo.end() ? toQString(config->second) : QString();
    fillBanner(v);
    fillChecks(v);
    fillBuckets(v);
    fillTests(v);
    fillHeatmap(v);
    m_stack->setCurrentIndex(1);
}

void CoveragePanel::fillBanner(const verdict::RunVerdict& v)
{
    m_title->setText(verdictTitle(v.verdict));
    QString sub = toQString(v.run.downstreamRepo) % u" · " % toQString(v.run.workflow) % u" / "
                  % toQString(v.run.jobName) % u" · " % toQString(v.run.upstreamSha.shortSha());
    if (v.run.runAttempt > 1)
        sub += tr(" · attempt %1").arg(v.run.runAttempt);
    sub += u'\n'
           % (m_configPath.isEmpty() ? tr("No outcome config set for this backend (Settings › "
                                          "Coverage).")
                                     : tr("Judged against %1").arg(m_configPath));
    m_subtitle->setText(sub);
    QString reasons;
    for (const std::string& reason : v.reasons)
        reasons += u"<li>" % htmlEscaped(reason) % u"</li>";
    m_reasons->setText(
        reasons.isEmpty() ? QString() : u"<ul style=\"margin-left:-24px\">" % reasons % u"</ul>");
    m_reasons->setVisible(!reasons.isEmpty());
    recolourBanner();
}

void CoveragePanel::recolourBanner()
{
    if (!m_shown)
        return;
    const CellColors colors = cellColors(bannerState(m_shown->verdict), palette());
    QPalette pal = m_bannerFrame->palette();
    pal.setColor(QPalette::Window, colors.fill);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text})
        pal.setColor(role, colors.glyph);
    m_bannerFrame->setPalette(pal);
    for (QLabel* label : {m_title, m_subtitle, m_reasons})
        label->setPalette(pal);
}

void CoveragePanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        recolourBanner();
    QWidget::changeEvent(event);
}

void CoveragePanel::fillChecks(const verdict::RunVerdict& v)
{
    // Text colours readable on the window in either palette: the matrix's
    // failure red, and its success glyph green (its fill is too pale).
    const QColor fail = cellColors(CellState::Failure, palette()).fill;
    const QColor pass = cellColors(CellState::Success, palette()).glyph;
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\">");
    for (const verdict::ConsistencyCheck& check : v.checks) {
        const QString state = QString::fromUtf8(verdict::checkStateName(check.state));
        QString chip = state.toHtmlEscaped();
        if (check.state == verdict::CheckState::Fail)
            chip = u"<b style=\"color:" % fail.name() % u"\">" % chip % u"</b>";
        else if (check.state == verdict::CheckState::Pass)
            chip = u"<span style=\"color:" % pass.name() % u"\">✓ " % chip % u"</span>";
        else
            chip = u"<i>" % chip % u"</i>";
        html += u"<tr><td style=\"padding-right:8px\" nowrap>"
                % QString::fromUtf8(verdict::checkKindName(check.kind)).toHtmlEscaped()
                % u"</td><td style=\"padding-right:8px\" nowrap>" % chip % u"</td><td>"
                % htmlEscaped(check.sentence) % u"</td></tr>";
    }
    html += QStringLiteral("</table>");
    m_checks->setText(html);
}

void CoveragePanel::fillBuckets(const verdict::RunVerdict& v)
{
    m_buckets->setRowCount(0);
    if (!v.configCoverage) {
        m_buckets->hide();
        m_bucketsNote->setText(
            v.testRun ? tr("No usable config: nothing to compare what ran with.")
                      : tr("No test results: the run's artifacts were not fetched or are gone."));
        return;
    }
    m_buckets->show();
    fillBucketTable(*m_buckets, *v.configCoverage);
    QStringList lines = bucketSentences(*v.configCoverage);
    lines << tr("%L1 cases executed. Skip entries are deleted before collection and never "
                "appear.")
                 .arg(v.executed);
    m_bucketsNote->setText(lines.join(u'\n'));
}

void CoveragePanel::fillTests(const verdict::RunVerdict& v)
{
    m_tests->clear();
    m_missingGroup = nullptr;
    if (!v.configCoverage) {
        auto* none = new QTreeWidgetItem(m_tests, {tr("Nothing to list without a config and "
                                                      "test results.")});
        none->setFlags(Qt::ItemIsEnabled);
        return;
    }
    const verdict::ConfigCoverage& c = *v.configCoverage;
    auto group = [this](const QString& title, std::size_t count) {
        auto* item = new QTreeWidgetItem(m_tests, {title, QString::number(count)});
        QFont f = item->font(0);
        f.setBold(true);
        item->setFont(0, f);
        item->setFlags(Qt::ItemIsEnabled);
        return item;
    };
    const QString configName = QFileInfo(m_configPath).fileName();
    if (!c.mandatoryNotRun.empty()) {
        m_missingGroup = group(tr("Mandatory tests that did not run"), c.mandatoryNotRun.size());
        for (const verdict::MissingTest& missing : c.mandatoryNotRun) {
            const QString where = toQString(missing.file).section(u'/', -1) % u"  ·  " % configName
                                  % u':' % QString::number(missing.line);
            auto* item = new QTreeWidgetItem(
                m_missingGroup,
                {toQString(missing.name), missing.skipped ? tr("skipped · %1").arg(where) : where});
            item->setData(0, ConfigNameRole, toQString(missing.name));
            item->setData(0, ConfigLineRole, static_cast<int>(missing.line));
            item->setToolTip(0, tr("Open this entry in the outcome config editor"));
        }
        m_missingGroup->setExpanded(true);
    }
    auto identities = [&](const QString& title, const std::vector<std::string>& list) {
        if (list.empty())
            return;
        QTreeWidgetItem* g = group(title, list.size());
        for (const std::string& identity : list) {
            auto* item = new QTreeWidgetItem(g, {toQString(identity)});
            item->setData(0, IdentityRole, toQString(identity));
            item->setToolTip(0, tr("Select this test in the Tests tab"));
        }
        g->setExpanded(list.size() <= 20);
    };
    identities(tr("Mandatory tests that did not pass"), c.mandatoryNotPassed);
    identities(tr("Strict xfails that passed (promote them)"), c.strictXpassed);
    if (!c.unknown.empty()) {
        QTreeWidgetItem* g = group(tr("Tests the config cannot account for"), c.unknown.size());
        for (const verdict::UnknownTest& unknown : c.unknown) {
            auto* item =
                new QTreeWidgetItem(g, {toQString(unknown.identity), toQString(unknown.why)});
            item->setData(0, IdentityRole, toQString(unknown.identity));
        }
        g->setExpanded(c.unknown.size() <= 20);
    }
    identities(tr("Unlisted tests decided by unlisted_test_mode"), c.unlistedRan);
    fillListings(c, configName, group);
    if (m_tests->topLevelItemCount() == 0) {
        auto* none = new QTreeWidgetItem(m_tests, {tr("Every declared test ran as its mode "
                                                      "expects.")});
        none->setFlags(Qt::ItemIsEnabled);
    }
}

// How the config decided the cases: each listing with what it decided, a
// regex with the tests it matched (torch-spyre reads a name with regex
// characters as a Python regex, fullmatched against the method).
void CoveragePanel::fillListings(
    const verdict::ConfigCoverage& c, const QString& configName,
    const std::function<QTreeWidgetItem*(const QString&, std::size_t)>& group)
{
    if (c.decidedBy.empty())
        return;
    QTreeWidgetItem* g = group(tr("Config entries that decided the tests"), c.decidedBy.size());
    for (const verdict::ListingUse& use : c.decidedBy) {
        const QString where = toQString(use.file).section(u'/', -1) % u"  ·  " % configName % u':'
                              % QString::number(use.line);
        const QString counts =
            tr("%1 · %n case(s), %2 passed", nullptr, static_cast<int>(use.cases))
                .arg(toQString(use.mode))
                .arg(use.passed);
        auto* item = new QTreeWidgetItem(g, {toQString(use.name), counts % u"  ·  " % where});
        item->setData(0, ConfigNameRole, toQString(use.name));
        item->setData(0, ConfigLineRole, static_cast<int>(use.line));
        item->setToolTip(0, toQString(use.name) % u"\n"
                                % (use.regex ? tr("A regular expression: it decides every method "
                                                  "it fullmatches that no exact listing names, "
                                                  "whatever the class. Click to open it in the "
                                                  "outcome config editor.")
                                             : tr("Click to open this entry in the outcome config "
                                                  "editor.")));
        if (use.regex) {
            QFont f = item->font(0);
            f.setItalic(true);
            item->setFont(0, f);
        }
        for (const std::string& identity : use.examples) {
            auto* example = new QTreeWidgetItem(item, {toQString(identity)});
            example->setData(0, IdentityRole, toQString(identity));
            example->setToolTip(0, tr("Select this test in the Tests tab"));
        }
    }
    g->setExpanded(true);
}

void CoveragePanel::fillHeatmap(const verdict::RunVerdict& v)
{
    const verdict::OpDtypeCoverage& cov = v.coverage;
    m_heatmap->setCoverage(cov);
    m_heatmap->setVisible(!m_heatmap->isEmpty());
    if (m_heatmap->isEmpty()) {
        m_heatmapNote->setText(tr("No case carries op or dtype marks."));
        return;
    }
    QString note = tr("Cell: cases that ran (passed/ran where some failed), coloured by the "
                      "share that passed.");
    if (cov.hasSupportedLists)
        note += u' '
                % tr("Struck through: supported by the config, never ran. Italics: ran, not "
                     "supported.");
    if (cov.unmarkedCases > 0)
        note +=
            u' '
            % tr("%n case(s) carry neither mark.", nullptr, static_cast<int>(cov.unmarkedCases));
    m_heatmapNote->setText(note);
}

void CoveragePanel::onItemActivated(QTreeWidgetItem* item)
{
    if (!item)
        return;
    const QString name = item->data(0, ConfigNameRole).toString();
    if (!name.isEmpty()) {
        emit missingTestActivated(m_configPath, name, item->data(0, ConfigLineRole).toInt());
        return;
    }
    const QString identity = item->data(0, IdentityRole).toString();
    if (!identity.isEmpty())
        emit testActivated(identity);
}

} // namespace relayhud::ui
