#include "relayhud/ui/tests/tests_counts_bar.h"

#include "relayhud/ui/common/elided_label.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/outcome_style.h"
#include "relayhud/ui/tests/tests_filter.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace relayhud::ui {

namespace {

constexpr int kIcon = 14;

// Toggles in reading order: what broke, what passed, what did not run.
constexpr std::array<TestOutcome, kTestOutcomeCount> kButtonOrder{
    TestOutcome::Failed, TestOutcome::Error,   TestOutcome::XPassStrict,
    TestOutcome::Passed, TestOutcome::Skipped, TestOutcome::XFailed};

std::int64_t at(const OutcomeCounts& counts, TestOutcome outcome)
{
    return counts[static_cast<std::size_t>(outcome)];
}

QIcon outcomeIcon(TestOutcome outcome, const QPalette& palette, qreal ratio)
{
    QPixmap pixmap(QSize(kIcon, kIcon) * ratio);
    pixmap.setDevicePixelRatio(ratio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    paintOutcomeTile(painter, QRect(0, 0, kIcon, kIcon), outcome, palette);
    return QIcon(pixmap);
}

QLabel* plainLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

QStringList countMismatches(const OutcomeCounts& artifacts, const TestCounts& self)
{
    QStringList lines;
    const std::int64_t failing = at(artifacts, TestOutcome::Failed)
                                 + at(artifacts, TestOutcome::Error)
                                 + at(artifacts, TestOutcome::XPassStrict);
    const bool mixed = failing != at(artifacts, TestOutcome::Failed);
    if (failing != self.failed)
        lines << TestsCountsBar::tr("Self-reported: %1 failed — artifacts: %2")
                     .arg(formatCount(self.failed),
                          mixed ? TestsCountsBar::tr("%1 failed, error or xpass-strict")
                                      .arg(formatCount(failing))
                                : TestsCountsBar::tr("%1 failed").arg(formatCount(failing)));
    const std::int64_t notRun =
        at(artifacts, TestOutcome::Skipped) + at(artifacts, TestOutcome::XFailed);
    if (notRun != self.skipped)
        lines << TestsCountsBar::tr("Self-reported: %1 skipped — artifacts: %2 skipped or xfailed")
                     .arg(formatCount(self.skipped), formatCount(notRun));
    std::int64_t total = 0;
    for (std::int64_t count : artifacts)
        total += count;
    if (total != self.total)
        lines << TestsCountsBar::tr("Self-reported: %1 tests — artifacts: %2 tests")
                     .arg(formatCount(self.total), formatCount(total));
    return lines;
}

TestsCountsBar::TestsCountsBar(QWidget* parent)
    : QWidget(parent), m_caption(plainLabel(this)), m_selfReported(plainLabel(this)),
      m_mismatches(plainLabel(this)), m_warnings(new ElidedLabel(Qt::ElideRight, this))
{
    m_caption->setText(tr("Artifacts"));
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    m_selfReported->setToolTip(tr("What the backend's CI reported to the HUD: its own claim, "
                                  "not checked by the relay"));
    m_mismatches->setWordWrap(true);
    // One line, whatever the warnings: the panel above the tests table stays
    // short (the tooltip lists them all).
    m_warnings->setTextFormat(Qt::PlainText);
    static_cast<ElidedLabel*>(m_warnings)->setAutoToolTip(false);
    m_broken = new QHBoxLayout;
    m_broken->setSpacing(2);
    m_broken->addWidget(m_caption);
    m_broken->addSpacing(4);
    m_rest = new QHBoxLayout;
    m_rest->setSpacing(2);
    buildButtons();
    for (TestOutcome outcome : kButtonOrder)
        (isFailingOutcome(outcome) ? m_broken : m_rest)
            ->addWidget(m_buttons[static_cast<std::size_t>(outcome)]);
    m_broken->addStretch(1);
    m_rest->addStretch(1);
    m_rows = new QBoxLayout(QBoxLayout::LeftToRight);
    m_rows->setSpacing(2);
    m_rows->addLayout(m_broken);
    m_rows->addLayout(m_rest, 1);
    // The backend's own claim on a line of its own: the bar fits the narrow
    // dock column beside the matrix.
    m_selfReported->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->setSpacing(2);
    layout->addLayout(m_rows);
    layout->addWidget(m_selfReported);
    layout->addWidget(m_mismatches);
    layout->addWidget(m_warnings);
    setCounts(std::nullopt, std::nullopt);
    setWarnings({});
}

void TestsCountsBar::buildButtons()
{
    for (TestOutcome outcome : kButtonOrder) {
        auto* button = new QToolButton(this);
        button->setObjectName(u"outcome-" % toQString(std::string_view(outcomeName(outcome))));
        button->setCheckable(true);
        button->setAutoRaise(true);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setIconSize(QSize(kIcon, kIcon));
        button->setToolTip(tr("Show only %1 tests (tick several to combine, none to show all)")
                               .arg(outcomeLabel(outcome)));
        connect(button, &QToolButton::toggled, this,
                [this] { emit outcomesChanged(selectedOutcomes()); });
        m_buttons[static_cast<std::size_t>(outcome)] = button;
    }
}

QToolButton* TestsCountsBar::outcomeButton(TestOutcome outcome) const
{
    return m_buttons[static_cast<std::size_t>(outcome)];
}

void TestsCountsBar::setCounts(const std::optional<OutcomeCounts>& artifacts,
                               const std::optional<TestCounts>& selfReported,
                               CountKind selfReportedKind)
{
    m_counts = artifacts;
    m_caption->setVisible(artifacts.has_value());
    const bool comparable = comparableWithJUnit(selfReportedKind);
    const QString kind = selfReportedKind == CountKind::Unknown
                             ? QString()
                             : QString(u" (" % toQString(countKindName(selfReportedKind)) % u')');
    if (selfReported)
        m_selfReported->setText(
            tr("Self-reported%1: %2 passed · %3 failed · %4 skipped · %5 total")
                .arg(kind, formatCount(selfReported->passed), formatCount(selfReported->failed),
                     formatCount(selfReported->skipped), formatCount(selfReported->total))
            % (comparable || !artifacts ? QString()
                                        : tr(" — not test cases, so not compared with the "
                                             "artifacts")));
    else
        m_selfReported->setText(kind.isEmpty() ? tr("Self-reported: no test counts")
                                               : tr("Self-reported%1: none sent").arg(kind));
    m_mismatchLines = artifacts && selfReported && comparable
                          ? countMismatches(*artifacts, *selfReported)
                          : QStringList();
    QStringList shown;
    for (const QString& line : m_mismatchLines)
        shown << u"⚠ " % line;
    m_mismatches->setText(shown.join(u'\n'));
    m_mismatches->setVisible(!shown.isEmpty());
    refreshButtons();
    applyWarningColour();
}

void TestsCountsBar::setWarnings(const std::vector<std::string>& warnings)
{
    m_warningLines.clear();
    for (const std::string& warning : warnings)
        m_warningLines << toQString(warning);
    const QString shown = m_warningLines.isEmpty() ? QString()
                          : m_warningLines.size() == 1
                              ? u"⚠ " % m_warningLines.front()
                              : u"⚠ "
                                    % tr("%1 warnings (see the tooltip): %2")
                                          .arg(m_warningLines.size())
                                          .arg(m_warningLines.front());
    static_cast<ElidedLabel*>(m_warnings)->setFullText(shown);
    m_warnings->setToolTip(
        m_warningLines.isEmpty() ? QString() : plainToolTip(m_warningLines.join(u'\n').left(8000)));
    m_warnings->setVisible(!shown.isEmpty());
    applyWarningColour();
}

void TestsCountsBar::refreshButtons()
{
    const qreal ratio = devicePixelRatioF();
    for (TestOutcome outcome : kButtonOrder) {
        QToolButton* button = outcomeButton(outcome);
        const std::int64_t count = m_counts ? at(*m_counts, outcome) : 0;
        // The failed and passed toggles stay even at 0: "0 failed" is news too.
        const bool always = outcome == TestOutcome::Failed || outcome == TestOutcome::Passed;
        button->setVisible(m_counts && (count > 0 || always || button->isChecked()));
        button->setText(formatCount(count) % u' ' % outcomeLabel(outcome));
        button->setIcon(outcomeIcon(outcome, palette(), ratio));
    }
}

void TestsCountsBar::setSelectedOutcomes(std::uint8_t outcomes)
{
    for (TestOutcome outcome : kButtonOrder) {
        QToolButton* button = outcomeButton(outcome);
        const QSignalBlocker blocker(button);
        button->setChecked((outcomes & outcomeBit(outcome)) != 0);
    }
    refreshButtons();
}

std::uint8_t TestsCountsBar::selectedOutcomes() const
{
    std::uint8_t outcomes = 0;
    for (TestOutcome outcome : kButtonOrder)
        if (outcomeButton(outcome)->isChecked())
            outcomes |= outcomeBit(outcome);
    return outcomes;
}

QString TestsCountsBar::selfReportedText() const { return m_selfReported->text(); }

void TestsCountsBar::applyWarningColour()
{
    for (QLabel* label : {m_mismatches, m_warnings}) {
        QPalette p = label->palette();
        p.setColor(QPalette::WindowText, warningTextColor(palette()));
        label->setPalette(p);
    }
}

QSize TestsCountsBar::minimumSizeHint() const
{
    QSize size = QWidget::minimumSizeHint();
    const QMargins margins = layout()->contentsMargins();
    size.setWidth(std::max(m_broken->minimumSize().width(), m_rest->minimumSize().width())
                  + margins.left() + margins.right());
    return size;
}

// One row when both groups fit at their preferred widths, else two: the
// decision rests on the bar's width alone, so it never flips back and forth.
void TestsCountsBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    const QMargins margins = layout()->contentsMargins();
    const int oneRow = m_broken->sizeHint().width() + m_rows->spacing() + m_rest->sizeHint().width()
                       + margins.left() + margins.right();
    const auto direction = width() >= oneRow ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_rows->direction() != direction)
        m_rows->setDirection(direction);
}

void TestsCountsBar::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        refreshButtons();
        applyWarningColour();
    }
}

} // namespace relayhud::ui
