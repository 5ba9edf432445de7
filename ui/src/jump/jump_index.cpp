#include "relayhud/ui/jump/jump_index.h"

#include "relayhud/ui/tests/outcome_style.h"

#include <QRegularExpression>

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>

namespace relayhud::ui {

namespace {

constexpr int kNoMatch = -1;

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

// 1: the key starts with the query; 2: a word inside it does; 3: anywhere.
int nameScore(const QString& key, const QString& query)
{
    const qsizetype at = key.indexOf(query);
    if (at < 0)
        return kNoMatch;
    if (at == 0)
        return 1;
    for (qsizetype from = at; from >= 0; from = key.indexOf(query, from + 1))
        if (!key.at(from - 1).isLetterOrNumber())
            return 2;
    return 3;
}

// "123" or "#123": the digits; nullopt for anything else.
std::optional<QString> prDigits(const QString& query)
{
    static const QRegularExpression pr(QStringLiteral("^#?([0-9]{1,18})$"));
    const QRegularExpressionMatch m = pr.match(query);
    return m.hasMatch() ? std::optional<QString>(m.captured(1)) : std::nullopt;
}

bool isHexPrefix(const QString& query)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{3,40}$"));
    return hex.match(query).hasMatch();
}

int score(const JumpEntry& entry, const QString& key, const QString& query)
{
    switch (entry.kind) {
    case JumpEntry::Kind::Commit:
        if (isHexPrefix(query) && key.startsWith(query))
            return 0;
        return query.size() >= 3 && !isHexPrefix(key) ? nameScore(key, query) : kNoMatch;
    case JumpEntry::Kind::PullRequest: {
        const auto digits = prDigits(query);
        if (!digits)
            return kNoMatch;
        const QString number = key.mid(1); // after '#'
        return number == *digits ? 0 : number.startsWith(*digits) ? 1 : kNoMatch;
    }
    default: return nameScore(key, query);
    }
}

JumpEntry commitEntry(const UpstreamCommit& commit)
{
    JumpEntry e;
    e.kind = JumpEntry::Kind::Commit;
    e.sha = fromStd(commit.sha.value);
    e.text = fromStd(commit.sha.shortSha());
    e.detail = fromStd(commit.title);
    if (commit.prNumber.value > 0)
        e.detail = u'#' % QString::number(commit.prNumber.value) % u"  " % e.detail;
    return e;
}

JumpEntry prEntry(const UpstreamCommit& head)
{
    JumpEntry e;
    e.kind = JumpEntry::Kind::PullRequest;
    e.sha = fromStd(head.sha.value);
    e.text = u'#' % QString::number(head.prNumber.value);
    e.detail = fromStd(head.sha.shortSha()) % u"  " % fromStd(head.title);
    return e;
}

} // namespace

QString kindLabel(JumpEntry::Kind kind)
{
    switch (kind) {
    case JumpEntry::Kind::Commit: return QStringLiteral("Commit");
    case JumpEntry::Kind::PullRequest: return QStringLiteral("PR");
    case JumpEntry::Kind::Backend: return QStringLiteral("Backend");
    case JumpEntry::Kind::Job: return QStringLiteral("Job");
    case JumpEntry::Kind::Test: return QStringLiteral("Test");
    }
    return {};
}

void JumpIndex::setMatrix(const MatrixSnapshot& matrix)
{
    m_entries.clear();
    std::map<PrNumber, const UpstreamCommit*> heads; // PR -> newest head
    for (const UpstreamCommit& commit : matrix.rows) {
        m_entries.push_back(commitEntry(commit));
        if (commit.prNumber.value <= 0)
            continue;
        const UpstreamCommit*& head = heads[commit.prNumber];
        if (!head || commit.time > head->time)
            head = &commit;
    }
    // Newest PRs first, as the matrix lists them.
    std::vector<const UpstreamCommit*> prs;
    for (const auto& [pr, head] : heads)
        prs.push_back(head);
    std::stable_sort(prs.begin(), prs.end(),
                     [](const auto* a, const auto* b) { return a->time > b->time; });
    for (const UpstreamCommit* head : prs)
        m_entries.push_back(prEntry(*head));
    std::map<std::string, int> jobsPerBackend;
    for (const MatrixColumn& column : matrix.columns)
        ++jobsPerBackend[column.backend];
    for (const auto& [backend, jobs] : jobsPerBackend) {
        JumpEntry e;
        e.kind = JumpEntry::Kind::Backend;
        e.backend = e.text = fromStd(backend);
        e.detail = jobs == 1 ? QStringLiteral("1 job") : QStringLiteral("%1 jobs").arg(jobs);
        m_entries.push_back(std::move(e));
    }
    for (const MatrixColumn& column : matrix.columns) {
        JumpEntry e;
        e.kind = JumpEntry::Kind::Job;
        e.text = e.job = fromStd(column.job);
        e.backend = fromStd(column.backend);
        e.workflow = fromStd(column.workflow);
        e.detail = e.backend % u" · " % e.workflow;
        m_entries.push_back(std::move(e));
    }
    m_keys.clear();
    for (const JumpEntry& e : m_entries)
        m_keys.push_back((e.kind == JumpEntry::Kind::Commit ? e.sha : e.text).toLower());
}

void JumpIndex::setTests(const std::vector<StoredTestResult>& results)
{
    m_tests.clear();
    m_testKeys.clear();
    for (const StoredTestResult& r : results) {
        JumpEntry e;
        e.kind = JumpEntry::Kind::Test;
        e.test = fromStd(r.identity);
        e.text = e.test;
        e.detail = outcomeLabel(r.outcome);
        m_testKeys.push_back(e.test.toLower());
        m_tests.push_back(std::move(e));
    }
}

std::vector<JumpEntry> JumpIndex::match(const QString& input, std::size_t limit) const
{
    const QString query = input.trimmed().toLower();
    if (query.isEmpty() || limit == 0)
        return {};
    struct Hit {
        int score;
        const JumpEntry* entry;
        std::size_t order;
    };
    std::vector<Hit> hits;
    const auto scan = [&](const std::vector<JumpEntry>& entries, const std::vector<QString>& keys) {
        for (std::size_t i = 0; i < entries.size(); ++i)
            if (const int s = score(entries[i], keys[i], query); s != kNoMatch)
                hits.push_back({s, &entries[i], hits.size()});
    };
    scan(m_entries, m_keys);
    scan(m_tests, m_testKeys);
    const auto better = [](const Hit& a, const Hit& b) {
        if (a.score != b.score)
            return a.score < b.score;
        if (a.entry->kind != b.entry->kind)
            return a.entry->kind < b.entry->kind;
        if (a.entry->text.size() != b.entry->text.size())
            return a.entry->text.size() < b.entry->text.size();
        return a.order < b.order;
    };
    const std::size_t keep = std::min(limit, hits.size());
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(keep), hits.end(),
                      better);
    std::vector<JumpEntry> out;
    out.reserve(keep);
    for (std::size_t i = 0; i < keep; ++i)
        out.push_back(*hits[i].entry);
    return out;
}

} // namespace relayhud::ui
