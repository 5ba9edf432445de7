#include "relayhud/ui/settings/coverage_settings_page.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/verdict/verdict.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace relayhud::ui {

namespace {

enum Column { RepoColumn, PathColumn, StateColumn };

} // namespace

QString describeConfigFile(const QString& path, bool* usable)
{
    if (usable)
        *usable = false;
    if (path.isEmpty())
        return QObject::tr("no config: greens cannot be verified");
    const verdict::RunConfig loaded = verdict::loadRunConfig(path.toStdString());
    if (!loaded.config)
        return toQString(loaded.error);
    std::size_t entries = 0;
    std::size_t names = 0;
    for (const config::FileSection& file : loaded.config->files) {
        entries += file.tests.size();
        for (const config::TestEntry& entry : file.tests)
            names += entry.names.size();
    }
    if (usable)
        *usable = true;
    const auto count = [](std::size_t n, const char* one, const char* many) -> QString {
        return QString::number(n) + u' ' + QString::fromLatin1(n == 1 ? one : many);
    };
    return QObject::tr("parses: %1, %2, %3")
        .arg(count(loaded.config->files.size(), "file", "files"),
             count(entries, "entry", "entries"), count(names, "name", "names"));
}

CoverageSettingsPage::CoverageSettingsPage(const QMap<QString, QString>& configs, int shrinkPercent,
                                           const std::vector<Backend>& allowlist, QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget(0, 3, this)), m_shrink(new QSpinBox(this))
{
    m_table->setObjectName(QStringLiteral("outcomeConfigs"));
    m_table->setHorizontalHeaderLabels({tr("Backend"), tr("Outcome config"), tr("State")});
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_table->horizontalHeader()->setSectionResizeMode(RepoColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(PathColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(StateColumn, QHeaderView::Stretch);
    for (const Backend& backend : allowlist)
        if (backend.level != Level::L1)
            addRow(toQString(backend.repo), configs.value(toQString(backend.repo)));
    for (auto it = configs.begin(); it != configs.end(); ++it)
        if (m_table->findItems(it.key(), Qt::MatchExactly).isEmpty())
            addRow(it.key(), it.value());
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (item->column() == PathColumn)
            checkRow(item->row());
    });

    auto* browseButton = new QPushButton(tr("Choose File…"), this);
    browseButton->setObjectName(QStringLiteral("chooseConfig"));
    auto* clear = new QPushButton(tr("Clear"), this);
    connect(browseButton, &QPushButton::clicked, this, &CoverageSettingsPage::browse);
    connect(clear, &QPushButton::clicked, this, &CoverageSettingsPage::clearSelected);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int, int column) {
        if (column != PathColumn)
            browse();
    });
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(browseButton);
    buttons->addWidget(clear);
    buttons->addStretch(1);
    auto* row = new QHBoxLayout;
    row->addWidget(m_table, 1);
    row->addLayout(buttons);

    m_shrink->setObjectName(QStringLiteral("shrinkPercent"));
    m_shrink->setRange(0, 100);
    m_shrink->setSuffix(QStringLiteral(" %"));
    m_shrink->setValue(shrinkPercent);
    auto* shrinkRow = new QHBoxLayout;
    shrinkRow->addWidget(new QLabel(tr("A green is incomplete when its executed tests shrink "
                                       "against the previous run by more than"),
                                    this));
    shrinkRow->addWidget(m_shrink);
    shrinkRow->addStretch(1);

    auto* intro = new QLabel(tr("A green is verified only against the outcome config its backend "
                                "runs under (test_suite_config YAML). Choose each backend's file "
                                "from your checkout of its repository."),
                             this);
    intro->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(row, 1);
    layout->addLayout(shrinkRow);
}

void CoverageSettingsPage::addRow(const QString& repo, const QString& path)
{
    const QSignalBlocker blocker(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* repoItem = new QTableWidgetItem(repo);
    repoItem->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    m_table->setItem(row, RepoColumn, repoItem);
    m_table->setItem(row, PathColumn, new QTableWidgetItem(path));
    auto* state = new QTableWidgetItem;
    state->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    m_table->setItem(row, StateColumn, state);
    checkRow(row);
}

void CoverageSettingsPage::checkRow(int row)
{
    const QSignalBlocker blocker(m_table);
    const QString path = m_table->item(row, PathColumn)->text().trimmed();
    bool usable = false;
    const QString text = describeConfigFile(path, &usable);
    QTableWidgetItem* state = m_table->item(row, StateColumn);
    state->setText(text);
    state->setToolTip(text);
    state->setForeground(path.isEmpty() || usable ? palette().color(QPalette::PlaceholderText)
                                                  : QColor(0xc6, 0x28, 0x28));
}

void CoverageSettingsPage::setConfig(const QString& repo, const QString& path)
{
    const QList<QTableWidgetItem*> found = m_table->findItems(repo, Qt::MatchExactly);
    for (QTableWidgetItem* item : found)
        if (item->column() == RepoColumn) {
            m_table->item(item->row(), PathColumn)->setText(path); // itemChanged checks it
            return;
        }
    addRow(repo, path);
}

void CoverageSettingsPage::browse()
{
    const int row = m_table->currentRow();
    if (row < 0)
        return;
    const QString current = m_table->item(row, PathColumn)->text();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Outcome config of %1").arg(m_table->item(row, RepoColumn)->text()),
        current.isEmpty() ? QString() : QFileInfo(current).absolutePath(),
        tr("YAML files (*.yaml *.yml);;All files (*)"));
    if (!path.isEmpty())
        m_table->item(row, PathColumn)->setText(path);
}

void CoverageSettingsPage::clearSelected()
{
    const QList<QTableWidgetItem*> selected = m_table->selectedItems();
    for (QTableWidgetItem* item : selected)
        if (item->column() == PathColumn)
            item->setText({});
}

QMap<QString, QString> CoverageSettingsPage::outcomeConfigs() const
{
    QMap<QString, QString> configs;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString path = m_table->item(row, PathColumn)->text().trimmed();
        if (!path.isEmpty())
            configs.insert(m_table->item(row, RepoColumn)->text(), path);
    }
    return configs;
}

int CoverageSettingsPage::shrinkPercent() const { return m_shrink->value(); }

} // namespace relayhud::ui
