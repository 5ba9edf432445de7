#pragma once
// The editor's questions. Closing with pending edits: save, discard or stay.
// Before many suggestions are applied at once (issue 36): how many moves in
// which configs, and the exact diff they make, with Apply and Cancel
// (Cancel the default). And the warning before promoting a test that never
// passed in its recent runs, with Promote anyway and Cancel.
#include <QDialog>
#include <QString>
#include <QStringList>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace relayhud::ui {

struct ApplyAllRequest {
    int moves = 0;
    QStringList configs; // file names of the configs that change
    QString diff;        // the unified diff of applying them, as patch -p1 reads it
};

class ApplyAllDialog : public QDialog {
    Q_OBJECT
public:
    explicit ApplyAllDialog(const ApplyAllRequest& request, QWidget* parent = nullptr);

    QString summary() const;
    QString diff() const;
    QPushButton* applyButton() const { return m_apply; }

    // Runs the dialog; true when the user chose to apply.
    static bool ask(const ApplyAllRequest& request, QWidget* parent);

private:
    QLabel* m_summary = nullptr;
    QPlainTextEdit* m_diff = nullptr;
    QPushButton* m_apply = nullptr;
};

// Closing with pending edits: Save (the default), Discard or Cancel, naming
// the configs.
enum class UnsavedChoice { Save, Discard, Cancel };
UnsavedChoice askUnsaved(QWidget* parent, const QStringList& paths);

// "test_x never passed in its last 10 runs": Promote anyway (true) or Cancel.
bool askPromoteNeverPassed(const QString& test, const QString& warning, QWidget* parent);

} // namespace relayhud::ui
