// AppSettings persistence and the settings dialog.
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/settings/settings_dialog.h"

#include "test_support.h"

#include <QComboBox>
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
    const auto field = [&dialog](const char* name) {
        auto* edit = dialog.findChild<QLineEdit*>(QLatin1String(name));
        EXPECT_NE(edit, nullptr) << name;
        return edit;
    };
    field("hudUrl")->setText(QStringLiteral(" http://hud.local/ "));
    field("githubApiUrl")->setText(QStringLiteral("https://ghe.local/api/v3"));
    field("s3Endpoint")->setText(QStringLiteral(" http://127.0.0.1:9000 "));
    field("s3Region")->setText(QStringLiteral("eu-west-1"));
    field("githubToken")->setText(QStringLiteral("ghp_secret"));
    field("s3AccessKeyId")->setText(QStringLiteral("AKIDEXAMPLE"));
    field("s3SecretAccessKey")->setText(QStringLiteral("s3cr3t"));
    auto* interval = dialog.findChild<QSpinBox*>(QStringLiteral("syncInterval"));
    auto* days = dialog.findChild<QSpinBox*>(QStringLiteral("historyDays"));
    auto* policy = dialog.findChild<QComboBox*>(QStringLiteral("artifactPolicy"));
    ASSERT_TRUE(interval && days && policy);
    interval->setValue(5);
    days->setValue(30);
    policy->setCurrentIndex(policy->findData(static_cast<int>(ArtifactPolicy::OnDemand)));

    const AppSettings edited = dialog.settings();
    EXPECT_EQ(edited.hudUrl, QStringLiteral("http://hud.local/"));
    EXPECT_THAT(edited.backends, ::testing::ElementsAre(QStringLiteral("org/a")));
    EXPECT_TRUE(edited.cachePath.isEmpty()); // still the default location
    EXPECT_EQ(edited.syncIntervalMinutes, 5);
    EXPECT_EQ(edited.githubApiUrl, QStringLiteral("https://ghe.local/api/v3"));
    EXPECT_EQ(edited.s3Endpoint, QStringLiteral("http://127.0.0.1:9000"));
    EXPECT_EQ(edited.s3Region, QStringLiteral("eu-west-1"));
    EXPECT_EQ(edited.artifactPolicy, ArtifactPolicy::OnDemand);
    const Credentials tokens = dialog.credentials();
    EXPECT_EQ(tokens.githubToken, "ghp_secret");
    EXPECT_EQ(tokens.s3AccessKeyId, "AKIDEXAMPLE");
    EXPECT_EQ(tokens.s3SecretAccessKey, "s3cr3t");
    EXPECT_EQ(edited.historyDays, 30);
}
