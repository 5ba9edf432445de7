#pragma once
// Merge gating for reviewers (issue 34, part 8): for the PR of the selected
// row, whether the merge bot would block its merge on a CRCR check, and what
// Dr. CI would list. Core decides (verdict/merge_gating.h); the panel reads
// the facts on a worker and paints the judgement, with the rule cited.
#include "relayhud/verdict/merge_gating.h"

#include <QString>
#include <QWidget>

#include <optional>

class QLabel;
class QTreeWidget;

namespace relayhud::ui {

struct MergeGatingData {
    PrNumber prNumber;
    std::optional<verdict::MergeGating> gating;
    QString error;
};

class MergeGatingPanel : public QWidget {
    Q_OBJECT
public:
    // The judgement first, the long check-run name last (it takes the rest).
    enum BotColumn { BotVerdictColumn, BotLevelColumn, BotStateColumn, BotNameColumn };
    enum DrciColumn {
        DrciSectionColumn,
        DrciLevelColumn,
        DrciShaColumn,
        DrciAttemptColumn,
        DrciNameColumn
    };

    explicit MergeGatingPanel(QWidget* parent = nullptr);

    // Reads PR `prNumber` from `cachePath` on a worker; 0 shows a note.
    void load(const QString& cachePath, PrNumber prNumber);
    PrNumber prNumber() const { return m_pr; }
    bool isLoading() const { return m_loading; }

    QString botText() const;
    QString drciText() const;
    QTreeWidget* botTable() const { return m_botTable; }
    QTreeWidget* drciTable() const { return m_drciTable; }

    // The worker's part, public for tests.
    static MergeGatingData read(const QString& cachePath, PrNumber prNumber);
    void showData(const MergeGatingData& got);

signals:
    void loaded(qint64 prNumber);

private:
    void showMessage(const QString& text);
    void fillBot(const verdict::MergeGating& g);
    void fillDrci(const verdict::MergeGating& g);

    QLabel* m_title;
    QLabel* m_bot;
    QTreeWidget* m_botTable;
    QLabel* m_drci;
    QTreeWidget* m_drciTable;
    QLabel* m_notes;
    QLabel* m_rule;
    PrNumber m_pr;
    quint64 m_request = 0;
    bool m_loading = false;
};

} // namespace relayhud::ui
