#pragma once
// The user's settings and where they live (QSettings). Demo and test
// sessions run on an in-memory copy and never write them back.
#include <QString>
#include <QStringList>

class QSettings;

namespace relayhud::ui {

struct AppSettings {
    QString hudUrl = QStringLiteral("https://hud.pytorch.org");
    QStringList backends; // followed backends; empty: every backend at L2 and above
    QString cachePath;    // empty: defaultCachePath()
    int syncIntervalMinutes = 15;
    int historyDays = 14;
    bool hideAllGreen = false;
    bool showFirstAttempt = false;

    QString effectiveCachePath() const;
    bool operator==(const AppSettings&) const = default;
};

// <XDG cache dir>/relayhud/relayhud.sqlite, shared with relayhud-cli.
QString defaultCachePath();

AppSettings loadSettings(QSettings& store);
void saveSettings(QSettings& store, const AppSettings& settings);

} // namespace relayhud::ui
