#include "relayhud/ui/settings/settings_dialog.h"

#include "relayhud/ui/format.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace relayhud::ui {

SettingsDialog::SettingsDialog(const AppSettings& settings, const std::vector<Backend>& allowlist,
                               QWidget* parent)
    : QDialog(parent), m_initial(settings), m_hudUrl(new QLineEdit(settings.hudUrl, this)),
      m_backends(new QListWidget(this)),
      m_cachePath(new QLineEdit(settings.effectiveCachePath(), this)),
      m_interval(new QSpinBox(this)), m_days(new QSpinBox(this))
{
    setWindowTitle(tr("Settings"));
    m_hudUrl->setPlaceholderText(QStringLiteral("https://hud.pytorch.org"));
    m_interval->setRange(1, 1440);
    m_interval->setSuffix(tr(" min"));
    m_interval->setValue(settings.syncIntervalMinutes);
    m_days->setRange(1, 365);
    m_days->setSuffix(tr(" days"));
    m_days->setValue(settings.historyDays);

    auto* cacheRow = new QHBoxLayout;
    cacheRow->addWidget(m_cachePath, 1);
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &SettingsDialog::browseCache);
    cacheRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("HUD URL"), m_hudUrl);
    form->addRow(tr("Followed backends"), buildBackendList(allowlist));
    form->addRow(tr("Cache file"), cacheRow);
    form->addRow(tr("Sync every"), m_interval);
    form->addRow(tr("History"), m_days);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());
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
    return s;
}

} // namespace relayhud::ui
