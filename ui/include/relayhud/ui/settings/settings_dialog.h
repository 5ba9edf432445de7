#pragma once
// Edits AppSettings: HUD URL, followed backends (from the cached
// allowlist), cache file, sync interval and days of history; and, on the
// Artifacts page, the stores' endpoints, when to fetch test results, and the
// tokens (which go to the keychain, never to the settings file); on the Team
// page, the team's triage server and its password (keychain only).
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/model/types.h"
#include "relayhud/ui/settings/app_settings.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace relayhud::ui {

class CoverageSettingsPage;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    // `stored`: the keychain's tokens; `keychainNote`: why the keychain is
    // unusable, or "".
    SettingsDialog(const AppSettings& settings, const std::vector<Backend>& allowlist,
                   const Credentials& stored = {}, const QString& keychainNote = {},
                   QWidget* parent = nullptr);

    // The dialog's values merged into the settings it was opened with.
    AppSettings settings() const;
    // The tokens as edited, for the keychain.
    Credentials credentials() const;
    bool credentialsChanged() const { return !sameTokens(credentials(), m_initialTokens); }

    // Refuses to close while the team server setting holds a password.
    void accept() override;

private:
    QWidget* buildHudPage(const std::vector<Backend>& allowlist);
    QWidget* buildArtifactsPage(const QString& keychainNote);
    QWidget* buildTriagePage();
    QWidget* buildTeamPage();
    void checkTeamServer();
    QStringList ruleFiles() const;
    void checkRules();
    QWidget* buildBackendList(const std::vector<Backend>& allowlist);
    QLineEdit* secretField(const std::string& value, const char* environmentVariable);
    static bool sameTokens(const Credentials& a, const Credentials& b);
    void browseCache();

    AppSettings m_initial;
    QLineEdit* m_hudUrl;
    QListWidget* m_backends;
    QLineEdit* m_cachePath;
    QSpinBox* m_interval;
    QSpinBox* m_days;
    Credentials m_initialTokens;
    QLineEdit* m_githubApi = nullptr;
    QLineEdit* m_githubToken = nullptr;
    QLineEdit* m_s3Endpoint = nullptr;
    QLineEdit* m_s3Region = nullptr;
    QLineEdit* m_s3KeyId = nullptr;
    QLineEdit* m_s3Secret = nullptr;
    QComboBox* m_policy = nullptr;
    QListWidget* m_ruleFiles = nullptr;
    QLabel* m_rulesReport = nullptr;
    QLineEdit* m_teamServer = nullptr;
    QLineEdit* m_teamPassword = nullptr;
    QLabel* m_teamProblem = nullptr;
    CoverageSettingsPage* m_coverage = nullptr;
};

} // namespace relayhud::ui
