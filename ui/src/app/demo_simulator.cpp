#include "relayhud/ui/app/demo_simulator.h"

#include "relayhud/util/time.h"

#include <QCoreApplication>
#include <QRandomGenerator>

namespace relayhud::ui {

namespace {

constexpr int kStartTimeoutMs = 15000;
const QByteArray kListening = QByteArrayLiteral("listening on ");

} // namespace

DemoSimulator::DemoSimulator(QObject* parent) : QObject(parent)
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &DemoSimulator::readOutput);
    connect(&m_process, &QProcess::errorOccurred, this, &DemoSimulator::onError);
    connect(&m_process, &QProcess::finished, this, &DemoSimulator::onFinished);
    m_startTimeout.setSingleShot(true);
    connect(&m_startTimeout, &QTimer::timeout, this, [this] {
        fail(tr("relayhud-sim did not report its port within %1 s").arg(kStartTimeoutMs / 1000));
    });
}

DemoSimulator::~DemoSimulator() { stop(); }

QString DemoSimulator::defaultProgram()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/relayhud-sim");
}

std::string DemoSimulator::randomToken(int length)
{
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::string out;
    for (int i = 0; i < length; ++i)
        out += kAlphabet[QRandomGenerator::system()->bounded(
            static_cast<quint32>(sizeof(kAlphabet) - 1))];
    return out;
}

ArtifactSettings DemoSimulator::artifactSettings() const
{
    ArtifactSettings settings;
    settings.githubApiUrl = m_baseUrl.toStdString() + "/api/v3";
    settings.s3Endpoint = m_baseUrl.toStdString() + "/s3";
    return settings;
}

QString DemoSimulator::cachePath() const
{
    return m_dir.filePath(QStringLiteral("relayhud.sqlite"));
}

void DemoSimulator::start(const QString& program)
{
    if (!m_dir.isValid()) {
        fail(tr("cannot create a temporary directory: %1").arg(m_dir.errorString()));
        return;
    }
    m_program = program.isEmpty() ? defaultProgram() : program;
    // One instant for both runs of the simulator (its configs and its
    // server), so that they build one world even across the hour, and the
    // one this process's clock reads (which --now may have pinned).
    m_worldTime = QString::number(nowSeconds() / kSecondsPerHour * kSecondsPerHour);
    m_startTimeout.start(kStartTimeoutMs);
    // First the backends' outcome configs, which the demo's verdicts judge
    // greens against (the same seed, so the same test universes).
    connect(&m_configWriter, &QProcess::finished, this, [this](int exitCode) {
        if (m_done)
            return;
        if (exitCode != 0) {
            fail(tr("relayhud-sim could not write the outcome configs: %1")
                     .arg(QString::fromUtf8(m_configWriter.readAllStandardError()).trimmed()));
            return;
        }
        const QList<QByteArray> lines = m_configWriter.readAllStandardOutput().split('\n');
        for (const QByteArray& line : lines) {
            const qsizetype tab = line.indexOf('\t');
            if (tab > 0)
                m_outcomeConfigs.insert(QString::fromUtf8(line.left(tab)),
                                        QString::fromUtf8(line.mid(tab + 1).trimmed()));
        }
        startServer();
    });
    connect(&m_configWriter, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(tr("cannot start %1: %2").arg(m_program, m_configWriter.errorString()));
    });
    m_configWriter.start(m_program,
                         {QStringLiteral("--seed"), QStringLiteral("1"), QStringLiteral("--now"),
                          m_worldTime, QStringLiteral("--write-configs"),
                          m_dir.filePath(QStringLiteral("configs"))});
}

void DemoSimulator::startServer()
{
    // Fresh secrets per session: the simulator checks them like GitHub and S3
    // do, and they are passed on the command line of a loopback-only child,
    // never stored.
    m_credentials.githubToken = "ghs_" + randomToken(36);
    m_credentials.s3AccessKeyId = "RELAYHUDDEMO" + randomToken(8);
    m_credentials.s3SecretAccessKey = randomToken(40);
    m_process.start(m_program,
                    {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--seed"),
                     QStringLiteral("1"), QStringLiteral("--now"), m_worldTime,
                     QStringLiteral("--exit-on-stdin-eof"), QStringLiteral("--github-token"),
                     QString::fromStdString(m_credentials.githubToken),
                     QStringLiteral("--s3-access-key-id"),
                     QString::fromStdString(m_credentials.s3AccessKeyId),
                     QStringLiteral("--s3-secret-access-key"),
                     QString::fromStdString(m_credentials.s3SecretAccessKey)});
}

void DemoSimulator::stop()
{
    m_startTimeout.stop();
    if (m_configWriter.state() != QProcess::NotRunning) {
        m_configWriter.kill();
        m_configWriter.waitForFinished(2000);
    }
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_done = true; // an exit we asked for is no failure
    m_process.closeWriteChannel();
    if (!m_process.waitForFinished(2000)) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

void DemoSimulator::readOutput()
{
    m_buffer += m_process.readAllStandardOutput();
    if (m_done)
        return;
    const qsizetype newline = m_buffer.indexOf('\n');
    if (newline < 0)
        return;
    const QByteArray line = m_buffer.left(newline).trimmed();
    if (!line.startsWith(kListening)) {
        fail(tr("unexpected first line from relayhud-sim: %1").arg(QString::fromUtf8(line)));
        return;
    }
    m_done = true;
    m_startTimeout.stop();
    m_baseUrl = QString::fromUtf8(line.mid(kListening.size()));
    emit ready(m_baseUrl);
}

void DemoSimulator::onError(QProcess::ProcessError error)
{
    if (error == QProcess::FailedToStart)
        fail(tr("cannot start %1: %2").arg(m_program, m_process.errorString()));
}

void DemoSimulator::onFinished(int exitCode)
{
    const QString stderrText = QString::fromUtf8(m_process.readAllStandardError()).trimmed();
    fail(tr("relayhud-sim exited with code %1%2")
             .arg(exitCode)
             .arg(stderrText.isEmpty() ? QString() : QStringLiteral(": ") + stderrText));
}

void DemoSimulator::fail(const QString& reason)
{
    if (m_done)
        return;
    m_done = true;
    m_startTimeout.stop();
    emit failed(reason);
}

} // namespace relayhud::ui
