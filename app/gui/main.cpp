// relayhud: the desktop GUI. Everything but argument handling lives in ui/.
#include "relayhud/ui/app/command_line.h"
#include "relayhud/ui/app/dark_palette.h"
#include "relayhud/ui/app/launcher.h"
#include "relayhud/util/time.h"

#include <QApplication>
#include <QIcon>

int main(int argc, char** argv)
{
    relayhud::ui::prepareEnvironment(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RelayHUD"));
    QApplication::setApplicationName(QStringLiteral("relayhud"));
    QApplication::setApplicationDisplayName(QStringLiteral("RelayHUD"));
    QApplication::setApplicationVersion(QStringLiteral(RELAYHUD_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("relayhud"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/relayhud/relayhud.svg")));

    const relayhud::ui::LaunchOptions options = relayhud::ui::parseCommandLine(app);
    if (options.now)
        relayhud::pinClock(*options.now); // before any thread reads it
    if (options.dark)
        relayhud::ui::applyDarkPalette(app);
    relayhud::ui::Launcher launcher(options);
    launcher.start();
    return QApplication::exec();
}
