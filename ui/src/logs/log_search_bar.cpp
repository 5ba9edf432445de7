#include "relayhud/ui/logs/log_search_bar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>

namespace relayhud::ui {

LogSearchBar::LogSearchBar(QWidget* parent)
    : QWidget(parent), m_text(new QLineEdit(this)),
      m_regex(toggle(QStringLiteral(".*"), tr("Regular expression (RE2)"))),
      m_case(toggle(QStringLiteral("Aa"), tr("Match case"))),
      m_filter(toggle(tr("Only matching"), tr("Show only matching lines, with context lines "
                                              "around them (like grep -C)"))),
      m_context(new QSpinBox(this)), m_count(new QLabel(this)), m_previous(new QToolButton(this)),
      m_next(new QToolButton(this))
{
    m_text->setPlaceholderText(tr("Search the log"));
    m_text->setClearButtonEnabled(true);
    m_text->installEventFilter(this);
    m_context->setRange(0, 999);
    m_context->setPrefix(QStringLiteral("±"));
    m_context->setSuffix(tr(" lines"));
    m_context->setToolTip(tr("Context lines before and after each match"));
    m_context->setEnabled(false);
    m_count->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("1,234,567 matches…")));
    m_count->setTextFormat(Qt::PlainText);
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous match (Shift+Enter, Shift+F3)"));
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match (Enter, F3)"));
    for (QToolButton* b : {m_previous, m_next})
        b->setAutoRaise(true);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_regex);
    layout->addWidget(m_case);
    layout->addSpacing(6);
    layout->addWidget(m_count);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addSpacing(6);
    layout->addWidget(m_filter);
    layout->addWidget(m_context);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &LogSearchBar::emitQueryNow);
    connect(m_text, &QLineEdit::textChanged, this, [this] { m_debounce.start(); });
    for (QToolButton* b : {m_regex, m_case})
        connect(b, &QToolButton::toggled, this, &LogSearchBar::emitQueryNow);
    connect(m_filter, &QToolButton::toggled, this, [this](bool on) {
        m_context->setEnabled(on);
        Q_EMIT filterChanged(on, m_context->value());
    });
    connect(m_context, &QSpinBox::valueChanged, this, [this](int value) {
        if (m_filter->isChecked())
            Q_EMIT filterChanged(true, value);
    });
    connect(m_previous, &QToolButton::clicked, this, &LogSearchBar::previousRequested);
    connect(m_next, &QToolButton::clicked, this, &LogSearchBar::nextRequested);
    clearCount();
}

QToolButton* LogSearchBar::toggle(const QString& text, const QString& tip)
{
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    b->setCheckable(true);
    b->setAutoRaise(true);
    return b;
}

SearchQuery LogSearchBar::query() const
{
    SearchQuery q;
    q.pattern = m_text->text().toStdString();
    q.syntax = m_regex->isChecked() ? SearchSyntax::Regex : SearchSyntax::Literal;
    q.caseSensitive = m_case->isChecked();
    return q;
}

bool LogSearchBar::filterOn() const { return m_filter->isChecked(); }
int LogSearchBar::context() const { return m_context->value(); }

void LogSearchBar::emitQueryNow()
{
    m_debounce.stop();
    Q_EMIT queryChanged();
}

void LogSearchBar::setCount(qint64 count, bool finished)
{
    m_text->setStyleSheet({});
    m_count->setToolTip({});
    const QString n = QLocale().toString(count);
    QString text = count == 0 && finished ? tr("No matches")
                   : count == 1           ? tr("1 match")
                                          : tr("%1 matches").arg(n);
    m_count->setText(finished ? text : text + u'…');
}

void LogSearchBar::setError(const QString& message)
{
    m_text->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #cf222e; }"));
    m_count->setText(tr("Invalid pattern"));
    m_count->setToolTip(message);
}

void LogSearchBar::clearCount()
{
    m_text->setStyleSheet({});
    m_count->clear();
    m_count->setToolTip({});
}

void LogSearchBar::focusSearch()
{
    m_text->setFocus(Qt::ShortcutFocusReason);
    m_text->selectAll();
}

bool LogSearchBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_text && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (m_debounce.isActive())
                emitQueryNow(); // Enter right after typing searches at once
            if (key->modifiers() & Qt::ShiftModifier)
                Q_EMIT previousRequested();
            else
                Q_EMIT nextRequested();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace relayhud::ui
