#pragma once
// "Tag…": one dialog for the class, a note and a bug link of one failure, a
// selection or a cluster. Opens with the current tag (when all targets share
// one) so a second look edits rather than retypes.
#include "relayhud/model/failure_class.h"

#include <QDialog>
#include <QString>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace relayhud::ui {

struct TriageEdit {
    triage::FailureClass cls = triage::FailureClass::Untriaged;
    QString note;
    QString bugUrl;
};

class TriageDialog : public QDialog {
    Q_OBJECT
public:
    // `subject`: "3 failures", "test_add (float16)", "cluster of 42".
    TriageDialog(const QString& subject, const TriageEdit& initial, QWidget* parent = nullptr);

    TriageEdit edit() const;
    QComboBox* classBox() const { return m_class; }
    QPlainTextEdit* noteEdit() const { return m_note; }
    QLineEdit* bugEdit() const { return m_bug; }
    // Why OK is disabled ("" when it is not).
    QString problem() const;

private:
    void validate();

    QComboBox* m_class;
    QPlainTextEdit* m_note;
    QLineEdit* m_bug;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

// The sheet of keys (`?`): every key of the main window and what it does,
// written from keyTable() (triage/key_table.h).
class TriageShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit TriageShortcutsDialog(QWidget* parent = nullptr);
};

// Shows the window's one sheet of keys (made on first use), beside the work:
// it is not modal, so the keys it lists can be tried with it open.
TriageShortcutsDialog* showKeySheet(QWidget* from);

} // namespace relayhud::ui
