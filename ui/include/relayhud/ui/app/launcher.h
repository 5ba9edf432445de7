#pragma once
// Turns LaunchOptions into a session: the normal window, the demo against a
// child simulator, the offscreen self-test, or a screenshot. Ends the event
// loop with an exit code for the headless modes. A normal start first offers
// its arguments to an instance already showing the same cache (exit 0 once
// it took them), then links to a running demo, and otherwise becomes that
// instance. An interactive demo takes links (relayhud://pr/N, ...) the same
// way: a second `--demo LINK` or a link clicked while it runs reach it.
#include "relayhud/ui/app/command_line.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>

namespace relayhud::ui {

class DemoSimulator;
class InstanceChannel;
class MainWindow;
struct SessionConfig;

class Launcher : public QObject {
    Q_OBJECT
public:
    explicit Launcher(LaunchOptions options, QObject* parent = nullptr);
    ~Launcher() override;

    // Call before QApplication::exec().
    void start();

    static constexpr int kHeadlessTimeoutMs = 30000;
    // A picture of the Doctor waits for the first artifact pass, whose job
    // logs its tested-SHA check reads (the demo fetches every run's results).
    static constexpr int kArtifactsTimeoutMs = 300000;

    // Arguments as another process can read them: files as absolute paths
    // (it has its own working directory), links and anything else as given.
    static QStringList forwardable(const QStringList& arguments);

    // The window this process shows; null while it waits, or when another
    // instance took its arguments.
    MainWindow* window() const { return m_window.get(); }

private:
    void startNormal();
    void openOrOfferToDemo(const SessionConfig& config);
    void startDemo();
    void listenAsDemo();
    void openNormalWindow(const SessionConfig& config);
    void onForwardedArguments(const QStringList& arguments);
    void startSimulator();
    void onSimulatorReady(const QString& baseUrl);
    void onSimulatorFailed(const QString& reason);
    void createWindow(const SessionConfig& config);
    void watchHeadless();
    void onMatrixRefreshed(int rows, int columns);
    void exitAfterFirstPaint(int rows);
    void finishSelfTest(int rows, int columns);
    void finishScreenshot();
    void shootWhenTestsShown();
    void fail(const QString& reason);
    void exitLater(int code);
    bool headless() const;

    LaunchOptions m_options;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<DemoSimulator> m_simulator;
    std::unique_ptr<InstanceChannel> m_channel;
    std::unique_ptr<InstanceChannel> m_demoChannel; // a running demo's, or this demo's
    QTimer m_deadline;
    QElapsedTimer m_sinceStart;
    bool m_synced = false;
    bool m_finishing = false;
    bool m_artifactsSynced = false; // the first artifact pass (job logs included) ended
    bool m_exiting = false;
    bool m_shot = false;
    bool m_selfTestTestsOk = false;   // the failed cell's tests arrived
    bool m_selfTestDetailsOk = false; // and its run's details
    QString m_lastTestsError;         // why the last read of its tests failed
};

} // namespace relayhud::ui
