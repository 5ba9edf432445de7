#pragma once
// A window for test results the user opened from disk (File > Open Report,
// drag and drop, `relayhud PATH`): the imported test run in a TestsPanel,
// read from the cache like any other run, with no server involved.
#include "relayhud/model/ids.h"
#include "relayhud/util/ticket.h"

#include <QMainWindow>

#include <cstdint>

namespace relayhud::ui {

class TestResultsController;
class TestsPanel;

class ReportWindow : public QMainWindow {
    Q_OBJECT
public:
    ReportWindow(const std::string& cachePath, TestRunId testRunId, const QString& label,
                 const QString& summary, QWidget* parent = nullptr);
    ~ReportWindow() override;

    TestsPanel* panel() const { return m_panel; }
    TestRunId testRunId() const { return m_testRunId; }

signals:
    void loaded(int tests);

private:
    TestResultsController* m_loader;
    TestsPanel* m_panel;
    TestRunId m_testRunId;
    Ticket m_load; // the imported run's load: its tracebacks are asked with it
};

} // namespace relayhud::ui
