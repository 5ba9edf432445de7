#include "relayhud/ui/settings/settings_dialog.h"

#include "relayhud/team/team_server.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/settings/coverage_settings_page.h"

#include <QColor>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cstdlib>

namespace relayhud::ui {

SettingsDialog::SettingsDialog(const AppSettings& settings, const std::vector<Backend>& allowlist,
                               const Credentials& stored, const QString& keychainNote,
                               QWidget* parent)
    : QDialog(parent), m_initial(settings), m_hudUrl(new QLineEdit(settings.hudUrl, this)),
      m_backends(new QListWidget(this)),
      m_cachePath(new QLineEdit(settings.effectiveCachePath(), this)),
      m_interval(new QSpinBox(this)), m_days(new QSpinBox(this)), m_initialTokens(stored)
{
    setWindowTitle(tr("Settings"));
    m_hudUrl->setObjectName(QStringLiteral("hudUrl"));
    m_cachePath->setObjectName(QStringLiteral("cachePath"));
    m_backends->setObjectName(QStringLiteral("backends"));
    m_interval->setObjectName(QStringLiteral("syncInterval"));
    m_days->setObjectName(QStringLiteral("historyDays"));
    auto* tabs = new QTabWidget(this);
    tabs->addTab(buildHudPage(allowlist), tr("HUD"));
    tabs->addTab(buildArtifactsPage(keychainNote), tr("Artifacts"));
    tabs->addTab(buildTriagePage(), tr("Triage"));
    m_coverage =
        new CoverageSettingsPage(settings.outcomeConfigs, settings.shrinkPercent, allowlist, this);
    tabs->addTab(m_coverage, tr("Coverage"));
    tabs->addTab(buildTeamPage(), tr("Team"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(buttons);
    resize(600, sizeHint().height());
}

QWidget* SettingsDialog::buildHudPage(const std::vector<Backend>& allowlist)
{
    auto* page = new QWidget(this);
    m_hudUrl->setPlaceholderText(QStringLiteral("https://hud.pytorch.org"));
    m_interval->setRange(1, 1440);
    m_interval->setSuffix(tr(" min"));
    m_interval->setValue(m_initial.syncIntervalMinutes);
    m_days->setRange(1, 365);
    m_days->setSuffix(tr(" days"));
    m_days->setValue(m_initial.historyDays);

    auto* cacheRow = new QHBoxLayout;
    cacheRow->addWidget(m_cachePath, 1);
    auto* browse = new QPushButton(tr("Browse…"), page);
    connect(browse, &QPushButton::clicked, this, &SettingsDialog::browseCache);
    cacheRow->addWidget(browse);

    auto* form = new QFormLayout(page);
    form->addRow(tr("HUD URL"), m_hudUrl);
    form->addRow(tr("Followed backends"), buildBackendList(allowlist));
    form->addRow(tr("Cache file"), cacheRow);
    form->addRow(tr("Sync every"), m_interval);
    form->addRow(tr("History"), m_days);
    return page;
}

// A token field: hidden text, and a placeholder that says when the
// environment already provides (and overrides) the value.
QLineEdit* SettingsDialog::secretField(const std::string& value, const char* environmentVariable)
{
    auto* edit = new QLineEdit(QString::fromStdString(value), this);
    edit->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    const char* fromEnv = std::getenv(environmentVariable);
    edit->setPlaceholderText(
        fromEnv && *fromEnv
            ? tr("set by %1 (overrides this field)").arg(QLatin1String(environmentVariable))
            : tr("not set (or set %1)").arg(QLatin1String(environmentVariable)));
    return edit;
}

QWidget* SettingsDialog::buildArtifactsPage(const QString& keychainNote)
{
    auto* page = new QWidget(this);
    m_policy = new QComboBox(page);
    m_policy->addItem(tr("For failed runs, in the background"),
                      static_cast<int>(ArtifactPolicy::FailedRuns));
    m_policy->addItem(tr("For every finished run, in the background"),
                      static_cast<int>(ArtifactPolicy::AllRuns));
    m_policy->addItem(tr("Only when I open a run"), static_cast<int>(ArtifactPolicy::OnDemand));
    m_policy->setCurrentIndex(m_policy->findData(static_cast<int>(m_initial.artifactPolicy)));
    m_githubApi = new QLineEdit(m_initial.githubApiUrl, page);
    m_githubApi->setPlaceholderText(QStringLiteral("https://api.github.com"));
    m_githubToken = secretField(m_initialTokens.githubToken, "GITHUB_TOKEN");
    m_s3Endpoint = new QLineEdit(m_initial.s3Endpoint, page);
    m_s3Endpoint->setPlaceholderText(tr("AWS (https://s3.<region>.amazonaws.com)"));
    m_s3Region = new QLineEdit(m_initial.s3Region, page);
    m_s3KeyId = secretField(m_initialTokens.s3AccessKeyId, "AWS_ACCESS_KEY_ID");
    m_s3KeyId->setEchoMode(QLineEdit::Normal); // an id, not a secret
    m_s3Secret = secretField(m_initialTokens.s3SecretAccessKey, "AWS_SECRET_ACCESS_KEY");
    m_policy->setObjectName(QStringLiteral("artifactPolicy"));
    m_githubApi->setObjectName(QStringLiteral("githubApiUrl"));
    m_githubToken->setObjectName(QStringLiteral("githubToken"));
    m_s3Endpoint->setObjectName(QStringLiteral("s3Endpoint"));
    m_s3Region->setObjectName(QStringLiteral("s3Region"));
    m_s3KeyId->setObjectName(QStringLiteral("s3AccessKeyId"));
    m_s3Secret->setObjectName(QStringLiteral("s3SecretAccessKey"));

    auto* form = new QFormLayout(page);
    form->addRow(tr("Fetch test results"), m_policy);
    form->addRow(tr("GitHub API URL"), m_githubApi);
    form->addRow(tr("GitHub token"), m_githubToken);
    form->addRow(tr("S3 endpoint"), m_s3Endpoint);
    form->addRow(tr("S3 region"), m_s3Region);
    form->addRow(tr("S3 access key ID"), m_s3KeyId);
    form->addRow(tr("S3 secret access key"), m_s3Secret);
    auto* note = new QLabel(keychainNote.isEmpty()
                                ? tr("Tokens are kept in the system keychain, never in the "
                                     "settings file. Environment variables take precedence.")
                                : keychainNote,
                            page);
    note->setWordWrap(true);
    note->setTextFormat(Qt::PlainText);
    note->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(note);
    return page;
}

QWidget* SettingsDialog::buildTriagePage()
{
    auto* page = new QWidget(this);
    m_ruleFiles = new QListWidget(page);
    m_ruleFiles->setObjectName(QStringLiteral("ruleFiles"));
    m_ruleFiles->addItems(m_initial.ruleFiles);
    m_ruleFiles->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto* add = new QPushButton(tr("Add…"), page);
    auto* remove = new QPushButton(tr("Remove"), page);
    auto* check = new QPushButton(tr("Reload and check"), page);
    check->setObjectName(QStringLiteral("checkRules"));
    connect(add, &QPushButton::clicked, this, [this] {
        const QStringList files =
            QFileDialog::getOpenFileNames(this, tr("Failure-line rule files"), QString(),
                                          tr("Rule files (*.toml);;All files (*)"));
        for (const QString& file : files)
            if (m_ruleFiles->findItems(file, Qt::MatchExactly).isEmpty())
                m_ruleFiles->addItem(file);
        checkRules();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_ruleFiles->selectedItems());
        checkRules();
    });
    connect(check, &QPushButton::clicked, this, &SettingsDialog::checkRules);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addWidget(check);
    buttons->addStretch(1);
    auto* row = new QHBoxLayout;
    row->addWidget(m_ruleFiles, 1);
    row->addLayout(buttons);
    auto* intro = new QLabel(tr("Your own rules (pytorch's ruleset.toml format, with an optional "
                                "class) pick the line that explains a failed job. They are "
                                "tried after the built-in rules, in this order."),
                             page);
    intro->setWordWrap(true);
    m_rulesReport = new QLabel(page);
    m_rulesReport->setObjectName(QStringLiteral("rulesReport"));
    m_rulesReport->setTextFormat(Qt::PlainText);
    m_rulesReport->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_rulesReport->setWordWrap(true);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(intro);
    layout->addLayout(row, 1);
    layout->addWidget(m_rulesReport);
    checkRules();
    return page;
}

QWidget* SettingsDialog::buildTeamPage()
{
    auto* page = new QWidget(this);
    m_teamServer = new QLineEdit(m_initial.teamServer, page);
    m_teamServer->setObjectName(QStringLiteral("teamServer"));
    m_teamServer->setPlaceholderText(
        QStringLiteral("postgresql://alice@db.example.org/triage?sslmode=verify-full"));
    m_teamServer->setClearButtonEnabled(true);
    m_teamPassword = secretField(m_initialTokens.teamPassword, "PGPASSWORD");
    m_teamPassword->setObjectName(QStringLiteral("teamPassword"));
    m_teamProblem = new QLabel(page);
    m_teamProblem->setObjectName(QStringLiteral("teamProblem"));
    m_teamProblem->setTextFormat(Qt::PlainText);
    m_teamProblem->setWordWrap(true);
    QPalette red = m_teamProblem->palette();
    red.setColor(QPalette::WindowText, QColor(0xd3, 0x2f, 0x2f)); // the doctor's error red
    m_teamProblem->setPalette(red);
    connect(m_teamServer, &QLineEdit::textChanged, this, &SettingsDialog::checkTeamServer);
    auto* intro =
        new QLabel(tr("A PostgreSQL server your team shares: every maintainer's triage tags, live. "
                      "Tags are written here first and sent when the server answers; a colleague's "
                      "appear within seconds. Leave the server empty to keep triage in this cache "
                      "only (Triage › Export Triage still shares it as a file). "
                      "Create the server's tables once with: relayhud-cli team init --server …"),
                   page);
    intro->setWordWrap(true);
    auto* note = new QLabel(tr("A libpq connection string or URI; TLS as its sslmode says "
                               "(verify-full checks the certificate and host). The password "
                               "is kept in the system keychain; without one, PGPASSWORD or "
                               "~/.pgpass is used. Your changes are signed with the server's "
                               "user name."),
                            page);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto* form = new QFormLayout;
    form->addRow(tr("Server"), m_teamServer);
    form->addRow(tr("Password"), m_teamPassword);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_teamProblem);
    layout->addWidget(note);
    layout->addStretch(1);
    checkTeamServer();
    return page;
}

void SettingsDialog::checkTeamServer()
{
    const std::string server = m_teamServer->text().trimmed().toStdString();
    const std::string problem = server.empty() ? std::string() : team::serverSettingProblem(server);
    m_teamProblem->setText(toQString(problem));
    m_teamProblem->setVisible(!problem.empty());
}

void SettingsDialog::accept()
{
    checkTeamServer();
    if (m_teamProblem->isVisible()) {
        m_teamServer->setFocus(Qt::OtherFocusReason);
        return; // a password in the settings file is never written
    }
    QDialog::accept();
}

QStringList SettingsDialog::ruleFiles() const
{
    QStringList files;
    for (int i = 0; i < m_ruleFiles->count(); ++i)
        files << m_ruleFiles->item(i)->text();
    return files;
}

void SettingsDialog::checkRules()
{
    const RuleFilesCheck check = checkRuleFiles(ruleFiles());
    QString text = tr("%n rule(s) loaded", nullptr, check.rules);
    if (check.problems.isEmpty())
        text += tr("; no problems.");
    else
        text += tr("; %n problem(s), those rules are left out:", nullptr,
                   static_cast<int>(check.problems.size()))
                % u'\n' % check.problems.join(u'\n');
    m_rulesReport->setText(text);
}

QWidget* SettingsDialog::buildBackendList(const std::vector<Backend>& allowlist)
{
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* hint =
        new QLabel(allowlist.empty() ? tr("No allowlist cached yet: sync once to choose backends.")
                                     : tr("None checked: every backend at L2 and above."),
                   box);
    hint->setForegroundRole(QPalette::PlaceholderText);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    for (const Backend& backend : allowlist) {
        if (backend.level == Level::L1)
            continue; // dispatched to, but never reports to the HUD
        const QString repo = toQString(backend.repo);
        auto* item =
            new QListWidgetItem(repo % u"  (" % levelLabel(backend.level) % u")", m_backends);
        item->setData(Qt::UserRole, repo);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(m_initial.backends.contains(repo) ? Qt::Checked : Qt::Unchecked);
    }
    m_backends->setMinimumHeight(140);
    layout->addWidget(m_backends);
    return box;
}

void SettingsDialog::browseCache()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Cache file"), m_cachePath->text(),
                                     tr("SQLite files (*.sqlite *.db);;All files (*)"), nullptr,
                                     QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty())
        m_cachePath->setText(path);
}

AppSettings SettingsDialog::settings() const
{
    AppSettings s = m_initial;
    s.hudUrl = m_hudUrl->text().trimmed();
    if (s.hudUrl.isEmpty())
        s.hudUrl = AppSettings{}.hudUrl;
    s.backends.clear();
    for (int i = 0; i < m_backends->count(); ++i)
        if (m_backends->item(i)->checkState() == Qt::Checked)
            s.backends.append(m_backends->item(i)->data(Qt::UserRole).toString());
    const QString path = m_cachePath->text().trimmed();
    s.cachePath = path == defaultCachePath() ? QString() : path;
    s.syncIntervalMinutes = m_interval->value();
    s.historyDays = m_days->value();
    s.githubApiUrl = m_githubApi->text().trimmed();
    if (s.githubApiUrl.isEmpty())
        s.githubApiUrl = AppSettings{}.githubApiUrl;
    s.s3Endpoint = m_s3Endpoint->text().trimmed();
    s.s3Region = m_s3Region->text().trimmed();
    if (s.s3Region.isEmpty())
        s.s3Region = AppSettings{}.s3Region;
    s.artifactPolicy = static_cast<ArtifactPolicy>(m_policy->currentData().toInt());
    s.ruleFiles = ruleFiles();
    s.outcomeConfigs = m_coverage->outcomeConfigs();
    s.shrinkPercent = m_coverage->shrinkPercent();
    s.teamServer = m_teamServer->text().trimmed();
    return s;
}

Credentials SettingsDialog::credentials() const
{
    Credentials c;
    c.githubToken = m_githubToken->text().trimmed().toStdString();
    c.s3AccessKeyId = m_s3KeyId->text().trimmed().toStdString();
    c.s3SecretAccessKey = m_s3Secret->text().toStdString();
    c.teamPassword = m_teamPassword->text().toStdString();
    return c;
}

bool SettingsDialog::sameTokens(const Credentials& a, const Credentials& b)
{
    return a.githubToken == b.githubToken && a.s3AccessKeyId == b.s3AccessKeyId
           && a.s3SecretAccessKey == b.s3SecretAccessKey && a.teamPassword == b.teamPassword;
}

} // namespace relayhud::ui
