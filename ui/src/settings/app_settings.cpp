#include "relayhud/ui/settings/app_settings.h"

#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace relayhud::ui {

namespace {

const QString kHudUrl = QStringLiteral("hud/url");
const QString kBackends = QStringLiteral("hud/backends");
const QString kCachePath = QStringLiteral("cache/path");
const QString kInterval = QStringLiteral("sync/intervalMinutes");
const QString kDays = QStringLiteral("sync/historyDays");
const QString kHideGreen = QStringLiteral("view/hideAllGreen");
const QString kFirstAttempt = QStringLiteral("view/showFirstAttempt");

} // namespace

QString defaultCachePath()
{
    // $XDG_CACHE_HOME/relayhud/relayhud.sqlite, the file relayhud-cli uses
    // too (relayhud::defaultCachePath), so both tools share one cache.
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
           + QStringLiteral("/relayhud/relayhud.sqlite");
}

QString AppSettings::effectiveCachePath() const
{
    return cachePath.isEmpty() ? defaultCachePath() : cachePath;
}

AppSettings loadSettings(QSettings& store)
{
    AppSettings s;
    s.hudUrl = store.value(kHudUrl, s.hudUrl).toString();
    s.backends = store.value(kBackends).toStringList();
    s.cachePath = store.value(kCachePath).toString();
    s.syncIntervalMinutes =
        std::clamp(store.value(kInterval, s.syncIntervalMinutes).toInt(), 1, 1440);
    s.historyDays = std::clamp(store.value(kDays, s.historyDays).toInt(), 1, 365);
    s.hideAllGreen = store.value(kHideGreen, false).toBool();
    s.showFirstAttempt = store.value(kFirstAttempt, false).toBool();
    return s;
}

void saveSettings(QSettings& store, const AppSettings& s)
{
    store.setValue(kHudUrl, s.hudUrl);
    store.setValue(kBackends, s.backends);
    store.setValue(kCachePath, s.cachePath);
    store.setValue(kInterval, s.syncIntervalMinutes);
    store.setValue(kDays, s.historyDays);
    store.setValue(kHideGreen, s.hideAllGreen);
    store.setValue(kFirstAttempt, s.showFirstAttempt);
}

} // namespace relayhud::ui
