#include "sim_queries.h"

#include "sim_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

namespace relayhud::sim {
namespace {

// Facts from pytorch/test-infra @61a77570 (torchci/clickhouse_queries/<name>/
// query.sql and params.json; torchci/lib/clickhouse.ts):
//  - parameters are filtered to the keys params.json declares; a missing one
//    makes ClickHouse fail, and so does a value it cannot read as the type;
//  - there is no clamp on `days`.

Error missing(const std::string& key) { return makeError("parameter '" + key + "' is missing"); }

Error badType(const std::string& key, const char* type)
{
    return makeError("parameter '" + key + "' is not a " + type);
}

// {name: UInt64}: the client sends numbers and numeric strings alike as text.
Result<std::uint64_t> uintParam(const nlohmann::json& p, const std::string& key)
{
    if (!p.is_object() || !p.contains(key))
        return missing(key);
    const auto& v = p[key];
    if (v.is_number_unsigned())
        return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(v.get<std::int64_t>());
    // JSON.parse makes 7.0 the number 7, which the client sends as "7".
    if (v.is_number_float() && v.get<double>() >= 0 && v.get<double>() < 1.8e19
        && std::floor(v.get<double>()) == v.get<double>())
        return static_cast<std::uint64_t>(v.get<double>());
    if (v.is_string()) {
        const auto& text = v.get_ref<const std::string&>();
        std::uint64_t out = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (!text.empty() && ec == std::errc() && end == text.data() + text.size())
            return out;
    }
    return badType(key, "UInt64");
}

// {name: String}: any scalar reaches ClickHouse as text.
Result<std::string> stringParam(const nlohmann::json& p, const std::string& key)
{
    if (!p.is_object() || !p.contains(key) || p[key].is_null())
        return missing(key);
    const auto& v = p[key];
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_number() || v.is_boolean())
        return v.dump();
    return badType(key, "String");
}

// {prNums: Array(Int64)}
Result<std::vector<std::int64_t>> intArrayParam(const nlohmann::json& p, const std::string& key)
{
    if (!p.is_object() || !p.contains(key))
        return missing(key);
    const auto& v = p[key];
    if (!v.is_array())
        return badType(key, "Array(Int64)");
    std::vector<std::int64_t> out;
    for (const auto& item : v) {
        if (!item.is_number_integer())
            return badType(key, "Array(Int64)");
        out.push_back(item.get<std::int64_t>());
    }
    return out;
}

// now() - INTERVAL {days: UInt64} DAY
Result<EpochSeconds> windowStart(const nlohmann::json& p, EpochSeconds now)
{
    auto days = uintParam(p, "days");
    if (!days)
        return days.error();
    if (*days > static_cast<std::uint64_t>(now / kSecondsPerDay))
        return std::numeric_limits<EpochSeconds>::min();
    return now - static_cast<EpochSeconds>(*days) * kSecondsPerDay;
}

template <class... Parsed>
const Error* firstError(const Parsed&... parsed)
{
    const Error* error = nullptr;
    ((error = error ? error : (parsed ? nullptr : &parsed.error())), ...);
    return error;
}

EpochSeconds startedAt(const SimRow& row) { return row.run.reported.startedAt.value_or(0); }

// started_at as DateTime64: (seconds, microseconds).
std::pair<EpochSeconds, int> startedKey(const SimRow& row)
{
    return {startedAt(row), row.run.reported.startedAt ? row.startedMicros : 0};
}

// started_at > now() - INTERVAL days DAY
bool inWindow(const SimRow& row, EpochSeconds since)
{
    return startedKey(row) > std::make_pair(since, 0);
}

bool completed(const SimRow& row) { return row.run.reported.status == RunStatus::Completed; }

bool isNightly(const SimRow& row) { return row.eventTypeText == "nightly"; }

bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

// The crcr-test adjustment of crcr_summary, crcr_backend_summary and
// crcr_success_rate: in the probe repo, x* jobs that fail / cancel / time
// out as they are meant to count as successes (LIKE is case-sensitive).
bool expectedProbeOutcome(const SimRow& row)
{
    const std::string& job = row.run.jobName;
    const Conclusion c = row.run.reported.conclusion;
    return row.run.downstreamRepo == kProbeRepo
           && ((contains(job, "xfail") && c == Conclusion::Failure)
               || (contains(job, "xcancel") && c == Conclusion::Cancelled)
               || (contains(job, "xtimeout") && c == Conclusion::TimedOut));
}

// The SELECT lists of the row queries, in their order.
const ColumnSet& dashboardColumns()
{
    static const ColumnSet columns(
        "upstream_repo, pr_number, pytorch_head_sha, workflow_name, job_name, check_run_id, "
        "run_id, run_attempt, status, conclusion, started_at, completed_at, duration_seconds, "
        "total_tests, passed_tests, failed_tests, skipped_tests, workflow_run_url, artifact_url, "
        "queue_time, execution_time");
    return columns;
}

const ColumnSet& nightlyColumns()
{
    static const ColumnSet columns(
        "upstream_repo, pytorch_head_sha, workflow_name, job_name, check_run_id, run_id, "
        "run_attempt, status, conclusion, started_at, completed_at, duration_seconds, "
        "total_tests, passed_tests, failed_tests, skipped_tests, workflow_run_url, artifact_url, "
        "queue_time, execution_time");
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

const ColumnSet& hudResultColumns()
{
    static const ColumnSet columns(
        "pr_number, pytorch_head_sha, downstream_repo, downstream_repo_level, workflow_name, "
        "job_name, check_run_id, run_id, run_attempt, status, conclusion, workflow_run_url, "
        "duration_seconds, failed_tests_json");
    return columns;
}

// GROUP BY pr_number ORDER BY max(started_at) DESC LIMIT n OFFSET offset
std::unordered_set<std::int64_t>
prPage(const std::map<std::int64_t, std::pair<EpochSeconds, int>>& latest, std::uint64_t offset,
       std::uint64_t limit)
{
    std::vector<std::pair<std::pair<EpochSeconds, int>, std::int64_t>> prs;
    for (const auto& [pr, t] : latest)
        prs.emplace_back(t, pr);
    std::sort(prs.rbegin(), prs.rend());
    std::unordered_set<std::int64_t> page;
    for (std::uint64_t i = offset; i < prs.size() && i - offset < limit; ++i)
        page.insert(prs[static_cast<std::size_t>(i)].second);
    return page;
}

Json nullableAverage(double sum, std::int64_t n)
{
    return n > 0 ? float64(sum / static_cast<double>(n)) : Json(nullptr);
}

double ratio(std::int64_t a, std::int64_t b)
{
    return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

// The countIf/count/avg/max columns the summaries share.
struct Tally {
    bool adjustProbe = true; // crcr_nightly_summary has no crcr-test adjustment
    std::int64_t successes = 0;
    std::int64_t failures = 0;
    std::int64_t timedOut = 0;
    std::int64_t total = 0;
    double durationSum = 0.0;
    std::pair<EpochSeconds, int> lastRun{std::numeric_limits<EpochSeconds>::min(), 0};
    const SimRow* latest = nullptr; // argMax(..., started_at); also anyLast's pick

    void add(const SimRow& row)
    {
        const Conclusion c = row.run.reported.conclusion;
        const bool expected = adjustProbe && expectedProbeOutcome(row);
        successes += c == Conclusion::Success || expected ? 1 : 0;
        failures += c == Conclusion::Failure && !expected ? 1 : 0;
        timedOut += c == Conclusion::TimedOut && !expected ? 1 : 0;
        ++total;
        durationSum += static_cast<double>(durationSeconds(row));
        if (!latest || startedKey(row) >= lastRun) {
            lastRun = startedKey(row);
            latest = &row;
        }
    }
    double passRate() const { return ratio(successes, total); }
    std::string lastRunText() const
    {
        return latest ? clickhouseIso(lastRun.first, lastRun.second) : std::string(kZeroDateTime);
    }
};

// crcr_summary / crcr_nightly_summary: one line per repo, worst pass rate first.
Json repoLines(const std::map<std::string, Tally>& repos, bool withLatestSha)
{
    std::vector<std::pair<std::string, const Tally*>> ordered;
    for (const auto& [repo, t] : repos)
        ordered.emplace_back(repo, &t);
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
        return a.second->passRate() < b.second->passRate();
    });
    Json out = Json::array();
    for (const auto& [repo, t] : ordered) {
        Json line = Json::object();
        line["repo"] = repo;
        line["downstream_repo_level"] = wireLevel(t->latest->run.trusted.level);
        line["successes"] = t->successes;
        line["failures"] = t->failures;
        line["timed_out"] = t->timedOut;
        line["total"] = t->total;
        line["pass_rate"] = float64(t->passRate());
        line["avg_duration_s"] = float64(t->durationSum / static_cast<double>(t->total));
        line["last_run"] = t->lastRunText();
        if (withLatestSha)
            line["latest_sha"] = t->latest->run.upstreamSha.value;
        out.push_back(std::move(line));
    }
    return out;
}

} // namespace

SimQueries::SimQueries(const SimDataset& dataset) : m_data(dataset)
{
    for (std::size_t i = 0; i < dataset.rows.size(); ++i) {
        m_byRepo[dataset.rows[i].run.downstreamRepo].push_back(i);
        m_byPr[dataset.rows[i].run.prNumber.value].push_back(i);
    }
}

const std::vector<std::string_view>& SimQueries::names()
{
    static const std::vector<std::string_view> list = {
        "crcr_backend_dashboard", "crcr_backend_summary",   "crcr_health_last_prs",
        "crcr_hud_results",       "crcr_nightly_dashboard", "crcr_nightly_summary",
        "crcr_pr_results",        "crcr_success_rate",      "crcr_summary"};
    return list;
}

bool SimQueries::has(std::string_view query) const
{
    return std::find(names().begin(), names().end(), query) != names().end();
}

Result<Json> SimQueries::run(std::string_view query, const nlohmann::json& parameters) const
{
    using Method = Result<Json> (SimQueries::*)(const nlohmann::json&) const;
    static const std::map<std::string_view, Method> table = {
        {"crcr_backend_dashboard", &SimQueries::backendDashboard},
        {"crcr_backend_summary", &SimQueries::backendSummary},
        {"crcr_health_last_prs", &SimQueries::healthLastPrs},
        {"crcr_hud_results", &SimQueries::hudResults},
        {"crcr_nightly_dashboard", &SimQueries::nightlyDashboard},
        {"crcr_nightly_summary", &SimQueries::nightlySummary},
        {"crcr_pr_results", &SimQueries::prResults},
        {"crcr_success_rate", &SimQueries::successRate},
        {"crcr_summary", &SimQueries::summary},
    };
    const auto it = table.find(query);
    if (it == table.end())
        return makeError("unknown query " + std::string(query)); // readFileSync: ENOENT
    return (this->*it->second)(parameters);
}

const std::vector<std::size_t>& SimQueries::rowsOf(const std::string& repo) const
{
    static const std::vector<std::size_t> kEmpty;
    const auto it = m_byRepo.find(repo);
    return it == m_byRepo.end() ? kEmpty : it->second;
}

// crcr_backend_dashboard: every in-window row of the page's PRs, where PRs
// are ordered by their latest start. No row LIMIT.
Result<Json> SimQueries::backendDashboard(const nlohmann::json& p) const
{
    auto repo = stringParam(p, "repo");
    auto since = windowStart(p, m_data.config.now);
    auto perPage = uintParam(p, "per_page");
    auto offset = uintParam(p, "offset");
    if (const Error* e = firstError(repo, since, perPage, offset))
        return *e;
    std::vector<std::size_t> rows;
    std::map<std::int64_t, std::pair<EpochSeconds, int>> latest;
    for (std::size_t i : rowsOf(*repo)) {
        const SimRow& row = m_data.rows[i];
        if (!inWindow(row, *since) || row.run.prNumber.value <= 0)
            continue;
        rows.push_back(i);
        auto [it, fresh] = latest.try_emplace(row.run.prNumber.value, startedKey(row));
        it->second = std::max(it->second, startedKey(row));
    }
    const auto page = prPage(latest, *offset, *perPage);
    std::erase_if(
        rows, [&](std::size_t i) { return page.count(m_data.rows[i].run.prNumber.value) == 0; });
    sortNewestFirst(rows);
    return project(dashboardColumns(), rows);
}

// crcr_nightly_dashboard: in-window nightly rows (each row filtered on its own
// started_at) at the highest run_attempt of their (run_id, job_name),
// newest first, LIMIT 500.
Result<Json> SimQueries::nightlyDashboard(const nlohmann::json& p) const
{
    auto repo = stringParam(p, "repo");
    auto since = windowStart(p, m_data.config.now);
    if (const Error* e = firstError(repo, since))
        return *e;
    std::vector<std::size_t> nightly;
    std::map<std::pair<std::string, std::string>, int> maxAttempt;
    for (std::size_t i : rowsOf(*repo)) {
        const SimRow& row = m_data.rows[i];
        if (!isNightly(row) || !inWindow(row, *since))
            continue;
        nightly.push_back(i);
        int& best = maxAttempt[{row.run.runId, row.run.jobName}];
        best = std::max(best, row.run.runAttempt);
    }
    std::erase_if(nightly, [&](std::size_t i) {
        const CheckRun& run = m_data.rows[i].run;
        return maxAttempt.at({run.runId, run.jobName}) != run.runAttempt;
    });
    sortNewestFirst(nightly);
    nightly.resize(std::min<std::size_t>(nightly.size(), 500));
    return project(nightlyColumns(), nightly);
}

// crcr_pr_results: ORDER BY downstream_repo, started_at DESC LIMIT 100.
Result<Json> SimQueries::prResults(const nlohmann::json& p) const
{
    auto pr = uintParam(p, "pr");
    if (!pr)
        return pr.error();
    std::vector<std::size_t> rows;
    if (const auto it = m_byPr.find(static_cast<std::int64_t>(*pr)); it != m_byPr.end() && *pr > 0)
        rows = it->second;
    sortNewestFirst(rows);
    std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
        return m_data.rows[a].run.downstreamRepo < m_data.rows[b].run.downstreamRepo;
    });
    rows.resize(std::min<std::size_t>(rows.size(), 100));
    return project(prResultColumns(), rows);
}

// crcr_hud_results: the L3/L4 rows of the PRs, crcr-test excluded,
// ORDER BY pr_number, downstream_repo, job_name.
Result<Json> SimQueries::hudResults(const nlohmann::json& p) const
{
    auto prs = intArrayParam(p, "prNums");
    if (!prs)
        return prs.error();
    std::vector<std::size_t> rows;
    for (std::int64_t pr : std::set<std::int64_t>(prs->begin(), prs->end())) {
        const auto it = m_byPr.find(pr);
        if (pr <= 0 || it == m_byPr.end())
            continue;
        for (std::size_t i : it->second) {
            const CheckRun& run = m_data.rows[i].run;
            const Level level = run.trusted.level;
            if ((level == Level::L3 || level == Level::L4) && run.downstreamRepo != kProbeRepo)
                rows.push_back(i);
        }
    }
    sortNewestFirst(rows);
    std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
        const CheckRun& x = m_data.rows[a].run;
        const CheckRun& y = m_data.rows[b].run;
        return std::tie(x.prNumber, x.downstreamRepo, x.jobName)
               < std::tie(y.prNumber, y.downstreamRepo, y.jobName);
    });
    return project(hudResultColumns(), rows);
}

// crcr_summary: completed PR rows in the window, one line per repo (repos the
// allowlist does not list included), worst pass rate first.
Result<Json> SimQueries::summary(const nlohmann::json& p) const
{
    auto since = windowStart(p, m_data.config.now);
    if (!since)
        return since.error();
    std::map<std::string, Tally> repos;
    for (const SimRow& row : m_data.rows)
        if (completed(row) && row.run.prNumber.value > 0 && inWindow(row, *since))
            repos[row.run.downstreamRepo].add(row);
    return repoLines(repos, false);
}

// crcr_nightly_summary: as crcr_summary over completed nightly rows, without
// the crcr-test adjustment, plus argMax(pytorch_head_sha, started_at).
Result<Json> SimQueries::nightlySummary(const nlohmann::json& p) const
{
    auto since = windowStart(p, m_data.config.now);
    if (!since)
        return since.error();
    std::map<std::string, Tally> repos;
    for (const SimRow& row : m_data.rows) {
        if (!completed(row) || !isNightly(row) || !inWindow(row, *since))
            continue;
        Tally& t = repos[row.run.downstreamRepo];
        t.adjustProbe = false;
        t.add(row);
    }
    return repoLines(repos, true);
}

// crcr_backend_summary: one line (always, even over no rows) for the repo's
// completed PR rows in the window.
Result<Json> SimQueries::backendSummary(const nlohmann::json& p) const
{
    auto repo = stringParam(p, "repo");
    auto since = windowStart(p, m_data.config.now);
    if (const Error* e = firstError(repo, since))
        return *e;
    Tally t;
    std::set<std::int64_t> prs;
    double queueSum = 0.0;
    double execSum = 0.0;
    std::int64_t queued = 0;
    std::int64_t executed = 0;
    for (std::size_t i : rowsOf(*repo)) {
        const SimRow& row = m_data.rows[i];
        if (!completed(row) || row.run.prNumber.value <= 0 || !inWindow(row, *since))
            continue;
        t.add(row);
        prs.insert(row.run.prNumber.value);
        if (const auto& q = row.run.trusted.queueTimeSeconds) {
            queueSum += *q;
            ++queued;
        }
        if (const auto& x = row.run.trusted.executionTimeSeconds) {
            execSum += *x;
            ++executed;
        }
    }
    Json line = Json::object();
    line["successes"] = t.successes;
    line["failures"] = t.failures;
    line["timed_out"] = t.timedOut;
    line["total_jobs"] = t.total;
    line["pass_rate"] = float64(t.passRate());
    line["total_prs"] = static_cast<std::int64_t>(prs.size());
    line["avg_queue_time_s"] = nullableAverage(queueSum, queued);
    line["avg_exec_time_s"] = nullableAverage(execSum, executed);
    line["timeout_rate"] = float64(ratio(t.timedOut, t.total));
    return Json::array({line});
}

// crcr_success_rate: completed rows of one event_type per (toDate(started_at),
// repo), ORDER BY day, repo. The only answer that counts push rows.
Result<Json> SimQueries::successRate(const nlohmann::json& p) const
{
    auto since = windowStart(p, m_data.config.now);
    auto eventType = stringParam(p, "event_type");
    if (const Error* e = firstError(since, eventType))
        return *e;
    std::map<std::pair<std::string, std::string>, Tally> days;
    for (const SimRow& row : m_data.rows)
        if (completed(row) && row.eventTypeText == *eventType && inWindow(row, *since))
            days[{isoDate(startedAt(row)), row.run.downstreamRepo}].add(row);
    Json out = Json::array();
    for (const auto& [key, t] : days) {
        Json line = Json::object();
        line["day"] = key.first;
        line["repo"] = key.second;
        line["successes"] = t.successes;
        line["failures"] = t.failures;
        line["timed_out"] = t.timedOut;
        line["total"] = t.total;
        line["pass_rate"] = float64(t.passRate());
        out.push_back(std::move(line));
    }
    return out;
}

// crcr_health_last_prs: the probe repo's last {count} PRs (completed rows),
// expected x* outcomes counted as successes, ORDER BY last_run DESC.
Result<Json> SimQueries::healthLastPrs(const nlohmann::json& p) const
{
    auto count = uintParam(p, "count");
    if (!count)
        return count.error();
    std::map<std::int64_t, Tally> prs;
    std::map<std::int64_t, std::pair<EpochSeconds, int>> latest;
    for (std::size_t i : rowsOf(std::string(kProbeRepo))) {
        const SimRow& row = m_data.rows[i];
        if (!completed(row) || row.run.prNumber.value <= 0)
            continue;
        prs[row.run.prNumber.value].add(row);
        latest[row.run.prNumber.value] = prs[row.run.prNumber.value].lastRun;
    }
    const auto page = prPage(latest, 0, *count);
    std::vector<std::pair<std::pair<EpochSeconds, int>, std::int64_t>> ordered;
    for (std::int64_t pr : page)
        ordered.emplace_back(latest.at(pr), pr);
    std::sort(ordered.rbegin(), ordered.rend());
    Json out = Json::array();
    for (const auto& [when, pr] : ordered) {
        const Tally& t = prs.at(pr);
        Json line = Json::object();
        line["pr_number"] = pr;
        line["last_run"] = t.lastRunText();
        line["successes"] = t.successes;
        line["total"] = t.total;
        line["pass_rate"] = float64(t.passRate());
        out.push_back(std::move(line));
    }
    return out;
}

void SimQueries::sortNewestFirst(std::vector<std::size_t>& rows) const
{
    std::sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
        return std::make_pair(startedKey(m_data.rows[a]), a)
               > std::make_pair(startedKey(m_data.rows[b]), b);
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
