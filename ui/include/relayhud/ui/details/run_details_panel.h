#pragma once
// The side panel describing the selected cell's run: what ran where, its
// attempts, the relay's trusted timings kept apart from the backend's
// self-reported claims, and links out. All CI text is shown as plain text.
#include "relayhud/ui/details/run_details.h"

#include <QWidget>

#include <array>
#include <cstdint>

class QLabel;
class QFormLayout;
class QStackedWidget;
class QTableView;
class QVBoxLayout;

namespace relayhud::ui {

class AttemptsModel;
class LinkLabel;
class StateTile;

class RunDetailsPanel : public QWidget {
    Q_OBJECT
public:
    enum Field {
        BackendField,
        LevelField,
        WorkflowField,
        JobField,
        ShaField,
        TestedField,
        PrField,
        EventField,
        BranchField,
        StartedField,
        CompletedField,
        DurationField,
        QueueTimeField,
        ExecutionTimeField,
        StatusField,
        ConclusionField,
        TestsField,
        FieldCount
    };
    enum Link { RunLink, ArtifactLink, HudLink, CompareLink, PullRequestLink, LinkCount };

    explicit RunDetailsPanel(QWidget* parent = nullptr);

    void showDetails(const RunDetails& details, const RunLinks& links);
    // Replaces the details with a note ("Select a cell ...", an error).
    void showMessage(const QString& message);

    bool hasDetails() const;
    // The run shown (RunDetails::rowId); none with a note instead.
    CheckRunRow shownRowId() const { return hasDetails() ? m_shownRowId : CheckRunRow{}; }
    QString fieldText(Field field) const;
    QUrl linkUrl(Link link) const;
    QString titleText() const;
    QString stateText() const; // "success  ·  attempt 1 of 1"
    QTableView* attemptsView() const { return m_attemptsView; }
    const AttemptsModel& attemptsModel() const { return *m_attempts; }

signals:
    void linkActivated(const QUrl& url);

private:
    QWidget* buildContent();
    QWidget* buildHeading();
    QFormLayout* addSection(QVBoxLayout& layout, const QString& title, const QString& note = {});
    void addField(QFormLayout& form, Field field, const QString& label);
    void addLink(QFormLayout& form, Link link, const QString& label);
    void fillRun(const RunDetails& details);
    void fillTiming(const CheckRun& run);
    void fillSelfReported(const CheckRun& run);
    void fillLinks(const RunDetails& details, const RunLinks& links);
    void setField(Field field, const QString& text);

    QStackedWidget* m_stack;
    CheckRunRow m_shownRowId;
    QLabel* m_message;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    StateTile* m_stateTile = nullptr;
    QLabel* m_stateText = nullptr;
    std::array<QLabel*, FieldCount> m_fields{};
    std::array<LinkLabel*, LinkCount> m_links{};
    AttemptsModel* m_attempts;
    QTableView* m_attemptsView = nullptr;
};

} // namespace relayhud::ui
