#pragma once
// Above the tests table: the outcome counts in the artifacts as toggles that
// filter the table, the HUD row's self-reported counts beside them, a flag in
// the warning colour wherever the two disagree, and the reports' warnings
// (parse breaks, skipped archive entries).
#include "relayhud/model/count_kind.h"
#include "relayhud/model/test_result.h"
#include "relayhud/model/types.h"

#include <QStringList>
#include <QWidget>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

class QBoxLayout;
class QLabel;
class QToolButton;

namespace relayhud::ui {

using OutcomeCounts = std::array<std::int64_t, kTestOutcomeCount>;

// One line per disagreement, e.g. "Self-reported: 0 failed — artifacts: 3
// failed". Compared: failed with failed + error + xpass-strict, skipped with
// skipped + xfailed, total with total.
QStringList countMismatches(const OutcomeCounts& artifacts, const TestCounts& selfReported);

class TestsCountsBar : public QWidget {
    Q_OBJECT
public:
    explicit TestsCountsBar(QWidget* parent = nullptr);

    // No artifacts counts (nullopt): the toggles hide and only the
    // self-reported counts show. Counts of a kind that is not JUnit cases
    // (commands, health checks: model/count_kind.h) are labelled and never
    // compared with the artifacts'.
    void setCounts(const std::optional<OutcomeCounts>& artifacts,
                   const std::optional<TestCounts>& selfReported,
                   CountKind selfReportedKind = CountKind::Unknown);
    void setWarnings(const std::vector<std::string>& warnings);
    // Bits per TestOutcome (outcomeBit); 0: none ticked, every outcome shown.
    void setSelectedOutcomes(std::uint8_t outcomes);
    std::uint8_t selectedOutcomes() const;

    QToolButton* outcomeButton(TestOutcome outcome) const;
    QString selfReportedText() const;
    QStringList mismatchLines() const { return m_mismatchLines; }
    QStringList warningLines() const { return m_warningLines; }

    // As narrow as one of its two button groups: the groups sit on one row
    // when the bar is wide enough, on two when not.
    QSize minimumSizeHint() const override;

signals:
    void outcomesChanged(int outcomes);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void buildButtons();
    void refreshButtons();
    void applyWarningColour();

    std::array<QToolButton*, kTestOutcomeCount> m_buttons{};
    QBoxLayout* m_rows = nullptr;   // the two groups, side by side or stacked
    QBoxLayout* m_broken = nullptr; // what broke: failed, error, strict xpass
    QBoxLayout* m_rest = nullptr;   // passed, skipped, xfailed
    QLabel* m_caption;
    QLabel* m_selfReported;
    QLabel* m_mismatches;
    QLabel* m_warnings;
    std::optional<OutcomeCounts> m_counts;
    QStringList m_mismatchLines;
    QStringList m_warningLines;
};

} // namespace relayhud::ui
