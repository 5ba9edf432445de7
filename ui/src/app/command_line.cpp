#include "relayhud/ui/app/command_line.h"

#include "relayhud/ui/main_window.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QUrl>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace relayhud::ui {

void prepareEnvironment(int argc, char** argv)
{
    // Modes that never show a window, including --help and --version, which
    // must work without a display.
    static constexpr const char* kHeadless[] = {"--self-test", "--screenshot", "--help", "-h",
                                                "--help-all",  "--version",    "-v"};
    bool headless = false;
    for (int i = 1; i < argc; ++i)
        for (const char* flag : kHeadless)
            headless = headless || std::strcmp(argv[i], flag) == 0;
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

LaunchOptions parseCommandLine(const QCoreApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "relayhud", "Desktop HUD for PyTorch's Cross-Repository CI Relay."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption cache(QStringLiteral("cache"),
                                   QCoreApplication::translate("relayhud", "Use this cache file."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption hud(QStringLiteral("hud"),
                                 QCoreApplication::translate("relayhud", "Sync from this HUD."),
                                 QStringLiteral("URL"));
    const QCommandLineOption server(
        QStringLiteral("server"),
        QCoreApplication::translate(
            "relayhud",
            "Share triage through this team server (a libpq conninfo or URI; the password "
            "from the keychain, PGPASSWORD or ~/.pgpass)."),
        QStringLiteral("CONNINFO"));
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QCoreApplication::translate("relayhud",
                                    "Run against a local simulator with a fresh cache."));
    const QCommandLineOption selfTest(
        QStringLiteral("self-test"),
        QCoreApplication::translate("relayhud", "Sync from the simulator offscreen, check, exit."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("relayhud", "Demo, then save a screenshot to FILE and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption size(
        QStringLiteral("size"),
        QCoreApplication::translate("relayhud",
                                    "The screenshot's size (default 1920x1080, a full-HD screen)."),
        QStringLiteral("WxH"));
    const QCommandLineOption simulator(
        QStringLiteral("simulator"),
        QCoreApplication::translate("relayhud", "The relayhud-sim executable to run."),
        QStringLiteral("PATH"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QCoreApplication::translate("relayhud",
                                    "Start in this view: commits, prs, nightly, release or "
                                    "backends (default: the one last left)."),
        QStringLiteral("NAME"));
    const QCommandLineOption dark(QStringLiteral("dark"),
                                  QCoreApplication::translate("relayhud", "Use a dark palette."));
    const QCommandLineOption exitAfterPaint(
        QStringLiteral("exit-after-paint"),
        QCoreApplication::translate(
            "relayhud", "Exit once the matrix from the cache is painted (cold-start benchmark)."));
    const QCommandLineOption now(
        QStringLiteral("now"),
        QCoreApplication::translate(
            "relayhud", "Start the clock at TIME (epoch seconds or 2026-05-04T17:00:00Z): the "
                        "demo's world, day windows and stale runs as of then."),
        QStringLiteral("TIME"));
    parser.addOptions({cache, hud, server, demo, selfTest, screenshot, size, simulator, view, dark,
                       exitAfterPaint, now});
    parser.addPositionalArgument(
        QStringLiteral("PATH"),
        QCoreApplication::translate(
            "relayhud",
            "JUnit reports, artifact archives (.zip, .tar.gz) or folders "
            "to open; any other file opens as a log (.txt, .log, .gz), "
            "also as PATH:LINE, PATH:FIRST-LAST or a relayhud://log link. "
            "No server needed. relayhud://sha/SHA, relayhud://pr/N and "
            "relayhud://run/CHECK_RUN_ID[?test=TEST] select that place in the matrix; "
            "a running instance with the same cache receives them instead of a second window."),
        QStringLiteral("[PATH...]"));
    parser.process(app);

    LaunchOptions options;
    options.cachePath = parser.value(cache);
    options.hudUrl = parser.value(hud);
    options.teamServer = parser.value(server);
    options.screenshotPath = parser.value(screenshot);
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(u'x');
        const int w = parts.size() == 2 ? parts[0].toInt() : 0;
        const int h = parts.size() == 2 ? parts[1].toInt() : 0;
        if (w < 320 || h < 240 || w > 8192 || h > 8192) {
            std::fprintf(stderr, "relayhud: --size wants WxH, e.g. 1366x768 (got '%s')\n",
                         qPrintable(parser.value(size)));
            std::exit(2);
        }
        options.screenshotSize = QSize(w, h);
    }
    options.view = parser.value(view);
    if (parser.isSet(view) && !MainWindow::viewNames().contains(options.view)) {
        std::fprintf(stderr, "relayhud: --view wants one of %s (got '%s')\n",
                     qPrintable(MainWindow::viewNames().join(QStringLiteral(", "))),
                     qPrintable(options.view));
        std::exit(2);
    }
    options.simulator = parser.value(simulator);
    options.dark = parser.isSet(dark);
    options.exitAfterPaint = parser.isSet(exitAfterPaint);
    if (parser.isSet(now)) {
        options.now = parseInstant(parser.value(now).toStdString());
        if (!options.now) {
            std::fprintf(stderr,
                         "relayhud: --now wants epoch seconds or a time like "
                         "2026-05-04T17:00:00Z (got '%s')\n",
                         qPrintable(parser.value(now)));
            std::exit(2);
        }
    }
    // The desktop's %U hands files over as file:// URLs.
    for (const QString& argument : parser.positionalArguments())
        options.openPaths << (argument.startsWith(u"file://", Qt::CaseInsensitive)
                                  ? QUrl(argument).toLocalFile()
                                  : argument);
    if (parser.isSet(selfTest))
        options.mode = LaunchOptions::Mode::SelfTest;
    else if (parser.isSet(screenshot))
        options.mode = LaunchOptions::Mode::Screenshot;
    else if (parser.isSet(demo))
        options.mode = LaunchOptions::Mode::Demo;
    return options;
}

} // namespace relayhud::ui
