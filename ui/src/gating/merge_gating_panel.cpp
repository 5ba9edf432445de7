#include "relayhud/ui/gating/merge_gating_panel.h"

#include "relayhud/store/database.h"
#include "relayhud/ui/common/format.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace relayhud::ui {

using namespace verdict;
using namespace Qt::StringLiterals;

namespace {

QLabel* gatingLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QTreeWidget* gatingTable(QWidget* parent, const QStringList& headers)
{
    auto* t = new QTreeWidget(parent);
    t->setRootIsDecorated(false);
    t->setAlternatingRowColors(true);
    t->setUniformRowHeights(true);
    t->setColumnCount(static_cast<int>(headers.size()));
    t->setHeaderLabels(headers);
    t->header()->setStretchLastSection(true);
    t->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->setMinimumHeight(90);
    return t;
}

QString levelText(const JudgedLevel& l)
{
    if (l.level == Level::Unknown)
        return l.source == LevelSource::AllowlistNow ? MergeGatingPanel::tr("below L2 now")
                                                     : MergeGatingPanel::tr("unknown");
    return MergeGatingPanel::tr("%1 (%2)").arg(levelLabel(l.level),
                                               QString::fromUtf8(levelSourceName(l.source)));
}

QString stateText(const CheckRun& run)
{
    if (run.reported.status != RunStatus::Completed)
        return toQString(toString(run.reported.status));
    return toQString(run.reported.conclusionText.empty()
                         ? std::string(toString(run.reported.conclusion))
                         : run.reported.conclusionText);
}

const QColor kBlocking(0xe5, 0x39, 0x35);
const QColor kClear(0x43, 0xa0, 0x47);

} // namespace

MergeGatingPanel::MergeGatingPanel(QWidget* parent)
    : QWidget(parent), m_title(gatingLabel(this)), m_bot(gatingLabel(this)),
      m_botTable(gatingTable(
          this, {tr("Merge bot"), tr("Level"), tr("State"), tr("Check run on the head")})),
      m_drci(gatingLabel(this)),
      m_drciTable(gatingTable(
          this, {tr("Listed as"), tr("Level"), tr("SHA"), tr("Attempt"), tr("Dr. CI job")})),
      m_notes(gatingLabel(this)), m_rule(gatingLabel(this))
{
    setObjectName(QStringLiteral("mergeGatingPanel"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_bot->setFont(bold);
    m_drci->setFont(bold);
    m_notes->setForegroundRole(QPalette::PlaceholderText);
    m_rule->setForegroundRole(QPalette::PlaceholderText);
    QFont small = m_rule->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_rule->setFont(small);
    const QString rule = QString::fromUtf8(mergeGatingRuleText());
    m_rule->setText(tr("Rule: %1").arg(rule));
    for (QWidget* w : std::initializer_list<QWidget*>{m_bot, m_botTable, m_drci, m_drciTable})
        w->setToolTip(plainToolTip(rule));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_bot);
    layout->addWidget(m_botTable, 1);
    layout->addWidget(m_drci);
    layout->addWidget(m_drciTable, 1);
    layout->addWidget(m_notes);
    layout->addWidget(m_rule);
    showMessage(tr("Select a pull request's row to see whether its CRCR checks would block the "
                   "merge."));
}

MergeGatingData MergeGatingPanel::read(const QString& cachePath, PrNumber prNumber)
{
    MergeGatingData got;
    got.prNumber = prNumber;
    auto cache = Database::open(cachePath.toStdString());
    if (!cache) {
        got.error = toQString(cache.message());
        return got;
    }
    auto facts = gatherMergeGating(**cache, prNumber);
    if (!facts) {
        got.error = toQString(facts.message());
        return got;
    }
    got.gating = judgeMergeGating(*facts);
    return got;
}

void MergeGatingPanel::load(const QString& cachePath, PrNumber prNumber)
{
    const quint64 request = ++m_request;
    m_pr = prNumber;
    if (prNumber.value <= 0) {
        m_loading = false;
        showMessage(tr("This row is not a pull request (a push or a scheduled run): the merge "
                       "bot and Dr. CI look at pull requests only."));
        return;
    }
    m_loading = true;
    QtConcurrent::run(&MergeGatingPanel::read, cachePath, prNumber)
        .then(this, [this, request](const MergeGatingData& got) {
            if (request != m_request)
                return; // superseded
            m_loading = false;
            showData(got);
        });
}

QString MergeGatingPanel::botText() const { return m_bot->text(); }
QString MergeGatingPanel::drciText() const { return m_drci->text(); }

void MergeGatingPanel::showMessage(const QString& text)
{
    m_title->setText(text);
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_bot, m_botTable, m_drci, m_drciTable, m_notes})
        w->hide();
}

void MergeGatingPanel::showData(const MergeGatingData& got)
{
    if (!got.gating) {
        showMessage(tr("Cannot judge #%1: %2").arg(got.prNumber.value).arg(got.error));
        emit loaded(got.prNumber.value);
        return;
    }
    const MergeGating& g = *got.gating;
    m_title->setText(
        tr("Pull request #%1 · head %2").arg(g.prNumber.value).arg(toQString(g.head.shortSha())));
    fillBot(g);
    fillDrci(g);
    QStringList notes;
    for (const std::string& n : g.notes)
        notes << u"• " % toQString(n);
    m_notes->setText(notes.join(u'\n'));
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_bot, m_botTable, m_drci, m_drciTable, m_notes})
        w->setVisible(true);
    m_botTable->setVisible(m_botTable->topLevelItemCount() > 0);
    m_drciTable->setVisible(m_drciTable->topLevelItemCount() > 0);
    emit loaded(got.prNumber.value);
}

void MergeGatingPanel::fillBot(const MergeGating& g)
{
    m_bot->setText((g.bot.blocks ? u"● "_s : u"✓ "_s)
                   % tr("Merge bot: %1").arg(toQString(g.bot.summary)));
    QPalette palette = m_bot->palette();
    palette.setColor(QPalette::WindowText, g.bot.blocks ? kBlocking : kClear);
    m_bot->setPalette(palette);
    m_botTable->clear();
    for (const BotCheck& c : g.bot.checks) {
        auto* item = new QTreeWidgetItem(m_botTable);
        item->setText(BotNameColumn, toQString(c.name));
        item->setText(BotLevelColumn, levelText(c.level));
        item->setText(BotStateColumn, stateText(c.run));
        item->setText(BotVerdictColumn, c.blocks ? tr("blocks") : tr("does not block"));
        item->setToolTip(BotVerdictColumn, plainToolTip(toQString(c.reason)));
        item->setToolTip(BotNameColumn, plainToolTip(toQString(c.name)));
        if (c.blocks)
            item->setForeground(BotVerdictColumn, kBlocking);
    }
}

void MergeGatingPanel::fillDrci(const MergeGating& g)
{
    m_drci->setText(tr("Dr. CI %1").arg(toQString(g.drci.summary)));
    m_drciTable->clear();
    for (const DrciRow& r : g.drci.rows) {
        auto* item = new QTreeWidgetItem(m_drciTable);
        item->setText(DrciNameColumn, toQString(r.name));
        item->setToolTip(DrciNameColumn, plainToolTip(toQString(r.name)));
        item->setText(DrciShaColumn,
                      r.earlierHead
                          ? tr("%1 (earlier head)").arg(toQString(r.run.upstreamSha.shortSha()))
                          : toQString(r.run.upstreamSha.shortSha()));
        item->setText(DrciAttemptColumn, r.superseded ? tr("%1 (rerun since)").arg(r.run.runAttempt)
                                                      : QString::number(r.run.runAttempt));
        item->setText(DrciLevelColumn, levelText(r.level));
        item->setText(DrciSectionColumn, QString::fromUtf8(drciSectionName(r.section)));
        if (r.section != DrciSection::NonBlocking)
            item->setForeground(DrciSectionColumn, kBlocking);
    }
}

} // namespace relayhud::ui
