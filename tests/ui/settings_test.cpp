// AppSettings persistence and the settings dialog.
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/settings/settings_dialog.h"

#include "test_support.h"

#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;

TEST(AppSettings, DefaultsPointAtThePublicHudAndTheXdgCache)
{
    const AppSettings defaults;
    EXPECT_EQ(defaults.hudUrl, QStringLiteral("https://hud.pytorch.org"));
    EXPECT_TRUE(defaults.effectiveCachePath().endsWith(QStringLiteral("/relayhud.sqlite")));
    EXPECT_TRUE(defaults.backends.isEmpty());
}

TEST(AppSettings, RoundTripThroughQSettings)
{
    QTemporaryDir dir;
    QSettings store(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    AppSettings s;
    s.hudUrl = QStringLiteral("http://127.0.0.1:8080");
    s.backends = {QStringLiteral("org/a"), QStringLiteral("org/b")};
    s.cachePath = QStringLiteral("/tmp/x.sqlite");
    s.syncIntervalMinutes = 7;
    s.historyDays = 3;
    s.hideAllGreen = true;
    saveSettings(store, s);
    EXPECT_EQ(loadSettings(store), s);
}

TEST(SettingsDialog, EditsEveryField)
{
    AppSettings initial;
    initial.backends = {QStringLiteral("org/b")};
    const std::vector<Backend> allowlist{
        {"org/a", Level::L4, {}}, {"org/b", Level::L2, {}}, {"org/c", Level::L3, {}}};
    SettingsDialog dialog(initial, allowlist);
    test::keepPicture(dialog, QStringLiteral("settings.png"));
    auto* list = dialog.findChild<QListWidget*>();
    ASSERT_NE(list, nullptr);
    ASSERT_EQ(list->count(), 3);
    EXPECT_EQ(list->item(1)->checkState(), Qt::Checked);
    list->item(0)->setCheckState(Qt::Checked);
    list->item(1)->setCheckState(Qt::Unchecked);
    const auto edits = dialog.findChildren<QLineEdit*>();
    ASSERT_GE(edits.size(), 2);
    edits[0]->setText(QStringLiteral(" http://hud.local/ "));
    const auto spins = dialog.findChildren<QSpinBox*>();
    ASSERT_EQ(spins.size(), 2);
    spins[0]->setValue(5);
    spins[1]->setValue(30);

    const AppSettings edited = dialog.settings();
    EXPECT_EQ(edited.hudUrl, QStringLiteral("http://hud.local/"));
    EXPECT_THAT(edited.backends, ::testing::ElementsAre(QStringLiteral("org/a")));
    EXPECT_TRUE(edited.cachePath.isEmpty()); // still the default location
    EXPECT_EQ(edited.syncIntervalMinutes, 5);
    EXPECT_EQ(edited.historyDays, 30);
}
