#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/watch/watch_list.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/cell_state.h"

namespace relayhud::ui {
namespace {

using namespace Qt::StringLiterals;

// A nightly's or periodic run's row: its "SHA" is the downstream's own id.
bool isScheduled(EventType type)
{
    return type == EventType::Nightly || type == EventType::Periodic;
}

// A nightly's SHA is a main commit titled through commit-info (the HUD's
// fallback: "nightly (<first 12>)"), or not a commit at all
// (real-backends.md section 2).
QString scheduledTitle(const UpstreamCommit& commit)
{
    if (!isUpstreamCommit(commit.sha.value))
        return MatrixModel::tr("not an upstream commit (the downstream's own nightly id)");
    if (commit.title.empty())
        return u"nightly ("_s + toQString(commit.sha.value.substr(0, 12)) + u")"_s;
    return toQString(commit.title);
}

} // namespace

MatrixModel::MatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

int MatrixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_snapshot.rows.size());
}

int MatrixModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_snapshot.columns.size());
}

Qt::ItemFlags MatrixModel::flags(const QModelIndex& index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

const UpstreamCommit* MatrixModel::commitAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    return &m_snapshot.rows[static_cast<std::size_t>(row)];
}

const PullRequestRow* MatrixModel::rowGroup(const UpstreamCommit& commit) const
{
    if (m_rowGroups.isEmpty())
        return nullptr;
    const auto it = m_rowGroups.constFind(toQString(commit.sha.value));
    return it == m_rowGroups.cend() ? nullptr : &*it;
}

const ShardColumn* MatrixModel::shardColumn(const MatrixColumn& column) const
{
    if (m_shardColumns.empty())
        return nullptr;
    const auto it = m_shardColumns.find(matrixColumnKey(column));
    return it == m_shardColumns.end() ? nullptr : &it->second;
}

// A folded shard group's column, where its members' cells can be read: in
// the middle of a merge the rows shown may not be the new ones yet.
const ShardColumn* MatrixModel::foldedGroupAt(std::size_t row, std::size_t column) const
{
    const ShardColumn* shard = shardColumn(m_snapshot.columns[column]);
    if (!shard || shard->memberColumns.empty() || row >= ungrouped().rows.size()
        || ungrouped().rows[row].sha != m_snapshot.rows[row].sha)
        return nullptr;
    return shard;
}

// The earlier head a PR row's cell ran on; "" on the row's own head (an
// expanded PR's earlier heads show their own runs).
QString MatrixModel::carriedFrom(std::size_t row, std::size_t column) const
{
    const MatrixCell& cell = m_snapshot.cell(row, column);
    const auto carried = cell.empty() ? m_carried.end() : m_carried.find(cell.runRowId);
    const QString head = carried == m_carried.end() ? QString() : carried->second;
    return head == toQString(m_snapshot.rows[row].sha.value) ? QString() : head;
}

const UpstreamCommit* MatrixModel::runCommitAt(int row, int column) const
{
    const UpstreamCommit* commit = commitAt(row);
    if (!commit || column < 0 || column >= columnCount())
        return commit;
    const QString carried =
        carriedFrom(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
    if (carried.isEmpty())
        return commit;
    for (const UpstreamCommit& head : m_commits.rows)
        if (toQString(head.sha.value) == carried)
            return &head;
    return commit;
}

const MatrixColumn* MatrixModel::columnAt(int column) const
{
    if (column < 0 || column >= columnCount())
        return nullptr;
    return &m_snapshot.columns[static_cast<std::size_t>(column)];
}

QVariant MatrixModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const auto column = static_cast<std::size_t>(index.column());
    if (role == Qt::ToolTipRole)
        return plainToolTip(cellDescription(index.row(), index.column()));
    if (role == Qt::AccessibleTextRole)
        return cellDescription(index.row(), index.column());
    if ((role >= BackendRole && role <= JobIdRole)
        || (role >= ShardMembersRole && role <= ShardExpandedRole))
        return columnData(m_snapshot.columns[column], role);
    if (role == CarriedFromRole)
        return carriedFrom(row, column);
    if (role == UnseenRole)
        if (const ShardColumn* shard = foldedGroupAt(row, column)) {
            // A collapsed group: any member that changed.
            for (const int member : shard->memberColumns) {
                const auto& c = ungrouped().cell(row, static_cast<std::size_t>(member));
                if (!c.empty() && m_unseen.contains(c.runRowId.value))
                    return true;
            }
            return false;
        }
    if ((role >= ShaRole && role <= CommitTitleRole)
        || (role >= RowKindRole && role <= ExpandedRole))
        return commitData(m_snapshot.rows[row], role);
    return cellData(m_snapshot.cell(row, column), role);
}

QVariant MatrixModel::cellData(const MatrixCell& cell, int role) const
{
    switch (role) {
    case Qt::DisplayRole: return cellStateGlyph(cellStateOf(cell));
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
    case CellStateRole: return static_cast<int>(cellStateOf(cell));
    case RunRowIdRole: return QVariant::fromValue<qint64>(cell.runRowId.value);
    case AttemptsRole: return static_cast<int>(cell.attempts);
    case RetriedRole: return cell.has(MatrixCell::Retried) || cell.attempts > 1;
    case StaleRole: return cell.has(MatrixCell::Stale);
    case HasArtifactsRole: return cell.has(MatrixCell::HasArtifacts);
    case UnseenRole: return !cell.empty() && m_unseen.contains(cell.runRowId.value);
    case TriageRole:
        return static_cast<int>(cell.has(MatrixCell::Triaged)     ? TriageMark::Triaged
                                : cell.has(MatrixCell::Untriaged) ? TriageMark::Untriaged
                                                                  : TriageMark::None);
    case VerdictRole:
        return static_cast<int>(cell.has(MatrixCell::GreenDisputed)     ? VerdictMark::Disputed
                                : cell.has(MatrixCell::GreenUnverified) ? VerdictMark::Unverified
                                : cell.has(MatrixCell::GreenVerified)   ? VerdictMark::Verified
                                                                        : VerdictMark::None);
    case DurationRole:
        return cell.durationSeconds > 0 ? QVariant(static_cast<double>(cell.durationSeconds))
                                        : QVariant();
    case StartedAtRole:
        return cell.startedAt > 0 ? QVariant::fromValue<qint64>(cell.startedAt) : QVariant();
    default: break;
    }
    return {};
}

QVariant MatrixModel::columnData(const MatrixColumn& column, int role) const
{
    switch (role) {
    case FollowedRole: {
        const QString backend = toQString(column.backend);
        return (m_followed.contains(
                    jobKey(backend, toQString(column.workflow), toQString(column.job)))
                    ? FollowedJob
                    : 0)
               | (m_followed.contains(backendKey(backend)) ? FollowedBackend : 0);
    }
    case Qt::DisplayRole:
    case JobRole: return toQString(column.job);
    case Qt::ToolTipRole:
        return plainToolTip(toQString(column.backend) % u"  " % levelLabel(column.level)
                            % (column.allowlisted
                                   ? QString()
                                   : tr("  (reports, but is not at L2+ in the allowlist)"))
                            % u"\n" % toQString(column.workflow) % u"\n" % toQString(column.job));
    case ShardMembersRole: {
        const ShardColumn* shard = shardColumn(column);
        return shard && !shard->memberColumns.empty() ? shard->members : 0;
    }
    case ShardFamilyRole: {
        const ShardColumn* shard = shardColumn(column);
        return shard ? shard->family : QString();
    }
    case ShardGroupNameRole: {
        const ShardColumn* shard = shardColumn(column);
        return shard ? shard->groupName : QString();
    }
    case ShardExpandedRole: {
        const ShardColumn* shard = shardColumn(column);
        return shard && shard->expanded;
    }
    case BackendRole: return toQString(column.backend);
    case LevelRole: return static_cast<int>(column.level);
    case WorkflowRole: return toQString(column.workflow);
    case JobIdRole: return QVariant::fromValue<qint64>(column.jobId.value);
    default: break;
    }
    return {};
}

QVariant MatrixModel::commitData(const UpstreamCommit& commit, int role) const
{
    switch (role) {
    case FollowedRole:
        return commit.prNumber.value > 0 && m_followed.contains(prKey(commit.prNumber.value));
    case Qt::DisplayRole:
    case ShortShaRole: return toQString(commit.sha.shortSha());
    case ShaRole: return toQString(commit.sha.value);
    case PrNumberRole: return QVariant::fromValue<qint64>(commit.prNumber.value);
    case BranchRole: return toQString(commit.branch);
    case EventTypeRole: return static_cast<int>(commit.eventType);
    case CommitTimeRole: return QVariant::fromValue<qint64>(commit.time);
    case CommitTitleRole: return toQString(commit.title);
    case RowKindRole: {
        const PullRequestRow* group = rowGroup(commit);
        return static_cast<int>(!group ? RowKind::Commit
                                : group->kind == PullRequestRow::Kind::Latest
                                    ? RowKind::PullRequest
                                    : RowKind::EarlierHead);
    }
    case HeadsRole: {
        const PullRequestRow* group = rowGroup(commit);
        return group ? group->heads : 0;
    }
    case ExpandedRole: {
        const PullRequestRow* group = rowGroup(commit);
        return group && group->expanded;
    }
    case Qt::ToolTipRole: {
        QString text = toQString(commit.sha.value);
        if (commit.prNumber.value > 0)
            text +=
                u"\n#" % QString::number(commit.prNumber.value) % u"  " % toQString(commit.title);
        else if (isScheduled(commit.eventType))
            text += u"\n" % scheduledTitle(commit);
        if (!commit.author.empty())
            text += u"\nby " % toQString(commit.author);
        // The HUD's rows name no branch for a PR (hud-read-api.md section 4).
        const QString branch = !commit.branch.empty() ? toQString(commit.branch)
                               : commit.prNumber.value > 0
                                   ? tr("branch not reported (the HUD's rows name none for a PR; "
                                        "→ marks the base branch a backend's log fetched)")
                                   : tr("branch not reported");
        text += u"\n" % eventTypeLabel(commit.eventType) % u" · " % branch % u" · "
                % formatLongTime(commit.time);
        if (const PullRequestRow* group = rowGroup(commit))
            text += group->kind == PullRequestRow::Kind::EarlierHead
                        ? tr("\nAn earlier head of #%1").arg(group->prNumber.value)
                    : group->heads > 1
                        ? tr("\nThe newest of the PR's %1 heads; each job shows its latest run "
                             "across them, and the time is the PR's latest activity")
                              .arg(group->heads)
                        : tr("\nThe PR's only head");
        return plainToolTip(text);
    }
    default: break;
    }
    return {};
}

QVariant MatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        const MatrixColumn* column = columnAt(section);
        return column ? columnData(*column, role) : QVariant();
    }
    const UpstreamCommit* commit = commitAt(section);
    if (!commit)
        return {};
    if (role == RowTitleRole) // a nightly id that is no commit has none: its id says it all
        return !isScheduled(commit->eventType)       ? toQString(commit->title)
               : isUpstreamCommit(commit->sha.value) ? scheduledTitle(*commit)
                                                     : QString();
    if (role == TestedRefRole)
        return testedRef(section);
    return commitData(*commit, role);
}

// The HUD's rows carry no branch for a PR (hud-read-api.md section 4); a
// backend that builds a PR once merged fetches its base branch, and its log
// names it (TestedCommit::ref): the one branch knowable for the row.
QString MatrixModel::testedRef(int row) const
{
    const auto r = static_cast<std::size_t>(row);
    for (std::size_t c = 0; c < m_snapshot.columns.size(); ++c) {
        const MatrixCell& cell = m_snapshot.cell(r, c);
        if (cell.empty())
            continue;
        if (const auto tested = m_tested.find(cell.runRowId);
            tested != m_tested.end() && !tested->second.ref.empty())
            return toQString(tested->second.ref);
    }
    return {};
}

QString MatrixModel::cellDescription(int row, int column) const
{
    const auto& commit = m_snapshot.rows[static_cast<std::size_t>(row)];
    const auto& job = m_snapshot.columns[static_cast<std::size_t>(column)];
    const auto& cell =
        m_snapshot.cell(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
    if (const ShardColumn* shard =
            foldedGroupAt(static_cast<std::size_t>(row), static_cast<std::size_t>(column)))
        return shardGroupDescription(row, *shard);
    QString text = cellStateText(cellStateOf(cell));
    if (!cell.empty() && cell.attempts > 0)
        text += QStringLiteral("  ·  attempts: %1").arg(cell.attempts);
    if (cell.has(MatrixCell::Triaged))
        text += tr("  ·  triaged");
    else if (cell.has(MatrixCell::Untriaged))
        text += tr("  ·  untriaged failures");
    if (cell.has(MatrixCell::GreenDisputed))
        text += tr("  ·  disputed: its artifacts contradict the green");
    else if (cell.has(MatrixCell::GreenUnverified))
        text += tr("  ·  not verified (see Coverage)");
    else if (cell.has(MatrixCell::GreenVerified))
        text += tr("  ·  verified against its config");
    text += u"\n" % toQString(job.backend) % u"  " % levelLabel(job.level) % u"\n"
            % toQString(job.workflow) % u" / " % toQString(job.job) % u"\n"
            % toQString(commit.sha.shortSha());
    if (commit.prNumber.value > 0)
        text += u"  #" % QString::number(commit.prNumber.value);
    if (const auto tested = m_tested.find(cell.runRowId); !cell.empty() && tested != m_tested.end())
        text +=
            u"\n"
            % tr("%1 (from its %2)")
                  .arg(toQString(testedCommitText(tested->second, commit.sha, commit.prNumber,
                                                  commit.prNumber.value > 0 ? commit.branch : "")),
                       toQString(testedCommitSourceName(tested->second.source)));
    else if (isScheduled(commit.eventType) && !isUpstreamCommit(commit.sha.value))
        text += tr("\nnot an upstream commit (the downstream's own nightly id)");
    if (const QString head =
            carriedFrom(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
        !head.isEmpty())
        text += tr("\nran on an earlier head, %1; it is this job's latest run in the PR")
                    .arg(head.left(7));
    if (!cell.empty()) {
        text += u"\nstarted " % formatLongTime(cell.startedAt) % u"\nduration "
                % (cell.durationSeconds > 0              ? formatDuration(cell.durationSeconds)
                   : cell.status == RunStatus::Completed ? tr("not reported")
                                                         : tr("not finished"));
    }
    return text;
}

// A collapsed group's cell: its worst state, then each member's.
QString MatrixModel::shardGroupDescription(int row, const ShardColumn& shard) const
{
    const auto r = static_cast<std::size_t>(row);
    const auto& commit = m_snapshot.rows[r];
    const MatrixCell worst = worstMember(ungrouped(), r, shard.memberColumns);
    const auto& first = ungrouped().columns[static_cast<std::size_t>(shard.memberColumns.front())];
    QString text = tr("%1: %2 (the worst of %3 shards)")
                       .arg(shard.groupName, cellStateText(cellStateOf(worst)))
                       .arg(shard.members);
    if (worst.has(MatrixCell::Untriaged))
        text += tr("  ·  untriaged failures");
    text += u"\n" % toQString(first.backend) % u"  " % levelLabel(first.level) % u"\n"
            % toQString(first.workflow) % u"\n" % toQString(commit.sha.shortSha());
    if (commit.prNumber.value > 0)
        text += u"  #" % QString::number(commit.prNumber.value);
    for (const int member : shard.memberColumns) {
        const auto m = static_cast<std::size_t>(member);
        text += u"\n  " % toQString(ungrouped().columns[m].job) % u": "
                % cellStateText(cellStateOf(ungrouped().cell(r, m)));
    }
    text += tr("\nClick the column's header to show the shards one by one.");
    return text;
}

void MatrixModel::setUnseen(const QSet<qint64>& runs)
{
    if (runs == m_unseen)
        return;
    m_unseen = runs;
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {UnseenRole});
}

void MatrixModel::setFollowed(const QSet<QString>& keys)
{
    if (keys == m_followed)
        return;
    m_followed = keys;
    if (columnCount() > 0)
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    if (rowCount() > 0)
        emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
}

} // namespace relayhud::ui
