// relayhud_ui_tests: GoogleTest inside a QApplication, offscreen by default,
// at the tests' "now" (tests/core/test_world.h).
#include "../core/test_world.h"

#include <QApplication>
#include <QStandardPaths>

#include <gmock/gmock.h>

int main(int argc, char** argv)
{
    relayhud::test::pinTestClock();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Keep the user's QSettings and caches out of reach.
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RelayHUD-tests"));
    QApplication::setApplicationName(QStringLiteral("relayhud_ui_tests"));
    ::testing::InitGoogleMock(&argc, argv);
    return RUN_ALL_TESTS();
}
