#include "relayhud/ui/triage/triage_dialog.h"

#include "relayhud/ui/triage/triage_style.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace relayhud::ui {

using triage::FailureClass;

TriageDialog::TriageDialog(const QString& subject, const TriageEdit& initial, QWidget* parent)
    : QDialog(parent), m_class(new QComboBox(this)), m_note(new QPlainTextEdit(this)),
      m_bug(new QLineEdit(this)), m_problem(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Tag %1").arg(subject));
    for (FailureClass cls : triageClasses()) {
        const auto key = classKey(cls);
        m_class->addItem(key ? tr("%1  (%2)").arg(classLabel(cls), QString(*key)) : classLabel(cls),
                         static_cast<int>(cls));
    }
    m_class->addItem(tr("Untriaged (clear the tag)  (%1)").arg(QString(kClearTriageKey)),
                     static_cast<int>(FailureClass::Untriaged));
    for (int i = 0; i < m_class->count(); ++i)
        m_class->setItemData(
            i, classDescription(static_cast<FailureClass>(m_class->itemData(i).toInt())),
            Qt::ToolTipRole);
    const int current = m_class->findData(static_cast<int>(initial.cls));
    m_class->setCurrentIndex(current < 0 ? 0 : current);
    m_note->setPlainText(initial.note);
    m_note->setPlaceholderText(tr("What you found: the cause, the owner, the plan"));
    m_note->setTabChangesFocus(true);
    m_note->setFixedHeight(m_note->fontMetrics().lineSpacing() * 4 + 12);
    m_bug->setText(initial.bugUrl);
    m_bug->setPlaceholderText(QStringLiteral("https://github.com/org/repo/issues/123"));
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setWordWrap(true);
    m_problem->setForegroundRole(QPalette::BrightText);
    auto* form = new QFormLayout;
    form->addRow(tr("Class"), m_class);
    form->addRow(tr("Note"), m_note);
    form->addRow(tr("Bug link"), m_bug);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_bug, &QLineEdit::textChanged, this, &TriageDialog::validate);
    validate();
    resize(520, sizeHint().height());
}

TriageEdit TriageDialog::edit() const
{
    return {static_cast<FailureClass>(m_class->currentData().toInt()),
            m_note->toPlainText().trimmed(), m_bug->text().trimmed()};
}

QString TriageDialog::problem() const { return m_problem->text(); }

void TriageDialog::validate()
{
    const QString bug = m_bug->text().trimmed();
    QString problem;
    if (!bug.isEmpty()) {
        const QUrl url(bug, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != u"https" && url.scheme() != u"http")
            || url.host().isEmpty())
            problem = tr("The bug link must be an http(s) URL.");
    }
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

TriageShortcutsDialog::TriageShortcutsDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Keyboard triage"));
    auto* form = new QFormLayout;
    form->setHorizontalSpacing(18);
    const auto add = [&](const QString& keys, const QString& what) {
        auto* key = new QLabel(keys, this);
        QFont font = key->font();
        font.setBold(true);
        key->setFont(font);
        auto* text = new QLabel(what, this);
        text->setWordWrap(true);
        form->addRow(key, text);
    };
    add(QStringLiteral("j / k"), tr("Next / previous untriaged failure"));
    for (FailureClass cls : triageClasses())
        if (const auto classKeyOf = classKey(cls))
            add(QString(*classKeyOf), tr("%1: %2").arg(classLabel(cls), classDescription(cls)));
    add(QString(kClearTriageKey), tr("Clear the tag (back to the suggestion)"));
    add(QStringLiteral("T"), tr("Tag with a note and a bug link…"));
    add(tr("Enter"), tr("Open the job's log at the failure line"));
    add(QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText) % QStringLiteral(" / ")
            % QKeySequence(QKeySequence::Redo).toString(QKeySequence::NativeText),
        tr("Undo / redo a tag"));
    add(QStringLiteral("?"), tr("This sheet"));
    auto* intro = new QLabel(tr("In the tests table, keys act on the selected failures (Shift or "
                                "Ctrl to select several; a class key on a cluster tags all its "
                                "members). A person's tag always wins over the suggestion."),
                             this);
    intro->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addSpacing(8);
    layout->addLayout(form);
    layout->addStretch(1); // a taller window grows here, not above the intro
    layout->addWidget(buttons);
    // As tall as the wrapped lines need at this width (sizeHint measures them
    // unwrapped, and the difference showed as a band above the intro).
    constexpr int kWidth = 480;
    resize(kWidth,
           layout->hasHeightForWidth() ? layout->totalHeightForWidth(kWidth) : sizeHint().height());
}

} // namespace relayhud::ui
