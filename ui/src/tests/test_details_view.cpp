#include "relayhud/ui/tests/test_details_view.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/history_strip.h"
#include "relayhud/ui/tests/outcome_style.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace relayhud::ui {

// The selected test's outcome tile, as in the table.
class OutcomeTile : public QWidget {
public:
    explicit OutcomeTile(QWidget* parent) : QWidget(parent) { setFixedSize(18, 18); }
    void setOutcome(TestOutcome outcome)
    {
        m_outcome = outcome;
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        paintOutcomeTile(painter, rect().adjusted(1, 1, -1, -1), m_outcome, palette());
    }

private:
    TestOutcome m_outcome = TestOutcome::Passed;
};

namespace {

// A selectable, frameless one-line field: long identities scroll instead of
// widening the panel, and copy as they are.
QLineEdit* readOnlyField(QWidget* parent)
{
    auto* field = new QLineEdit(parent);
    field->setReadOnly(true);
    field->setFrame(false);
    QPalette p = field->palette();
    p.setColor(QPalette::Base, Qt::transparent);
    field->setPalette(p);
    return field;
}

QString marksText(const std::string& marks)
{
    QString text = toQString(marks);
    text.replace(u',', QStringLiteral(", "));
    return text;
}

QString resultText(const StoredTestResult& result)
{
    QString text =
        outcomeLabel(result.outcome) % u" · " % formatTestDuration(result.durationSeconds);
    if (!result.retried.empty())
        text += u" · " % TestDetailsView::tr("retried (%1)").arg(toQString(result.retried));
    return text;
}

} // namespace

TestDetailsView::TestDetailsView(QWidget* parent)
    : QWidget(parent), m_stack(new QStackedWidget(this)), m_note(new QLabel(this))
{
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_note);
    // The fields scroll inside the pane: a long Why or History never
    // overlaps the next field, and never makes the pane (and the tests table
    // above it) change height as tests are selected.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("testDetailsScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(buildContent());
    m_stack->addWidget(scroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    showNote(tr("Select a test to see its message, traceback and history."));
}

QWidget* TestDetailsView::buildContent()
{
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 6, 8, 4);
    layout->setSpacing(4);
    auto* heading = new QHBoxLayout;
    heading->setSpacing(6);
    m_tile = new OutcomeTile(content);
    m_identity = readOnlyField(content);
    m_identity->setObjectName(QStringLiteral("testIdentity"));
    QFont bold = m_identity->font();
    bold.setBold(true);
    m_identity->setFont(bold);
    m_showInLog = new QToolButton(content);
    m_showInLog->setObjectName(QStringLiteral("showInLog"));
    m_showInLog->setText(tr("Show in log"));
    m_showInLog->setToolTip(tr("Open the job's log at this test's failure (L)"));
    m_showInLog->setShortcut(QKeySequence(Qt::Key_L));
    connect(m_showInLog, &QToolButton::clicked, this,
            [this] { emit showInLogRequested(m_testId.value, m_identity->text()); });
    m_tag = new QToolButton(content);
    m_tag->setObjectName(QStringLiteral("tagTest"));
    m_tag->setText(tr("Tag…"));
    m_tag->setToolTip(tr("Set the class, a note and a bug link (T); one key per class: press ? "
                         "in the table for the list"));
    connect(m_tag, &QToolButton::clicked, this, &TestDetailsView::tagRequested);
    m_tag->hide();
    m_openInConfig = new QToolButton(content);
    m_openInConfig->setObjectName(QStringLiteral("openInConfig"));
    m_openInConfig->setText(tr("Open in config"));
    m_openInConfig->setToolTip(tr("The outcome-config entry that decides this test, in the "
                                  "config editor (promote or demote it there)"));
    connect(m_openInConfig, &QToolButton::clicked, this,
            [this] { emit openInConfigRequested(m_identity->text(), m_rawMarks); });
    heading->addWidget(m_tile);
    heading->addWidget(m_identity, 1);
    heading->addWidget(m_tag);
    heading->addWidget(m_openInConfig);
    heading->addWidget(m_showInLog);
    layout->addLayout(heading);
    layout->addLayout(buildFields(*content));
    layout->addWidget(buildText(*content), 1);
    m_cut = new QLabel(content);
    m_cut->setTextFormat(Qt::PlainText);
    m_cut->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cut->setWordWrap(true);
    m_cut->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_cut);
    return content;
}

QFormLayout* TestDetailsView::buildFields(QWidget& content)
{
    auto* form = new QFormLayout;
    form->setContentsMargins(24, 0, 0, 0);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(1);
    form->setLabelAlignment(Qt::AlignRight);
    m_baseName = addField(*form, tr("Base name"));
    m_marks = addField(*form, tr("Marks"));
    m_outcome = addField(*form, tr("Result"));
    const auto addNote = [&](const QString& label, QLabel*& name, QLabel*& value) {
        name = new QLabel(label, &content);
        name->setForegroundRole(QPalette::PlaceholderText);
        value = new QLabel(&content);
        value->setTextFormat(Qt::PlainText); // CI text never reaches rich text
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        form->addRow(name, value);
    };
    addNote(tr("Class"), m_classLabel, m_class);
    m_class->setObjectName(QStringLiteral("testClass"));
    addNote(tr("Why"), m_whyLabel, m_why);
    m_why->setObjectName(QStringLiteral("testWhy"));
    setTriage(nullptr);
    m_strip = new HistoryStripWidget(&content);
    m_summary = new QLabel(&content);
    m_summary->setObjectName(QStringLiteral("testHistorySummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    auto* history = new QVBoxLayout;
    history->setSpacing(1);
    history->addWidget(m_strip);
    history->addWidget(m_summary);
    auto* historyLabel = new QLabel(tr("History"), &content);
    historyLabel->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(historyLabel, history);
    return form;
}

QPlainTextEdit* TestDetailsView::buildText(QWidget& content)
{
    m_body = new QPlainTextEdit(&content);
    m_body->setObjectName(QStringLiteral("testText"));
    m_body->setReadOnly(true);
    m_body->setLineWrapMode(QPlainTextEdit::NoWrap); // tracebacks keep their columns
    m_body->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_body->setPlaceholderText(tr("No message or traceback: the test did not fail."));
    // A few lines of traceback however small the pane: it scrolls instead.
    m_body->setMinimumHeight(6 * m_body->fontMetrics().lineSpacing());
    return m_body;
}

QLineEdit* TestDetailsView::addField(QFormLayout& form, const QString& label)
{
    auto* name = new QLabel(label);
    name->setForegroundRole(QPalette::PlaceholderText);
    QLineEdit* field = readOnlyField(nullptr);
    form.addRow(name, field);
    return field;
}

void TestDetailsView::showNote(const QString& note)
{
    m_testId = TestId{};
    m_tracebackId = {};
    m_note->setText(note);
    m_stack->setCurrentIndex(0);
}

bool TestDetailsView::hasTest() const { return m_stack->currentIndex() == 1; }

void TestDetailsView::showTest(const StoredTestResult& result, const TestHistory* history)
{
    const bool sameTest =
        hasTest() && m_testId == result.testId && m_tracebackId == result.tracebackId;
    m_testId = result.testId;
    m_tile->setOutcome(result.outcome);
    m_tile->setToolTip(outcomeDescription(result.outcome));
    const auto setField = [](QLineEdit* field, const QString& text) {
        field->setText(text.isEmpty() ? QStringLiteral("—") : text);
        field->setCursorPosition(0);
    };
    setField(m_identity, toQString(result.identity));
    setField(m_baseName, toQString(result.baseName));
    setField(m_marks, marksText(result.marks));
    m_rawMarks = toQString(result.marks);
    setField(m_outcome, resultText(result));
    m_failing = isFailingOutcome(result.outcome);
    updateLogButton();
    if (history)
        setHistory(*history);
    else {
        m_strip->clear();
        m_summary->setText(tr("Loading history…"));
    }
    m_stack->setCurrentIndex(1);
    if (sameTest)
        return; // a refresh of the same result keeps its loaded traceback
    m_tracebackId = result.tracebackId;
    m_message = toQString(result.message);
    m_traceback.clear();
    m_tracebackPending = static_cast<bool>(result.tracebackId);
    m_cut->clear();
    m_cut->hide();
    showBody();
}

void TestDetailsView::setHistory(const TestHistory& history)
{
    if (history.testId != m_testId)
        return;
    m_strip->setHistory(history);
    const QString summary = historySummaryText(history);
    m_summary->setText(summary.isEmpty() ? tr("No earlier runs of this job have results.")
                                         : summary);
}

void TestDetailsView::setTraceback(TestMessageId textId, const QString& text, bool cut,
                                   const QString& fullPath)
{
    if (!textId || textId != m_tracebackId || !hasTest())
        return;
    m_traceback = text;
    m_tracebackPending = false;
    if (cut)
        m_cut->setText(fullPath.isEmpty()
                           ? tr("The traceback was cut; its whole text was not kept.")
                           : tr("The traceback was cut; the whole text is in %1").arg(fullPath));
    m_cut->setVisible(cut);
    showBody();
}

void TestDetailsView::showBody()
{
    QString text = m_message;
    const QString second = m_tracebackPending ? tr("Loading traceback…") : m_traceback;
    if (!second.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("\n\n")) % second;
    m_body->setPlainText(text);
}

QString TestDetailsView::identityText() const { return m_identity->text(); }
QString TestDetailsView::outcomeText() const { return m_outcome->text(); }
QString TestDetailsView::bodyText() const { return m_body->toPlainText(); }
QString TestDetailsView::historySummary() const { return m_summary->text(); }
QString TestDetailsView::cutNote() const { return m_cut->isHidden() ? QString() : m_cut->text(); }

void TestDetailsView::setLogAvailable(bool available)
{
    m_logAvailable = available;
    updateLogButton();
}

void TestDetailsView::setTriage(const TestTriage* triage)
{
    const bool shown = triage != nullptr;
    for (QWidget* widget : {static_cast<QWidget*>(m_classLabel), static_cast<QWidget*>(m_class),
                            static_cast<QWidget*>(m_whyLabel), static_cast<QWidget*>(m_why),
                            static_cast<QWidget*>(m_tag)})
        widget->setVisible(shown);
    if (!triage) {
        m_class->clear();
        m_why->clear();
        return;
    }
    QString line;
    if (triage->hasHuman()) {
        const TriageTag& tag = *triage->tag;
        line = tr("%1 — tagged by %2, %3")
                   .arg(classLabel(tag.cls),
                        tag.author.empty() ? tr("someone") : toQString(tag.author),
                        tagTimeText(tag.timeMs));
        if (!tag.note.empty())
            line += u"\n" % toQString(tag.note);
        if (!tag.bugUrl.empty())
            line += u"\n" % toQString(tag.bugUrl);
        if (triage->suggested != tag.cls)
            line += u"\n" % tr("The tool suggests %1.").arg(classLabel(triage->suggested));
    } else {
        line = triage->isProvisional()
                   ? tr("%1 (provisional: %2; untriaged until someone tags it)")
                         .arg(classLabel(triage->suggested), triage->provisional)
               : triage->confidence > 0.0
                   ? tr("%1 (suggested, %2% sure; untriaged until someone tags it)")
                         .arg(classLabel(triage->suggested))
                         .arg(qRound(triage->confidence * 100))
                   : tr("%1 (suggested; untriaged until someone tags it)")
                         .arg(classLabel(triage->suggested));
    }
    m_class->setText(line);
    QStringList why;
    if (!triage->why.isEmpty())
        why << triage->why;
    for (const QString& item : triage->evidence)
        why << u"• " % item;
    if (!triage->group.isEmpty())
        why << tr("Part of %1").arg(triage->group);
    m_why->setText(why.isEmpty() ? tr("No evidence: nothing to compare with yet.")
                                 : why.join(u'\n'));
}

QString TestDetailsView::triageText() const { return m_class->text(); }
QString TestDetailsView::whyText() const { return m_why->text(); }

bool TestDetailsView::offersShowInLog() const { return m_logAvailable && m_failing; }

void TestDetailsView::updateLogButton() { m_showInLog->setVisible(offersShowInLog()); }

} // namespace relayhud::ui
