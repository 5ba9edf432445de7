#pragma once
// Runs relayhud-sim as a child process for --demo, --self-test and
// --screenshot: has it write the backends' outcome configs, starts it on a free port, reads its
// "listening on URL" line, and gives the session a fresh cache in a temporary directory. The child
// exits when we close its stdin (and is killed if it lingers).
#include "relayhud/artifacts/artifact_store.h"

#include <QMap>
#include <QObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

namespace relayhud::ui {

class DemoSimulator : public QObject {
    Q_OBJECT
public:
    explicit DemoSimulator(QObject* parent = nullptr);
    ~DemoSimulator() override;

    // program: the simulator's path; empty: next to this executable.
    void start(const QString& program = {});
    void stop();

    QString baseUrl() const { return m_baseUrl; }
    // A cache file in the session's temporary directory (not yet created).
    QString cachePath() const;
    // The simulator's GitHub API and bucket, and the secrets it was started with.
    ArtifactSettings artifactSettings() const;
    const Credentials& credentials() const { return m_credentials; }
    // The simulated backends' outcome configs ("org/repo" -> file in the
    // session's temporary directory), written before the server starts.
    const QMap<QString, QString>& outcomeConfigs() const { return m_outcomeConfigs; }

    static QString defaultProgram();

signals:
    void ready(const QString& baseUrl);
    void failed(const QString& reason);

private:
    void startServer();
    void readOutput();
    void onError(QProcess::ProcessError error);
    void onFinished(int exitCode);
    void fail(const QString& reason);
    static std::string randomToken(int length);

    QProcess m_configWriter;
    QProcess m_process;
    QMap<QString, QString> m_outcomeConfigs;
    QTemporaryDir m_dir;
    QTimer m_startTimeout;
    QByteArray m_buffer;
    QString m_program;
    QString m_worldTime; // --now for both runs of the simulator
    QString m_baseUrl;
    Credentials m_credentials;
    bool m_done = false; // ready or failed has been emitted
};

} // namespace relayhud::ui
