#include "relayhud/ui/triage/triage_dialog.h"

#include "relayhud/ui/triage/key_table.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

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
    setWindowTitle(tr("Keys"));
    setObjectName(QStringLiteral("keySheet"));
    auto* intro =
        new QLabel(tr("Keys in the matrix act on the current cell, keys in the tests "
                      "table on the selected tests (Shift or Ctrl to select several; a "
                      "class key on a cluster tags all its members). A person's tag "
                      "always wins over the suggestion. A capital letter means with Shift."),
                   this);
    intro->setWordWrap(true);
    auto* sheet = new QWidget;
    auto* grid = new QGridLayout(sheet);
    grid->setHorizontalSpacing(18);
    grid->setColumnStretch(1, 1);
    std::optional<KeyPlace> place;
    for (const KeyEntry& entry : keyTable()) {
        if (entry.place != place) {
            place = entry.place;
            auto* heading = new QLabel(placeText(entry.place), sheet);
            QFont font = heading->font();
            font.setBold(true);
            heading->setFont(font);
            grid->addWidget(heading, grid->rowCount(), 0, 1, 2);
        }
        auto* keys = new QLabel(keysText(entry.keys), sheet);
        keys->setObjectName(QStringLiteral("keys"));
        keys->setTextFormat(Qt::PlainText);
        QFont mono = keys->font();
        mono.setFamily(QStringLiteral("monospace"));
        mono.setStyleHint(QFont::Monospace);
        keys->setFont(mono);
        auto* what = new QLabel(entry.what, sheet);
        what->setTextFormat(Qt::PlainText);
        what->setWordWrap(true);
        const int row = grid->rowCount();
        grid->addWidget(keys, row, 0, Qt::AlignTop);
        grid->addWidget(what, row, 1);
    }
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(sheet);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(scroll, 1);
    layout->addWidget(buttons);
    // Wide enough for the longest line to wrap once; as tall as the keys
    // need, up to what a 768-pixel screen leaves.
    constexpr int kWidth = 620;
    sheet->setFixedWidth(kWidth - 40);
    const int sheetHeight = sheet->heightForWidth(kWidth - 40);
    const int wanted = intro->heightForWidth(kWidth)
                       + (sheetHeight > 0 ? sheetHeight : sheet->sizeHint().height())
                       + buttons->sizeHint().height() + 60;
    resize(kWidth, std::min(wanted, 680));
}

TriageShortcutsDialog* showKeySheet(QWidget* from)
{
    QWidget* window = from->window();
    auto* sheet = window->findChild<TriageShortcutsDialog*>(QString(), Qt::FindDirectChildrenOnly);
    if (!sheet)
        sheet = new TriageShortcutsDialog(window);
    sheet->show();
    sheet->raise();
    sheet->activateWindow();
    return sheet;
}

} // namespace relayhud::ui
