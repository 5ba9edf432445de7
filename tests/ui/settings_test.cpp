// AppSettings persistence and the settings dialog.
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/settings/settings_dialog.h"

#include "test_support.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
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
    s.groupShards = false;
    s.teamServer = QStringLiteral("postgresql://alice@db.example.org/triage?sslmode=verify-full");
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
    auto* list = dialog.findChild<QListWidget*>(QStringLiteral("backends"));
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

// Settings › Team (issue 21): the server goes to the settings, its password
// to the keychain's credentials; a server setting with a password in it is
// named and the dialog will not close on it.
TEST(SettingsDialog, TheTeamServerIsASettingAndItsPasswordAKeychainEntry)
{
    AppSettings initial;
    Credentials stored;
    stored.teamPassword = "old";
    SettingsDialog dialog(initial, {}, stored);
    auto* tabs = dialog.findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    tabs->setCurrentIndex(tabs->count() - 1);
    EXPECT_EQ(tabs->tabText(tabs->currentIndex()), QStringLiteral("Team"));
    auto* server = dialog.findChild<QLineEdit*>(QStringLiteral("teamServer"));
    auto* password = dialog.findChild<QLineEdit*>(QStringLiteral("teamPassword"));
    auto* problem = dialog.findChild<QLabel*>(QStringLiteral("teamProblem"));
    ASSERT_TRUE(server && password && problem);
    EXPECT_EQ(password->echoMode(), QLineEdit::PasswordEchoOnEdit);
    EXPECT_EQ(password->text(), QStringLiteral("old"));
    server->setText(QStringLiteral(" host=db.example.org dbname=triage sslmode=verify-full "));
    password->setText(QStringLiteral("n3w"));
    EXPECT_TRUE(problem->isHidden());
    test::keepPicture(dialog, QStringLiteral("settings_team.png"));
    EXPECT_EQ(dialog.settings().teamServer,
              QStringLiteral("host=db.example.org dbname=triage sslmode=verify-full"));
    EXPECT_EQ(dialog.credentials().teamPassword, "n3w");
    EXPECT_TRUE(dialog.credentialsChanged());

    server->setText(QStringLiteral("postgresql://alice:s3cret@db.example.org/triage"));
    EXPECT_FALSE(problem->isHidden());
    EXPECT_TRUE(problem->text().contains(QStringLiteral("keychain")))
        << problem->text().toStdString();
    test::keepPicture(dialog, QStringLiteral("settings_team_refused.png"));
    dialog.show();
    dialog.accept();
    EXPECT_EQ(dialog.result(), QDialog::Rejected) << "not closed with a password in the setting";
    EXPECT_TRUE(dialog.isVisible());
    server->setText(QStringLiteral("host=db.example.org"));
    dialog.accept();
    EXPECT_EQ(dialog.result(), QDialog::Accepted);
}

TEST(SettingsDialog, RuleFilesLoadAfterTheDefaultsAndBadRulesAreNamedByFileAndLine)
{
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("team.toml"));
    const QString bad = dir.filePath(QStringLiteral("broken.toml"));
    const auto write = [](const QString& path, const QByteArray& text) {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    };
    write(good, "[[rule]]\nname = 'spyre device lost'\npattern = 'SpyreDeviceLost: (.*)'\n"
                "class = 'infra'\n");
    write(bad, "[[rule]]\nname = 'look-behind'\npattern = '(?<=x)y'\n\n"
               "[[rule]]\nname = 'fine'\npattern = 'fine'\n");
    const RuleFilesCheck defaults = checkRuleFiles({});
    ASSERT_GT(defaults.rules, 10);
    EXPECT_TRUE(defaults.problems.isEmpty()) << defaults.problems.join(u'\n').toStdString();

    const RuleFilesCheck check =
        checkRuleFiles({good, bad, dir.filePath(QStringLiteral("missing.toml"))});
    EXPECT_EQ(check.rules, defaults.rules + 2) << "the good rules of both files load";
    ASSERT_EQ(check.problems.size(), 2) << check.problems.join(u'\n').toStdString();
    const QString all = check.problems.join(u'\n');
    EXPECT_TRUE(all.contains(QStringLiteral("missing.toml")));
    EXPECT_TRUE(all.contains(bad + QStringLiteral(":3"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("look-behind"))) << all.toStdString();

    AppSettings initial;
    initial.ruleFiles = {good, bad};
    SettingsDialog dialog(initial, {});
    auto* report = dialog.findChild<QLabel*>(QStringLiteral("rulesReport"));
    ASSERT_NE(report, nullptr);
    EXPECT_TRUE(report->text().contains(QStringLiteral("look-behind"))) << "shown on open";
    EXPECT_EQ(dialog.settings().ruleFiles, initial.ruleFiles);

    QSettings store(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    saveSettings(store, initial);
    EXPECT_EQ(loadSettings(store).ruleFiles, initial.ruleFiles);
}
