#pragma once
// The Coverage tab of a run: what its green covered and whether it holds.
// The verdict banner with its reasons, the consistency checks, the declared
// set against what ran per bucket, the tests behind the verdict (mandatory
// tests that did not run, each opening its config entry; mandatory tests that
// did not pass, strict xfails that passed, tests no entry explains) and the
// op x dtype heatmap. The verdict is computed off the GUI thread.
#include "relayhud/verdict/verdict.h"

#include <QWidget>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

class QLabel;
class QStackedWidget;
class QTableWidget;
class QTreeWidget;
class QTreeWidgetItem;
class QFrame;

namespace relayhud::ui {

class OpDtypeHeatmap;

class CoveragePanel : public QWidget {
    Q_OBJECT
public:
    explicit CoveragePanel(QWidget* parent = nullptr);

    void setCachePath(const std::string& path) { m_cachePath = path; }
    // The configs verdicts use; re-judges the shown run.
    void setSources(verdict::VerdictSources sources);
    // Judges the run (check_run row id) and shows it; 0 shows a hint.
    void showRun(CheckRunRow rowId);
    void refresh() { showRun(m_rowId); }
    void setMessage(const QString& message);
    void showVerdict(const verdict::RunVerdict& verdict);

    CheckRunRow rowId() const { return m_rowId; }
    const verdict::RunVerdict* shown() const { return m_shown.get(); }
    QLabel* banner() const { return m_title; }
    QTableWidget* bucketTable() const { return m_buckets; }
    QTreeWidget* testsTree() const { return m_tests; }
    OpDtypeHeatmap* heatmap() const { return m_heatmap; }
    // The group of missing mandatory tests in testsTree(), or null.
    QTreeWidgetItem* missingGroup() const { return m_missingGroup; }

signals:
    // A verdict is on screen (after showRun's worker answered).
    void verdictShown(CheckRunRow rowId);
    // A mandatory test that did not run: its entry in `configPath`.
    void missingTestActivated(const QString& configPath, const QString& name, int line);
    // A test of the report (identity), to select in the tests panel.
    void testActivated(const QString& identity);

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildContent();
    QFrame* buildBanner(QWidget* content);
    QTableWidget* buildBuckets(QWidget* content);
    QTreeWidget* buildTests(QWidget* content);
    void fillBanner(const verdict::RunVerdict& v);
    void fillChecks(const verdict::RunVerdict& v);
    void fillBuckets(const verdict::RunVerdict& v);
    void fillTests(const verdict::RunVerdict& v);
    void fillListings(const verdict::ConfigCoverage& c, const QString& configName,
                      const std::function<QTreeWidgetItem*(const QString&, std::size_t)>& group);
    void fillHeatmap(const verdict::RunVerdict& v);
    void onItemActivated(QTreeWidgetItem* item);
    void recolourBanner();

    std::string m_cachePath;
    verdict::VerdictSources m_sources;
    CheckRunRow m_rowId;
    std::uint64_t m_request = 0;
    std::shared_ptr<const verdict::RunVerdict> m_shown;
    QString m_configPath;

    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QFrame* m_bannerFrame = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QLabel* m_reasons = nullptr;
    QLabel* m_checks = nullptr;
    QLabel* m_bucketsNote = nullptr;
    QTableWidget* m_buckets = nullptr;
    QTreeWidget* m_tests = nullptr;
    QTreeWidgetItem* m_missingGroup = nullptr;
    QLabel* m_heatmapNote = nullptr;
    OpDtypeHeatmap* m_heatmap = nullptr;
};

} // namespace relayhud::ui
