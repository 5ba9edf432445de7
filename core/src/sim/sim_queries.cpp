#include "sim_queries.h"

#include "sim_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <tuple>
#include <unordered_set>

namespace relayhud::sim {
namespace {

constexpr std::int64_t kSecondsPerDay = 86400;
constexpr std::int64_t kMaxDays = 36500;

Error badParameter(const std::string& key, const std::string& what)
{
    return makeError("parameter '" + key + "' " + what);
}

// ClickHouse substitutes {name: UInt64} from text, so "7" and 7 both work.
Result<std::int64_t> uintParam(const nlohmann::json& p, const std::string& key)
{
    if (!p.contains(key))
        return badParameter(key, "is missing");
    const auto& v = p[key];
    std::int64_t out = -1;
    if (v.is_number_integer())
        out = v.get<std::int64_t>();
    else if (v.is_string()) {
        const auto& text = v.get_ref<const std::string&>();
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (ec != std::errc() || end != text.data() + text.size())
            out = -1;
    }
    if (out < 0)
        return badParameter(key, "must be a non-negative integer");
    return out;
}

Result<std::string> stringParam(const nlohmann::json& p, const std::string& key)
{
    if (!p.contains(key))
        return badParameter(key, "is missing");
    if (!p[key].is_string())
        return badParameter(key, "must be a string");
    return p[key].get<std::string>();
}

Result<EpochSeconds> windowStart(const nlohmann::json& p, EpochSeconds now)
{
    auto days = uintParam(p, "days");
    if (!days)
        return days.error();
    return now - std::min(*days, kMaxDays) * kSecondsPerDay;
}

// The first error among parsed parameters, or nullptr when all are valid.
template <class... Parsed>
const Error* firstError(const Parsed&... parsed)
{
    const Error* error = nullptr;
    ((error = error ? error : (parsed ? nullptr : &parsed.error())), ...);
    return error;
}

EpochSeconds startedAt(const SimRow& row) { return row.run.reported.startedAt.value_or(0); }

bool completed(const SimRow& row) { return row.run.reported.status == RunStatus::Completed; }

bool isFullSha(const std::string& sha)
{
    return sha.size() == 40 && std::all_of(sha.begin(), sha.end(), [](char c) {
               return std::isxdigit(static_cast<unsigned char>(c)) != 0;
           });
}

// The nightly dashboard groups rows by upstream SHA, or by run for reporters
// that do not send a real SHA.
std::string nightlyKey(const SimRow& row)
{
    const std::string& sha = row.run.upstreamSha.value;
    return isFullSha(sha) ? "sha:" + sha : "run:" + (row.run.runId.empty() ? sha : row.run.runId);
}

// The SELECT lists of the saved queries, in their order.
const ColumnSet& dashboardColumns()
{
    static const ColumnSet columns(
        "upstream_repo, pr_number, pytorch_head_sha, workflow_name, job_name, check_run_id, "
        "run_id, run_attempt, status, conclusion, started_at, completed_at, duration_seconds, "
        "total_tests, passed_tests, failed_tests, skipped_tests, workflow_run_url, artifact_url, "
        "queue_time, execution_time, failed_tests_json, triage_verdict_json");
    return columns;
}

const ColumnSet& nightlyColumns()
{
    static const ColumnSet columns(
        "upstream_repo, pytorch_head_sha, workflow_name, job_name, check_run_id, run_id, "
        "run_attempt, status, conclusion, started_at, completed_at, duration_seconds, "
        "total_tests, passed_tests, failed_tests, skipped_tests, workflow_run_url, artifact_url, "
        "queue_time, execution_time, failed_tests_json");
    return columns;
}

const ColumnSet& prResultColumns()
{
    static const ColumnSet columns(
        "downstream_repo, workflow_name, job_name, check_run_id, run_id, run_attempt, status, "
        "conclusion, duration_seconds, workflow_run_url, artifact_url, started_at, queue_time, "
        "execution_time");
    return columns;
}

// GROUP BY pr_number ORDER BY max(started_at) DESC LIMIT per_page OFFSET offset
std::unordered_set<std::int64_t> prPage(const std::map<std::int64_t, EpochSeconds>& latest,
                                        std::int64_t offset, std::int64_t perPage)
{
    std::vector<std::pair<EpochSeconds, std::int64_t>> prs;
    for (const auto& [pr, t] : latest)
        prs.emplace_back(t, pr);
    std::sort(prs.rbegin(), prs.rend());
    const auto total = static_cast<std::int64_t>(prs.size());
    const std::int64_t first = std::min(offset, total);
    const std::int64_t last = first + std::min(perPage, total - first);
    std::unordered_set<std::int64_t> page;
    for (std::int64_t i = first; i < last; ++i)
        page.insert(prs[static_cast<std::size_t>(i)].second);
    return page;
}

} // namespace

SimQueries::SimQueries(const SimDataset& dataset) : m_data(dataset)
{
    for (std::size_t i = 0; i < dataset.rows.size(); ++i) {
        m_byRepo[dataset.rows[i].run.downstreamRepo].push_back(i);
        m_byPr[dataset.rows[i].run.prNumber].push_back(i);
    }
}

bool SimQueries::has(std::string_view query) const
{
    return query == "crcr_backend_dashboard" || query == "crcr_nightly_dashboard"
           || query == "crcr_pr_results" || query == "crcr_summary";
}

Result<Json> SimQueries::run(std::string_view query, const nlohmann::json& parameters) const
{
    if (!parameters.is_object())
        return makeError("parameters must be a JSON object");
    if (query == "crcr_backend_dashboard")
        return backendDashboard(parameters);
    if (query == "crcr_nightly_dashboard")
        return nightlyDashboard(parameters);
    if (query == "crcr_pr_results")
        return prResults(parameters);
    if (query == "crcr_summary")
        return summary(parameters);
    return makeError("unknown query " + std::string(query));
}

const std::vector<std::size_t>& SimQueries::rowsOf(const std::string& repo) const
{
    static const std::vector<std::size_t> kEmpty;
    const auto it = m_byRepo.find(repo);
    return it == m_byRepo.end() ? kEmpty : it->second;
}

// Rows of the page's PRs, where PRs are ordered by their latest start.
Result<Json> SimQueries::backendDashboard(const nlohmann::json& p) const
{
    auto repo = stringParam(p, "repo");
    auto since = windowStart(p, m_data.config.now);
    auto perPage = uintParam(p, "per_page");
    auto offset = uintParam(p, "offset");
    if (const Error* e = firstError(repo, since, perPage, offset))
        return *e;
    std::vector<std::size_t> rows;
    std::map<std::int64_t, EpochSeconds> latest;
    for (std::size_t i : rowsOf(*repo)) {
        const SimRow& row = m_data.rows[i];
        if (startedAt(row) <= *since || row.run.prNumber <= 0)
            continue;
        rows.push_back(i);
        auto& t = latest[row.run.prNumber];
        t = std::max(t, startedAt(row));
    }
    const auto page = prPage(latest, *offset, *perPage);
    std::erase_if(rows,
                  [&](std::size_t i) { return page.count(m_data.rows[i].run.prNumber) == 0; });
    sortNewestFirst(rows);
    return project(dashboardColumns(), rows);
}

// Latest attempt of every job of the nightly SHAs that completed a job in the
// window ("complete nightly rows rather than individual cells").
Result<Json> SimQueries::nightlyDashboard(const nlohmann::json& p) const
{
    auto repo = stringParam(p, "repo");
    auto since = windowStart(p, m_data.config.now);
    if (const Error* e = firstError(repo, since))
        return *e;
    std::vector<std::size_t> nightly;
    std::unordered_set<std::string> eligible;
    for (std::size_t i : rowsOf(*repo)) {
        const SimRow& row = m_data.rows[i];
        if (row.run.eventType != EventType::Nightly)
            continue;
        nightly.push_back(i);
        const auto done = row.run.reported.completedAt;
        if (completed(row) && done && *done >= *since && *done < m_data.config.now)
            eligible.insert(nightlyKey(row));
    }
    std::erase_if(nightly,
                  [&](std::size_t i) { return eligible.count(nightlyKey(m_data.rows[i])) == 0; });
    std::map<std::tuple<std::string, std::string, std::string>, int> maxAttempt;
    for (std::size_t i : nightly) {
        const CheckRun& run = m_data.rows[i].run;
        int& best = maxAttempt[{run.upstreamSha.value, run.runId, run.jobName}];
        best = std::max(best, run.runAttempt);
    }
    std::erase_if(nightly, [&](std::size_t i) {
        const CheckRun& run = m_data.rows[i].run;
        return maxAttempt.at({run.upstreamSha.value, run.runId, run.jobName}) != run.runAttempt;
    });
    sortNewestFirst(nightly);
    nightly.resize(std::min<std::size_t>(nightly.size(), 500));
    return project(nightlyColumns(), nightly);
}

Result<Json> SimQueries::prResults(const nlohmann::json& p) const
{
    auto pr = uintParam(p, "pr");
    if (!pr)
        return pr.error();
    const auto it = m_byPr.find(*pr);
    std::vector<std::size_t> rows = it == m_byPr.end() ? std::vector<std::size_t>{} : it->second;
    std::sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
        const SimRow& x = m_data.rows[a];
        const SimRow& y = m_data.rows[b];
        if (x.run.downstreamRepo != y.run.downstreamRepo)
            return x.run.downstreamRepo < y.run.downstreamRepo;
        return std::make_pair(startedAt(x), a) > std::make_pair(startedAt(y), b);
    });
    rows.resize(std::min<std::size_t>(rows.size(), 100));
    return project(prResultColumns(), rows);
}

namespace {

struct RepoSummary {
    std::string repo;
    std::string level;
    std::int64_t successes = 0;
    std::int64_t failures = 0;
    std::int64_t timedOut = 0;
    std::int64_t total = 0;
    double durationSum = 0.0;
    EpochSeconds lastRun = 0;

    double passRate() const
    {
        return total > 0 ? static_cast<double>(successes) / static_cast<double>(total) : 0.0;
    }

    void add(const SimRow& row)
    {
        const Conclusion c = row.run.reported.conclusion;
        successes += c == Conclusion::Success ? 1 : 0;
        failures += c == Conclusion::Failure ? 1 : 0;
        timedOut += c == Conclusion::TimedOut ? 1 : 0;
        ++total;
        durationSum += static_cast<double>(durationSeconds(row));
        lastRun = std::max(lastRun, startedAt(row));
        level = std::string(wireLevel(row.run.trusted.level));
    }

    Json toJson() const
    {
        Json out = Json::object();
        out["repo"] = repo;
        out["downstream_repo_level"] = level;
        out["successes"] = successes;
        out["failures"] = failures;
        out["timed_out"] = timedOut;
        out["total"] = total;
        out["pass_rate"] = float64(passRate());
        out["avg_duration_s"] = float64(total > 0 ? durationSum / static_cast<double>(total) : 0.0);
        out["last_run"] = clickhouseIso(lastRun);
        return out;
    }
};

} // namespace

// One line per backend over completed PR rows, worst pass rate first.
Result<Json> SimQueries::summary(const nlohmann::json& p) const
{
    auto since = windowStart(p, m_data.config.now);
    if (!since)
        return since.error();
    std::map<std::string, RepoSummary> repos;
    for (const SimRow& row : m_data.rows) {
        if (!completed(row) || row.run.prNumber <= 0 || startedAt(row) <= *since)
            continue;
        RepoSummary& s = repos[row.run.downstreamRepo];
        s.repo = row.run.downstreamRepo;
        s.add(row);
    }
    std::vector<const RepoSummary*> ordered;
    for (const auto& [repo, s] : repos)
        ordered.push_back(&s);
    std::stable_sort(
        ordered.begin(), ordered.end(),
        [](const RepoSummary* a, const RepoSummary* b) { return a->passRate() < b->passRate(); });
    Json out = Json::array();
    for (const RepoSummary* s : ordered)
        out.push_back(s->toJson());
    return out;
}

void SimQueries::sortNewestFirst(std::vector<std::size_t>& rows) const
{
    std::sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
        return std::make_pair(startedAt(m_data.rows[a]), a)
               > std::make_pair(startedAt(m_data.rows[b]), b);
    });
}

Json SimQueries::project(const ColumnSet& columns, const std::vector<std::size_t>& rows) const
{
    Json out = Json::array();
    for (std::size_t i : rows)
        out.push_back(columns.row(m_data.rows[i]));
    return out;
}

} // namespace relayhud::sim
