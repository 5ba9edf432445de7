#include "relayhud/ui/upgrade/upgrade_review_window.h"

#include "relayhud/config/config_file.h"
#include "relayhud/git/git_repository.h"
#include "relayhud/ui/common/format.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFont>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace relayhud::ui {

namespace {

// Kind by exact name, then the words in any column.
class ReviewFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setKind(const QString& kind)
    {
        m_kind = kind;
        invalidateFilter();
    }
    void setWords(const QString& words)
    {
        m_words = words.split(u' ', Qt::SkipEmptyParts);
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        const QAbstractItemModel* m = sourceModel();
        if (!m_kind.isEmpty()
            && m->index(row, UpgradeReviewModel::KindColumn, parent).data().toString() != m_kind)
            return false;
        QString text;
        for (int c = 0; c < UpgradeReviewModel::kColumns; ++c)
            text += m->index(row, c, parent).data().toString() + u'\n';
        for (const QString& word : m_words)
            if (!text.contains(word, Qt::CaseInsensitive))
                return false;
        return true;
    }

private:
    QString m_kind;
    QStringList m_words;
};

QString outcomeText(const upgrade::ChangeOutcomes& o)
{
    QStringList parts;
    const auto textIn = [](const std::vector<upgrade::MethodOutcome>& side, const std::string& c) {
        for (const upgrade::MethodOutcome& m : side)
            if (m.config == c)
                return toQString(m.text);
        return QStringLiteral("—");
    };
    QStringList configs;
    for (const auto* side : {&o.before, &o.after})
        for (const upgrade::MethodOutcome& m : *side)
            if (!configs.contains(toQString(m.config)))
                configs << toQString(m.config);
    for (const QString& c : configs) {
        const std::string config = c.toStdString();
        parts << textIn(o.before, config) + QStringLiteral(" → ") + textIn(o.after, config);
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace

void UpgradeReviewModel::setReview(const upgrade::UpgradeReview& review)
{
    beginResetModel();
    m_rows.clear();
    for (std::size_t i = 0; i < review.changes.size(); ++i) {
        const upgrade::MethodChange& c = review.changes[i];
        Row row{toQString(upgrade::changeKindName(c.kind)),
                toQString(c.file),
                toQString(c.className),
                toQString(c.method),
                toQString(c.detail),
                {},
                false};
        if (i < review.outcomes.size()) {
            row.outcome = outcomeText(review.outcomes[i]);
            row.fallsToDefault = review.outcomes[i].fallsToDefault;
        }
        m_rows.push_back(std::move(row));
    }
    for (const upgrade::StaleEntry& s : review.stale)
        m_rows.push_back(
            {QStringLiteral("stale"),
             toQString(s.file),
             toQString(s.className),
             toQString(s.method),
             toQString(s.configPath) + u':' + QString::number(s.line)
                 + (s.explanation.empty() ? QString()
                                          : QStringLiteral(" (") + toQString(s.explanation) + u')'),
             {},
             false});
    for (const upgrade::OpInfoChange& o : review.opInfos) {
        QString detail = toQString(o.what);
        for (std::size_t k = 0; k < o.families.size(); ++k)
            detail +=
                (k == 0 ? QStringLiteral(": ") : QStringLiteral(", ")) + toQString(o.families[k]);
        if (o.supported)
            detail += QStringLiteral("; supported op");
        m_rows.push_back(
            {QStringLiteral("opinfo"), toQString(o.file), {}, toQString(o.op), detail, {}, false});
    }
    endResetModel();
}

int UpgradeReviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int UpgradeReviewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kColumns;
}

QVariant UpgradeReviewModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case KindColumn: return r.kind;
        case FileColumn: return r.file;
        case ClassColumn: return r.className;
        case MethodColumn: return r.method;
        case DetailColumn: return r.detail;
        case OutcomeColumn:
            // First, so that a narrow column still shows it.
            return r.fallsToDefault ? QStringLiteral("now falls to the default: ") + r.outcome
                                    : r.outcome;
        default: return {};
        }
    }
    if (role == Qt::FontRole && index.column() == OutcomeColumn && r.fallsToDefault) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    return {};
}

QVariant UpgradeReviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const kNames[kColumns] = {
        QT_TR_NOOP("Kind"),   QT_TR_NOOP("File"),   QT_TR_NOOP("Class"),
        QT_TR_NOOP("Method"), QT_TR_NOOP("Detail"), QT_TR_NOOP("Outcome (before → after)")};
    return section >= 0 && section < kColumns ? tr(kNames[section]) : QVariant();
}

struct UpgradeReviewWindow::Outcome {
    Result<upgrade::UpgradeReview> review = makeError("not run");
};

UpgradeReviewWindow::UpgradeReviewWindow(QWidget* parent)
    : QMainWindow(parent), m_model(new UpgradeReviewModel(this)), m_proxy(new ReviewFilter(this))
{
    setWindowTitle(tr("Upgrade Review — RelayHUD"));
    m_proxy->setSourceModel(m_model);
    buildForm();
    resize(1200, 700);
}

UpgradeReviewWindow::~UpgradeReviewWindow() = default;

void UpgradeReviewWindow::buildForm()
{
    auto* central = new QWidget(this);
    m_pytorch = new QLineEdit(central);
    m_pytorch->setPlaceholderText(tr("a local PyTorch checkout"));
    auto* browse = new QPushButton(tr("Browse…"), central);
    m_from = new QLineEdit(central);
    m_from->setPlaceholderText(tr("v2.13.0, a branch or a SHA"));
    m_to = new QLineEdit(central);
    m_to->setPlaceholderText(tr("v2.14.0, a branch or a SHA"));
    m_configs = new QLineEdit(central);
    m_configs->setPlaceholderText(tr("outcome configs, separated by ;"));
    auto* add = new QPushButton(tr("Add…"), central);
    m_run = new QPushButton(tr("Review"), central);
    m_run->setDefault(true);

    auto* checkout = new QHBoxLayout;
    checkout->addWidget(m_pytorch, 1);
    checkout->addWidget(browse);
    auto* revisions = new QHBoxLayout;
    revisions->addWidget(m_from, 1);
    revisions->addWidget(new QLabel(tr("to"), central));
    revisions->addWidget(m_to, 1);
    revisions->addWidget(m_run);
    auto* configs = new QHBoxLayout;
    configs->addWidget(m_configs, 1);
    configs->addWidget(add);
    auto* form = new QFormLayout;
    form->addRow(tr("PyTorch:"), checkout);
    form->addRow(tr("From:"), revisions);
    form->addRow(tr("Configs:"), configs);

    m_summary =
        new QLabel(tr("Choose a checkout, two revisions and the configs, then Review."), central);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_kind = new QComboBox(central);
    m_kind->addItem(tr("All kinds"), QString());
    for (const char* kind : {"added", "removed", "renamed", "changed", "moved", "stale", "opinfo"})
        m_kind->addItem(QString::fromLatin1(kind), QString::fromLatin1(kind));
    m_filter = new QLineEdit(central);
    m_filter->setPlaceholderText(tr("Filter: words in the file, class, method or detail"));
    m_filter->setClearButtonEnabled(true);
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_kind);
    filters->addWidget(m_filter, 1);

    m_view = new QTableView(central);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the review's own order first
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);

    auto* layout = new QVBoxLayout(central);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addLayout(filters);
    layout->addWidget(m_view, 1);
    setCentralWidget(central);

    connect(browse, &QPushButton::clicked, this, &UpgradeReviewWindow::browseCheckout);
    connect(add, &QPushButton::clicked, this, &UpgradeReviewWindow::addConfigs);
    connect(m_run, &QPushButton::clicked, this, &UpgradeReviewWindow::startReview);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        static_cast<ReviewFilter*>(m_proxy)->setKind(m_kind->currentData().toString());
    });
    connect(m_filter, &QLineEdit::textChanged, this,
            [this](const QString& words) { static_cast<ReviewFilter*>(m_proxy)->setWords(words); });
}

void UpgradeReviewWindow::setInputs(const QString& pytorch, const QString& from, const QString& to,
                                    const QStringList& configs)
{
    m_pytorch->setText(pytorch);
    m_from->setText(from);
    m_to->setText(to);
    m_configs->setText(configs.join(u';'));
}

void UpgradeReviewWindow::setKindFilter(const QString& kind)
{
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(kind)));
}

QString UpgradeReviewWindow::summaryText() const { return m_summary->text(); }

void UpgradeReviewWindow::browseCheckout()
{
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("PyTorch checkout"), m_pytorch->text());
    if (!dir.isEmpty())
        m_pytorch->setText(dir);
}

void UpgradeReviewWindow::addConfigs()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Outcome configs"), {},
                                                            tr("Outcome configs (*.yaml *.yml)"));
    QStringList all = m_configs->text().split(u';', Qt::SkipEmptyParts);
    all << files;
    m_configs->setText(all.join(u';'));
}

void UpgradeReviewWindow::startReview()
{
    const std::string pytorch = m_pytorch->text().trimmed().toStdString();
    const std::string from = m_from->text().trimmed().toStdString();
    const std::string to = m_to->text().trimmed().toStdString();
    std::vector<std::string> configs;
    for (const QString& c : m_configs->text().split(u';', Qt::SkipEmptyParts))
        configs.push_back(c.trimmed().toStdString());
    const Ticket ticket = m_tickets.next();
    m_reviewing = true;
    m_run->setEnabled(false);
    m_summary->setText(tr("Reviewing…"));
    QtConcurrent::run([pytorch, from, to, configs] {
        auto out = std::make_shared<Outcome>();
        std::vector<upgrade::ReviewConfig> loaded;
        for (const std::string& path : configs) {
            auto file = config::loadConfigFile(path);
            auto parsed = file ? config::parseOutcomeConfig(file->text)
                               : Result<config::ParsedConfig>(file.error());
            if (!parsed) {
                out->review = makeError(path + ": " + parsed.message());
                return out;
            }
            loaded.push_back({path, std::move(parsed->config)});
        }
        auto repo = git::GitRepository::open(pytorch);
        out->review = repo ? upgrade::reviewUpgrade(*repo, from, to, loaded)
                           : Result<upgrade::UpgradeReview>(repo.error());
        return out;
    }).then(this, [this, ticket](std::shared_ptr<Outcome> outcome) { finish(ticket, outcome); });
}

void UpgradeReviewWindow::finish(Ticket ticket, const std::shared_ptr<Outcome>& outcome)
{
    if (!m_tickets.isNewest(ticket))
        return; // a newer review was asked for
    m_reviewing = false;
    m_run->setEnabled(true);
    if (!outcome->review) {
        m_summary->setText(tr("Cannot review: %1").arg(toQString(outcome->review.message())));
        emit reviewed(false);
        return;
    }
    const upgrade::UpgradeReview& review = *outcome->review;
    m_model->setReview(review);
    const std::string text = upgrade::reviewText(review);
    QString summary = toQString(text.substr(0, text.find('\n')));
    if (!review.problems.empty())
        summary +=
            tr(" — %n file(s) not read whole", nullptr, static_cast<int>(review.problems.size()));
    m_summary->setText(summary);
    m_view->resizeColumnsToContents();
    emit reviewed(true);
}

} // namespace relayhud::ui
