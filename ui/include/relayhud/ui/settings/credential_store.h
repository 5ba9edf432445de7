#pragma once
// Tokens for the artifact stores, kept in the OS keychain through qtkeychain
// (Secret Service, KWallet, macOS Keychain, Windows Credential Manager) and
// never in QSettings, the cache or a log. A variable set in the environment
// (GITHUB_TOKEN/GH_TOKEN, AWS_ACCESS_KEY_ID, ...) wins over the keychain, as
// it does for relayhud-cli. Keychain calls are asynchronous; a machine without
// a keychain service works from the environment and says so.
#include "relayhud/artifacts/artifact_store.h"

#include <QObject>
#include <QString>

namespace relayhud::ui {

class CredentialStore : public QObject {
    Q_OBJECT
public:
    // Keychain entries, under the service "RelayHUD".
    enum Entry { GithubToken, S3AccessKeyId, S3SecretAccessKey, TeamPassword, EntryCount };

    explicit CredentialStore(QObject* parent = nullptr);

    // Reads every entry; emits loaded() when all have answered.
    void load();
    // Writes the non-empty fields and deletes the empty ones; emits saved().
    void save(const Credentials& credentials);
    // Demo and test sessions: use these and never touch the keychain.
    void useSessionOnly(const Credentials& credentials);

    // What requests use: the environment over the keychain.
    Credentials credentials() const;
    // What the keychain holds (the settings dialog edits these).
    const Credentials& stored() const { return m_stored; }
    // Every entry has answered once (or this is a session-only store): what
    // credentials() says is what it will say.
    bool isLoaded() const { return m_sessionOnly || m_loaded; }
    // Why the keychain could not be used, or "".
    QString keychainProblem() const { return m_problem; }

    static Credentials merge(const Credentials& environment, const Credentials& stored);
    static QString entryKey(Entry entry);

signals:
    void loaded();
    void saved(const QString& error);

private:
    void read(Entry entry);
    void finishRead(Entry entry, const QString& value, const QString& error);
    void write(Entry entry, const std::string& value);
    void finishWrite(const QString& error);

    Credentials m_stored;
    bool m_sessionOnly = false;
    bool m_loaded = false;
    int m_pendingReads = 0;
    int m_pendingWrites = 0;
    QString m_problem;
    QString m_writeError;
};

} // namespace relayhud::ui
