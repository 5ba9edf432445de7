#include "relayhud/ui/app/command_line.h"

#include "relayhud/ui/window/main_window.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QUrl>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

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

namespace {

QString tr(const char* text) { return QCoreApplication::translate("relayhud", text); }

// relayhud's options, each with its help text.
struct Flags {
    QCommandLineOption cache{QStringLiteral("cache"), tr("Use this cache file."),
                             QStringLiteral("FILE")};
    QCommandLineOption hud{QStringLiteral("hud"), tr("Sync from this HUD."), QStringLiteral("URL")};
    QCommandLineOption server{
        QStringLiteral("server"),
        tr("Share triage through this team server (a libpq conninfo or URI; the password "
           "from the keychain, PGPASSWORD or ~/.pgpass)."),
        QStringLiteral("CONNINFO")};
    QCommandLineOption demo{QStringLiteral("demo"),
                            tr("Run against a local simulator with a fresh cache.")};
    QCommandLineOption selfTest{QStringLiteral("self-test"),
                                tr("Sync from the simulator offscreen, check, exit.")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  tr("Demo, then save a screenshot to FILE and exit."),
                                  QStringLiteral("FILE")};
    QCommandLineOption size{QStringLiteral("size"),
                            tr("The screenshot's size (default 1920x1080, a full-HD screen)."),
                            QStringLiteral("WxH")};
    QCommandLineOption simulator{QStringLiteral("simulator"),
                                 tr("The relayhud-sim executable to run."), QStringLiteral("PATH")};
    QCommandLineOption view{QStringLiteral("view"),
                            tr("Start in this view: commits, prs, nightly, release or "
                               "backends (default: the one last left)."),
                            QStringLiteral("NAME")};
    QCommandLineOption dark{QStringLiteral("dark"), tr("Use a dark palette.")};
    QCommandLineOption exitAfterPaint{
        QStringLiteral("exit-after-paint"),
        tr("Exit once the matrix from the cache is painted (cold-start benchmark).")};
    QCommandLineOption now{QStringLiteral("now"),
                           tr("Start the clock at TIME (epoch seconds or 2026-05-04T17:00:00Z): "
                              "the demo's world, day windows and stale runs as of then."),
                           QStringLiteral("TIME")};

    void addTo(QCommandLineParser& parser) const
    {
        parser.addOptions({cache, hud, server, demo, selfTest, screenshot, size, simulator, view,
                           dark, exitAfterPaint, now});
        parser.addPositionalArgument(
            QStringLiteral("PATH"),
            tr("JUnit reports, artifact archives (.zip, .tar.gz) or folders "
               "to open; any other file opens as a log (.txt, .log, .gz), "
               "also as PATH:LINE, PATH:FIRST-LAST or a relayhud://log link. "
               "No server needed. relayhud://sha/SHA, relayhud://pr/N and "
               "relayhud://run/CHECK_RUN_ID[?test=TEST] select that place in the matrix; "
               "a running instance with the same cache receives them instead of a second "
               "window."),
            QStringLiteral("[PATH...]"));
    }
};

// A bad value: say what the option wants and exit 2, as QCommandLineParser
// does for an unknown option.
[[noreturn]] void refuse(const char* option, const std::string& wants, const QString& got)
{
    std::fprintf(stderr, "relayhud: --%s wants %s (got '%s')\n", option, wants.c_str(),
                 qPrintable(got));
    std::exit(2);
}

QSize screenshotSize(const QString& value)
{
    const QStringList parts = value.split(u'x');
    const int w = parts.size() == 2 ? parts[0].toInt() : 0;
    const int h = parts.size() == 2 ? parts[1].toInt() : 0;
    if (w < 320 || h < 240 || w > 8192 || h > 8192)
        refuse("size", "WxH, e.g. 1366x768", value);
    return QSize(w, h);
}

QString viewName(const QString& value)
{
    if (!MainWindow::viewNames().contains(value))
        refuse("view", "one of " + MainWindow::viewNames().join(QStringLiteral(", ")).toStdString(),
               value);
    return value;
}

EpochSeconds instant(const QString& value)
{
    const auto at = parseInstant(value.toStdString());
    if (!at)
        refuse("now", "epoch seconds or a time like 2026-05-04T17:00:00Z", value);
    return *at;
}

LaunchOptions::Mode modeOf(const QCommandLineParser& parser, const Flags& f)
{
    if (parser.isSet(f.selfTest))
        return LaunchOptions::Mode::SelfTest;
    if (parser.isSet(f.screenshot))
        return LaunchOptions::Mode::Screenshot;
    if (parser.isSet(f.demo))
        return LaunchOptions::Mode::Demo;
    return LaunchOptions::Mode::Normal;
}

} // namespace

LaunchOptions parseCommandLine(const QCoreApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(tr("Desktop HUD for PyTorch's Cross-Repository CI Relay."));
    parser.addHelpOption();
    parser.addVersionOption();
    const Flags f;
    f.addTo(parser);
    parser.process(app);

    LaunchOptions options;
    options.mode = modeOf(parser, f);
    options.cachePath = parser.value(f.cache);
    options.hudUrl = parser.value(f.hud);
    options.teamServer = parser.value(f.server);
    options.screenshotPath = parser.value(f.screenshot);
    if (parser.isSet(f.size))
        options.screenshotSize = screenshotSize(parser.value(f.size));
    if (parser.isSet(f.view))
        options.view = viewName(parser.value(f.view));
    options.simulator = parser.value(f.simulator);
    options.dark = parser.isSet(f.dark);
    options.exitAfterPaint = parser.isSet(f.exitAfterPaint);
    if (parser.isSet(f.now))
        options.now = instant(parser.value(f.now));
    // The desktop's %U hands files over as file:// URLs.
    for (const QString& argument : parser.positionalArguments())
        options.openPaths << (argument.startsWith(u"file://", Qt::CaseInsensitive)
                                  ? QUrl(argument).toLocalFile()
                                  : argument);
    return options;
}

} // namespace relayhud::ui
