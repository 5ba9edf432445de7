#include "relayhud/ui/config/config_details_pane.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/history_strip.h"

#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace relayhud::ui {

namespace {

QLabel* plainLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return label;
}

TestHistory historyOf(const RecentJob& job, const RecentTestOutcomes& test,
                      const RecentResults& recent)
{
    TestHistory history{recent.tests[test.test].testId, {}};
    for (std::size_t i = 0; i < job.runs.size(); ++i) {
        const RecentRun& run = job.runs[i];
        history.points.push_back(
            {run.sha, run.commitTime, run.checkRunRow, run.runAttempt, test.outcomes[i]});
    }
    return history;
}

// The method of an identity: what tells variants apart.
QString variantName(const RecentTest& test)
{
    const std::size_t sep = test.identity.rfind("::");
    return toQString(sep == std::string::npos ? test.identity : test.identity.substr(sep + 2));
}

} // namespace

std::vector<HistoryRow> historyRows(const RecentResults& recent,
                                    const std::vector<std::size_t>& testIndices, int limit,
                                    int* more)
{
    std::vector<bool> wanted(recent.tests.size(), false);
    for (const std::size_t index : testIndices)
        wanted[index] = true;
    std::vector<HistoryRow> rows;
    int left = 0;
    for (const RecentJob& job : recent.jobs)
        for (const RecentTestOutcomes& test : job.tests) {
            if (!wanted[test.test])
                continue;
            if (static_cast<int>(rows.size()) >= limit) {
                ++left;
                continue;
            }
            rows.push_back({toQString(job.repo) % QStringLiteral(" · ") % toQString(job.name)
                                % QStringLiteral(" · ") % variantName(recent.tests[test.test]),
                            historyOf(job, test, recent)});
        }
    if (more)
        *more = left;
    return rows;
}

ConfigDetailsPane::ConfigDetailsPane(QWidget* parent)
    : QWidget(parent), m_title(plainLabel(this)), m_why(plainLabel(this)),
      m_historyNote(plainLabel(this)), m_strips(new QWidget(this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    m_title->setFont(bold);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_why);
    auto* historyTitle = new QLabel(tr("History in the cache (oldest to newest)"), this);
    historyTitle->setFont(bold);
    layout->addWidget(historyTitle);
    layout->addWidget(m_historyNote);
    m_stripsLayout = new QVBoxLayout(m_strips);
    m_stripsLayout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_strips);
    layout->addWidget(scroll, 1);
    showText(tr("Nothing selected"), {tr("Select a name to see why it has its mode.")});
}

void ConfigDetailsPane::showText(const QString& title, const QStringList& lines)
{
    m_title->setText(title);
    m_why->setText(lines.join(u'\n'));
}

void ConfigDetailsPane::setHistories(const std::vector<HistoryRow>& rows, int more,
                                     const QString& note)
{
    while (QLayoutItem* item = m_stripsLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const HistoryRow& row : rows) {
        auto* label = plainLabel(m_strips);
        label->setText(row.label);
        label->setToolTip(plainToolTip(historySummaryText(row.history)));
        auto* strip = new HistoryStripWidget(m_strips);
        strip->setHistory(row.history);
        m_stripsLayout->addWidget(label);
        m_stripsLayout->addWidget(strip);
    }
    m_stripsLayout->addStretch(1);
    m_historyCount = static_cast<int>(rows.size());
    QString text = rows.empty() ? note : QString();
    if (more > 0)
        text = tr("%1 more not shown").arg(more);
    m_historyNote->setText(text);
    m_historyNote->setVisible(!text.isEmpty());
}

QString ConfigDetailsPane::title() const { return m_title->text(); }

QString ConfigDetailsPane::explanation() const { return m_why->text(); }

} // namespace relayhud::ui
