#include "relayhud/ui/details/attempts_model.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/details/run_details.h"
#include "relayhud/ui/matrix/cell_state.h"

namespace relayhud::ui {

namespace {

CellState stateOf(const CheckRun& run)
{
    return cellStateOf(run.reported.status, run.reported.conclusion, false);
}

QString testsText(const CheckRun& run)
{
    if (!run.reported.tests)
        return QStringLiteral("—");
    const TestCounts& t = *run.reported.tests;
    return QStringLiteral("%1 of %2 failed").arg(t.failed).arg(t.total);
}

QString toolTipText(const CheckRun& run)
{
    QString text =
        AttemptsModel::tr("attempt %1: %2").arg(run.runAttempt).arg(cellStateText(stateOf(run)));
    if (run.reported.tests) {
        const TestCounts& t = *run.reported.tests;
        const QString kind = countKindNote(run.downstreamRepo);
        text +=
            u"\n"
            % AttemptsModel::tr("%1 (self-reported): %2 passed, %3 failed, %4 skipped, %5 total")
                  .arg(kind.isEmpty() ? AttemptsModel::tr("tests") : kind)
                  .arg(t.passed)
                  .arg(t.failed)
                  .arg(t.skipped)
                  .arg(t.total);
    }
    if (!run.reported.runUrl.empty())
        text += u"\n" % toQString(run.reported.runUrl);
    return text;
}

} // namespace

AttemptsModel::AttemptsModel(QObject* parent) : QAbstractTableModel(parent) {}

int AttemptsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_attempts.size());
}

int AttemptsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AttemptsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == TestsColumn)
        return tr("Test counts are self-reported by the backend's CI");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case AttemptColumn: return tr("#");
    case ResultColumn: return tr("Result");
    case StartedColumn: return tr("Started");
    case DurationColumn: return tr("Duration");
    case TestsColumn: return tr("Tests");
    default: break;
    }
    return {};
}

QVariant AttemptsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const CheckRun& run = m_attempts[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return displayData(run, index.column());
    case Qt::ToolTipRole: return plainToolTip(toolTipText(run));
    case RunUrlRole: return toQString(run.reported.runUrl);
    case CellStateRole:
        return index.column() == ResultColumn ? QVariant(static_cast<int>(stateOf(run)))
                                              : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == AttemptColumn || index.column() == DurationColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    default: break;
    }
    return {};
}

QVariant AttemptsModel::displayData(const CheckRun& run, int column) const
{
    switch (column) {
    case AttemptColumn: return run.runAttempt;
    case ResultColumn: return cellStateText(stateOf(run));
    case StartedColumn: return formatShortTime(run.reported.startedAt.value_or(0));
    case DurationColumn: return formatDuration(runDuration(run));
    case TestsColumn: return testsText(run);
    default: break;
    }
    return {};
}

void AttemptsModel::setAttempts(std::vector<CheckRun> attempts)
{
    beginResetModel();
    m_attempts = std::move(attempts);
    endResetModel();
}

} // namespace relayhud::ui
