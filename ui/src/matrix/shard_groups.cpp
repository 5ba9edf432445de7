#include "relayhud/ui/matrix/shard_groups.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/common/job_label.h"

#include <QHash>

namespace relayhud::ui {

namespace {

struct Family {
    QString key;
    QString groupName;
    bool namedShards = false; // "test (CONFIG, i, N, RUNNER)"
    std::vector<int> members;
};

// The family of each input column ("" for none), and each family.
std::vector<QString> families(const MatrixSnapshot& in, QHash<QString, Family>& out)
{
    std::vector<QString> keys;
    keys.reserve(in.columns.size());
    for (std::size_t c = 0; c < in.columns.size(); ++c) {
        const MatrixColumn& column = in.columns[c];
        const JobLabel label = parseJobLabel(toQString(column.job));
        if (label.family.isEmpty()) {
            keys.emplace_back();
            continue;
        }
        const QString key = toQString(column.backend) % u'\x1e' % toQString(column.workflow)
                            % u'\x1e' % label.family;
        Family& family = out[key];
        family.key = key;
        family.groupName = label.groupName;
        family.namedShards = label.shards > 1;
        family.members.push_back(static_cast<int>(c));
        keys.push_back(key);
    }
    return keys;
}

bool forms(const Family& family)
{
    const auto n = family.members.size();
    return family.namedShards ? n >= 2 : n >= static_cast<std::size_t>(kMinSuffixGroupMembers);
}

} // namespace

int shardSeverity(const MatrixCell& cell)
{
    if (cell.empty())
        return -1;
    if (cell.status == RunStatus::Queued || cell.status == RunStatus::InProgress)
        return 1;
    switch (cell.conclusion) {
    case Conclusion::Failure:
    case Conclusion::TimedOut: return 3;
    case Conclusion::Cancelled: return 2;
    case Conclusion::None: return cell.status == RunStatus::Completed ? 0 : 1;
    default: return 0;
    }
}

MatrixCell worstMember(const MatrixSnapshot& in, std::size_t row, const std::vector<int>& members)
{
    MatrixCell worst;
    int worstSeverity = -1;
    bool untriaged = false;
    for (const int c : members) {
        const MatrixCell& cell = in.cell(row, static_cast<std::size_t>(c));
        untriaged = untriaged || cell.has(MatrixCell::Untriaged);
        if (const int severity = shardSeverity(cell); severity > worstSeverity) {
            worst = cell;
            worstSeverity = severity;
        }
    }
    if (untriaged) {
        worst.flags &= static_cast<std::uint16_t>(~MatrixCell::Triaged);
        worst.flags |= MatrixCell::Untriaged;
    }
    return worst;
}

ShardMatrix groupShards(const MatrixSnapshot& in, const QSet<QString>& expanded)
{
    QHash<QString, Family> byKey;
    const std::vector<QString> keys = families(in, byKey);
    ShardMatrix out;
    out.matrix.rows = in.rows;
    std::vector<int> kept; // input columns shown; a collapsed group by its first member
    for (std::size_t c = 0; c < in.columns.size(); ++c) {
        ShardColumn shard;
        const auto it = keys[c].isEmpty() ? byKey.cend() : byKey.constFind(keys[c]);
        if (it != byKey.cend() && forms(*it)) {
            shard.family = it->key;
            shard.groupName = it->groupName;
            shard.members = static_cast<int>(it->members.size());
            shard.expanded = expanded.contains(it->key);
            if (!shard.expanded) {
                if (it->members.front() != static_cast<int>(c))
                    continue; // the group's column stands for it
                shard.memberColumns = it->members;
            }
        }
        kept.push_back(static_cast<int>(c));
        out.matrix.columns.push_back(in.columns[c]);
        out.columns.push_back(std::move(shard));
    }
    out.matrix.cells.reserve(in.rows.size() * kept.size());
    for (std::size_t r = 0; r < in.rows.size(); ++r)
        for (std::size_t k = 0; k < kept.size(); ++k) {
            const ShardColumn& shard = out.columns[k];
            out.matrix.cells.push_back(shard.memberColumns.empty()
                                           ? in.cell(r, static_cast<std::size_t>(kept[k]))
                                           : worstMember(in, r, shard.memberColumns));
        }
    return out;
}

} // namespace relayhud::ui
