#pragma once
// relayhud's command line: normal use with optional --cache/--hud overrides,
// --demo, --self-test, --screenshot FILE, --dark, --help and --version.
#include "relayhud/util/time.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

class QCoreApplication;

namespace relayhud::ui {

struct LaunchOptions {
    enum class Mode { Normal, Demo, SelfTest, Screenshot };
    Mode mode = Mode::Normal;
    QString cachePath;                // --cache
    QString hudUrl;                   // --hud
    QString teamServer;               // --server: the team's triage server
    QString screenshotPath;           // --screenshot
    QSize screenshotSize{1920, 1080}; // --size
    QString simulator;                // --simulator (default: relayhud-sim next to relayhud)
    bool dark = false;                // --dark
    QString view;                     // --view: a MainWindow::viewNames() entry
    bool exitAfterPaint = false;     // --exit-after-paint: print the time to a painted matrix, exit
    std::optional<EpochSeconds> now; // --now: the clock starts at this instant
    QStringList openPaths;           // reports, archives, folders or logs to open at start
};

// Must run before QApplication exists: headless modes (--self-test,
// --screenshot, --help, --version) default to the offscreen platform when none is set.
void prepareEnvironment(int argc, char** argv);

// Parses the application's arguments; --help, --version and errors print
// and exit, as QCommandLineParser::process does.
LaunchOptions parseCommandLine(const QCoreApplication& app);

} // namespace relayhud::ui
