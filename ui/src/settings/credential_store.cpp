#include "relayhud/ui/settings/credential_store.h"

#include "relayhud/ui/common/format.h"

#include <qt6keychain/keychain.h>

namespace relayhud::ui {

namespace {

const QString kService = QStringLiteral("RelayHUD");

std::string& field(Credentials& c, CredentialStore::Entry entry)
{
    switch (entry) {
    case CredentialStore::S3AccessKeyId: return c.s3AccessKeyId;
    case CredentialStore::S3SecretAccessKey: return c.s3SecretAccessKey;
    case CredentialStore::TeamPassword: return c.teamPassword;
    case CredentialStore::GithubToken:
    case CredentialStore::EntryCount: break;
    }
    return c.githubToken;
}

// "Entry not found" is the normal answer for a token never set.
bool isMissing(QKeychain::Error error)
{
    return error == QKeychain::NoError || error == QKeychain::EntryNotFound;
}

} // namespace

CredentialStore::CredentialStore(QObject* parent) : QObject(parent) {}

QString CredentialStore::entryKey(Entry entry)
{
    switch (entry) {
    case S3AccessKeyId: return QStringLiteral("s3-access-key-id");
    case S3SecretAccessKey: return QStringLiteral("s3-secret-access-key");
    case TeamPassword: return QStringLiteral("team-server-password");
    case GithubToken:
    case EntryCount: break;
    }
    return QStringLiteral("github-token");
}

Credentials CredentialStore::merge(const Credentials& environment, const Credentials& stored)
{
    Credentials out = stored;
    if (!environment.githubToken.empty())
        out.githubToken = environment.githubToken;
    // The key pair and its session token come from one place, never half and half.
    if (!environment.s3AccessKeyId.empty() && !environment.s3SecretAccessKey.empty()) {
        out.s3AccessKeyId = environment.s3AccessKeyId;
        out.s3SecretAccessKey = environment.s3SecretAccessKey;
        out.s3SessionToken = environment.s3SessionToken;
    }
    return out;
}

Credentials CredentialStore::credentials() const
{
    if (m_sessionOnly)
        return m_stored;
    return merge(Credentials::fromEnvironment(), m_stored);
}

void CredentialStore::useSessionOnly(const Credentials& credentials)
{
    m_sessionOnly = true;
    m_stored = credentials;
    m_problem.clear();
}

void CredentialStore::load()
{
    if (m_sessionOnly || m_pendingReads > 0) {
        if (m_sessionOnly)
            emit loaded();
        return;
    }
    m_problem.clear();
    m_pendingReads = EntryCount;
    for (int e = 0; e < EntryCount; ++e)
        read(static_cast<Entry>(e));
}

void CredentialStore::read(Entry entry)
{
    auto* job = new QKeychain::ReadPasswordJob(kService, this);
    job->setKey(entryKey(entry));
    connect(job, &QKeychain::Job::finished, this, [this, entry](QKeychain::Job* done) {
        const auto* reader = static_cast<QKeychain::ReadPasswordJob*>(done);
        finishRead(entry, isMissing(done->error()) ? reader->textData() : QString(),
                   isMissing(done->error()) ? QString() : done->errorString());
    });
    job->start();
}

void CredentialStore::finishRead(Entry entry, const QString& value, const QString& error)
{
    field(m_stored, entry) = value.toStdString();
    if (!error.isEmpty() && m_problem.isEmpty())
        m_problem =
            tr("The keychain is not available (%1); tokens come from the environment.").arg(error);
    if (--m_pendingReads == 0) {
        m_loaded = true;
        emit loaded();
    }
}

void CredentialStore::save(const Credentials& credentials)
{
    m_stored = credentials;
    m_stored.s3SessionToken.clear(); // short-lived: environment only
    if (m_sessionOnly) {
        emit saved(QString());
        return;
    }
    m_writeError.clear();
    m_pendingWrites = EntryCount;
    for (int e = 0; e < EntryCount; ++e)
        write(static_cast<Entry>(e), field(m_stored, static_cast<Entry>(e)));
}

void CredentialStore::write(Entry entry, const std::string& value)
{
    QKeychain::Job* job = nullptr;
    if (value.empty()) {
        job = new QKeychain::DeletePasswordJob(kService, this);
    } else {
        auto* writer = new QKeychain::WritePasswordJob(kService, this);
        writer->setTextData(toQString(value));
        job = writer;
    }
    job->setKey(entryKey(entry));
    connect(job, &QKeychain::Job::finished, this, [this](QKeychain::Job* done) {
        finishWrite(isMissing(done->error()) ? QString() : done->errorString());
    });
    job->start();
}

void CredentialStore::finishWrite(const QString& error)
{
    if (!error.isEmpty() && m_writeError.isEmpty())
        m_writeError = error;
    if (--m_pendingWrites == 0)
        emit saved(m_writeError);
}

} // namespace relayhud::ui
