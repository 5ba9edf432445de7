#include "relayhud/ui/config/rationale_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace relayhud::ui {

RationaleDialog::RationaleDialog(const RationaleRequest& request, QWidget* parent)
    : QDialog(parent), m_reason(new QLineEdit(this)), m_evidence(new QLineEdit(this))
{
    setWindowTitle(request.current ? tr("Set mode") : tr("Move test"));
    auto* form = new QFormLayout(this);
    auto* test = new QLabel(request.test, this);
    test->setTextFormat(Qt::PlainText);
    test->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Test"), test);
    if (request.current) {
        m_mode = new QComboBox(this);
        for (const config::Mode mode : {config::Mode::MandatorySuccess, config::Mode::Xfail,
                                        config::Mode::XfailStrict, config::Mode::Skip})
            if (mode != *request.current)
                m_mode->addItem(QLatin1String(config::modeName(mode)), static_cast<int>(mode));
        form->addRow(tr("From %1 to").arg(QLatin1String(config::modeName(*request.current))),
                     m_mode);
    } else {
        auto* move = new QLabel(request.move, this);
        move->setTextFormat(Qt::PlainText);
        form->addRow(tr("Move"), move);
    }
    m_reason->setPlaceholderText(tr("Why, in a reviewer's words (kept as a comment)"));
    m_reason->setMinimumWidth(420);
    form->addRow(tr("Reason"), m_reason);
    m_evidence->setText(request.evidence);
    m_evidence->setPlaceholderText(tr("e.g. passed 12/12 runs of org/repo test since abc1234"));
    form->addRow(tr("Evidence"), m_evidence);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton* ok = buttons->button(QDialogButtonBox::Ok);
    ok->setEnabled(false);
    connect(m_reason, &QLineEdit::textChanged, ok,
            [ok](const QString& text) { ok->setEnabled(!text.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

Rationale RationaleDialog::rationale() const
{
    Rationale out{m_reason->text().trimmed(), m_evidence->text().trimmed(), {}};
    if (m_mode)
        out.mode = static_cast<config::Mode>(m_mode->currentData().toInt());
    return out;
}

std::optional<Rationale> RationaleDialog::ask(const RationaleRequest& request, QWidget* parent)
{
    RationaleDialog dialog(request, parent);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return dialog.rationale();
}

} // namespace relayhud::ui
