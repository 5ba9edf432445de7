#pragma once
// Under the tests table: everything about the selected test. Identity and
// names are selectable; message and traceback are plain text in a monospace
// read-only view (CI text never reaches rich text). The traceback and the
// history arrive later (the panel asks the loader for them) and are taken
// only when they belong to the test shown.
#include "relayhud/model/test_results.h"
#include "relayhud/ui/tests/tests_panel_data.h"

#include <QWidget>

#include <cstdint>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;
class QToolButton;

namespace relayhud::ui {

class HistoryStripWidget;
class OutcomeTile;

class TestDetailsView : public QWidget {
    Q_OBJECT
public:
    explicit TestDetailsView(QWidget* parent = nullptr);

    // `history` null: not loaded yet (shows "Loading history…").
    void showTest(const StoredTestResult& result, const TestHistory* history);
    void showNote(const QString& note);
    // Ignored unless `textId` is the shown test's traceback.
    void setTraceback(TestMessageId textId, const QString& text, bool cut, const QString& fullPath);
    // Ignored unless it is the shown test's history.
    void setHistory(const TestHistory& history);
    // The shown test's triage: its class (a person's tag or the suggestion),
    // why, and the tag's note, bug link, author and time. Null: none (the
    // test did not fail, or the results are an import).
    void setTriage(const TestTriage* triage);
    // Whether the shown results came from a run whose job log can be read
    // (not an import): "Show in log" is offered for failing tests then.
    void setLogAvailable(bool available);

    bool hasTest() const;
    TestId testId() const { return m_testId; }
    TestMessageId tracebackId() const { return m_tracebackId; }
    QString identityText() const;
    QString outcomeText() const;
    QString bodyText() const; // the monospace view: message, then traceback
    QString historySummary() const;
    QString cutNote() const;
    const HistoryStripWidget& historyStrip() const { return *m_strip; }
    bool offersShowInLog() const;
    QString triageText() const; // the class line
    QString whyText() const;    // the evidence, one item per line

signals:
    // "Show in log": the job's log at this test's failure.
    void showInLogRequested(qint64 testId, const QString& identity);
    // "Tag…": set the shown test's class, note and bug link.
    void tagRequested();
    // "Open in config": the outcome-config entry that decides this test.
    void openInConfigRequested(const QString& identity, const QString& marks);

private:
    QWidget* buildContent();
    QFormLayout* buildFields(QWidget& content);
    QPlainTextEdit* buildText(QWidget& content);
    QLineEdit* addField(QFormLayout& form, const QString& label);
    void showBody();
    void updateLogButton();

    QStackedWidget* m_stack;
    QLabel* m_note;
    OutcomeTile* m_tile = nullptr;
    QLineEdit* m_identity = nullptr;
    QLineEdit* m_baseName = nullptr;
    QLineEdit* m_marks = nullptr;
    QLineEdit* m_outcome = nullptr;
    HistoryStripWidget* m_strip = nullptr;
    QLabel* m_summary = nullptr;
    QToolButton* m_showInLog = nullptr;
    QToolButton* m_tag = nullptr;
    QToolButton* m_openInConfig = nullptr;
    QLabel* m_classLabel = nullptr;
    QLabel* m_class = nullptr;
    QLabel* m_whyLabel = nullptr;
    QLabel* m_why = nullptr;
    QLabel* m_cut = nullptr;
    QPlainTextEdit* m_body = nullptr;
    TestId m_testId;
    TestMessageId m_tracebackId;
    QString m_rawMarks; // "op__add,dtype__float16", as stored
    QString m_message;
    QString m_traceback;
    bool m_tracebackPending = false;
    bool m_logAvailable = false;
    bool m_failing = false;
};

} // namespace relayhud::ui
