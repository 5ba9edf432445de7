#include "relayhud/ui/config/config_prompts.h"

#include "relayhud/ui/config/config_style.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace relayhud::ui {

namespace {

QString movesText(int moves)
{
    return moves == 1 ? ApplyAllDialog::tr("1 move") : ApplyAllDialog::tr("%1 moves").arg(moves);
}

} // namespace

ApplyAllDialog::ApplyAllDialog(const ApplyAllRequest& request, QWidget* parent)
    : QDialog(parent), m_summary(new QLabel(this)), m_diff(new QPlainTextEdit(this))
{
    setWindowTitle(tr("Apply all suggestions"));
    const QString where = request.configs.size() == 1
                              ? request.configs.front()
                              : tr("%1 configs (%2)")
                                    .arg(request.configs.size())
                                    .arg(request.configs.join(QStringLiteral(", ")));
    m_summary->setText(tr("Apply %1 to %2? Review the diff below; nothing is written to disk "
                          "until you save.")
                           .arg(movesText(request.moves), where));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_diff->setPlainText(request.diff);
    new DiffHighlighter(m_diff->document());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_apply = buttons->addButton(tr("Apply %1").arg(movesText(request.moves)),
                                 QDialogButtonBox::AcceptRole);
    m_apply->setAutoDefault(false);
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_diff, 1);
    layout->addWidget(buttons);
    resize(900, 600);
}

QString ApplyAllDialog::summary() const { return m_summary->text(); }

QString ApplyAllDialog::diff() const { return m_diff->toPlainText(); }

bool ApplyAllDialog::ask(const ApplyAllRequest& request, QWidget* parent)
{
    ApplyAllDialog dialog(request, parent);
    return dialog.exec() == QDialog::Accepted;
}

// The dialog: Save (the default), Discard or Cancel, naming the files.
UnsavedChoice askUnsaved(QWidget* parent, const QStringList& paths)
{
    const QString what = paths.size() == 1 ? QFileInfo(paths.front()).fileName()
                                           : QObject::tr("%1 configs").arg(paths.size());
    QMessageBox box(QMessageBox::Warning, QObject::tr("Unsaved edits"),
                    QObject::tr("Save your edits to %1 before closing?").arg(what),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setInformativeText(paths.join(u'\n'));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save: return UnsavedChoice::Save;
    case QMessageBox::Discard: return UnsavedChoice::Discard;
    default: return UnsavedChoice::Cancel;
    }
}

bool askPromoteNeverPassed(const QString& test, const QString& warning, QWidget* parent)
{
    QMessageBox box(QMessageBox::Warning, QObject::tr("Promote a test that never passed?"),
                    QObject::tr("%1 %2.").arg(test, warning), QMessageBox::Cancel, parent);
    box.setInformativeText(
        QObject::tr("As mandatory_success, every run where it fails again fails the job. "
                    "Its history is in the details pane."));
    QPushButton* promote = box.addButton(QObject::tr("Promote anyway"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == promote;
}

} // namespace relayhud::ui
