#pragma once
// A scripted PyTorch HUD on loopback for the sync tests: the saved queries'
// real column lists (test-infra @61a77570 torchci/clickhouse_queries/
// crcr_backend_dashboard/query.sql:1-22) and the real host's failures
// (plain-text 500 above the size cap, the allowlist's 502 or STALE, pr-info's
// whole-batch 500), switched on per test.
#include "raw_http_server.h"
#include "relayhud/hud/hud_client.h"
#include "relayhud/hud/hud_summaries.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <set>
#include <string>
#include <vector>

namespace relayhud::test {

using nlohmann::json;

inline std::string percentDecode(const std::string& text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size()) {
            out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

inline std::string queryValue(const std::string& target, const std::string& key)
{
    const auto q = target.find('?');
    if (q == std::string::npos)
        return {};
    std::string rest = target.substr(q + 1);
    std::size_t start = 0;
    while (start <= rest.size()) {
        const auto end = std::min(rest.find('&', start), rest.size());
        const std::string pair = rest.substr(start, end - start);
        if (pair.rfind(key + "=", 0) == 0)
            return percentDecode(pair.substr(key.size() + 1));
        start = end + 1;
    }
    return {};
}

inline std::string sha40(int n)
{
    char buf[41];
    std::snprintf(buf, sizeof buf, "%040x", n);
    return buf;
}

// One crcr_backend_dashboard row: exactly the query's 21 columns, in order.
inline json dashboardRow(std::int64_t pr, const std::string& sha, const std::string& job,
                         const std::string& checkRunId, const std::string& runId, int attempt,
                         const std::string& conclusion, const std::string& started)
{
    json row = json::object();
    row["upstream_repo"] = "pytorch/pytorch";
    row["pr_number"] = pr;
    row["pytorch_head_sha"] = sha;
    row["workflow_name"] = "ci";
    row["job_name"] = job;
    row["check_run_id"] = checkRunId;
    row["run_id"] = runId;
    row["run_attempt"] = attempt;
    row["status"] = "completed";
    row["conclusion"] = conclusion;
    row["started_at"] = started;
    row["completed_at"] = "2026-12-01T11:00:00.123456000Z";
    row["duration_seconds"] = 600;
    row["total_tests"] = 10;
    row["passed_tests"] = 10;
    row["failed_tests"] = 0;
    row["skipped_tests"] = 0;
    row["workflow_run_url"] = "https://github.com/acme/spyre/actions/runs/" + runId;
    row["artifact_url"] = "";
    row["queue_time"] = 12.5;
    row["execution_time"] = 600.25;
    return row;
}

// A scripted HUD: `prs` PRs of acme/spyre with `rowsPerPr` rows each; the
// host's 500 above `capBytes`; faults switched on by the test.
class ScriptedHud {
public:
    int prs = 60;
    int rowsPerPr = 3;
    std::size_t capBytes = kHudResponseCapBytes;
    std::atomic<int> allowlistAnswers{0};
    int allowlistFailAfter = -1; // -1: never; else 502 after this many answers
    bool allowlistStale = false;
    std::set<std::int64_t> prInfoFail;
    json extraAllowlist = json::array();
    json summaryRows = json::array();
    json healthRows = json::array();
    json probeNightlyRows = json::array();
    json hudResultsRows = json::array();
    std::vector<json> extraRows; // appended to the dashboard's rows (any PR)
    int newPrAfterPages = -1;    // a PR gets its first run after this many dashboard pages
    std::atomic<int> dashboardPages{0};
    std::vector<json> nightlyRows;

    std::string answer(const RawRequest& r)
    {
        const std::string path = r.target.substr(0, r.target.find('?'));
        if (path == "/api/crcr/allowlist")
            return allowlist();
        if (path == "/api/crcr/pr-info")
            return prInfo(queryValue(r.target, "prs"));
        if (path == "/api/crcr/commit-info")
            return commitInfo(queryValue(r.target, "shas"));
        const std::string prefix = "/api/clickhouse/";
        if (path.rfind(prefix, 0) == 0)
            return query(path.substr(prefix.size()), queryValue(r.target, "parameters"));
        return rawResponse(404, "Not Found", {{"Content-Type", "text/html"}},
                           "<html><title>404: This page could not be found</title></html>");
    }

private:
    static std::string ok(const json& body, std::vector<std::pair<std::string, std::string>> h = {})
    {
        h.emplace_back("Content-Type", "application/json; charset=utf-8");
        return rawResponse(200, "OK", h, body.dump());
    }
    // Next.js's answer to anything a saved query throws (hud-read-api.md §0).
    static std::string internalError()
    {
        return rawResponse(500, "Internal Server Error", {{"Content-Type", "text/plain"}},
                           "Internal Server Error");
    }

    std::string allowlist()
    {
        const int n = allowlistAnswers++;
        json doc{{"L1", json::array()},
                 {"L2", json::array({{{"repo", "acme/spyre"}, {"oncalls", {"alice"}}}})},
                 {"L3", json::array()},
                 {"L4", json::array()}};
        for (const auto& e : extraAllowlist)
            doc[e["level"].get<std::string>()].push_back(
                {{"repo", e["repo"]}, {"oncalls", json::array()}});
        if (allowlistFailAfter >= 0 && n >= allowlistFailAfter) {
            if (allowlistStale)
                return ok(doc, {{"X-Cache", "STALE"}});
            return rawResponse(502, "Bad Gateway", {{"Content-Type", "application/json"}},
                               R"({"error":"Failed to fetch allowlist from GitHub: 503"})");
        }
        return ok(doc, {{"X-Cache", "MISS"}});
    }

    std::string prInfo(const std::string& list)
    {
        json out = json::array();
        std::size_t start = 0;
        while (start < list.size()) {
            const auto end = std::min(list.find(',', start), list.size());
            const std::int64_t pr = std::stoll(list.substr(start, end - start));
            if (prInfoFail.count(pr)) // one GraphQL query for the batch (pr-info.ts:45-77)
                return rawResponse(500, "Internal Server Error",
                                   {{"Content-Type", "application/json"}},
                                   R"({"error":"Failed to fetch PR info"})");
            out.push_back(
                {{"prNumber", pr}, {"title", "PR " + std::to_string(pr)}, {"author", "dev"}});
            start = end + 1;
        }
        return ok(out);
    }

    std::string commitInfo(const std::string& list)
    {
        json out = json::array();
        std::size_t start = 0;
        while (start < list.size()) {
            const auto end = std::min(list.find(',', start), list.size());
            const std::string sha = list.substr(start, end - start);
            if (sha.size() != 40) // a malformed oid fails the one GraphQL query
                return rawResponse(500, "Internal Server Error",
                                   {{"Content-Type", "application/json"}},
                                   R"({"error":"Failed to fetch commit info"})");
            out.push_back({{"sha", sha},
                           {"title", "[inductor] Fuse the epilogue (#158123)"},
                           {"author", "pytorchbot"}});
            start = end + 1;
        }
        return ok(out);
    }

    std::string query(const std::string& name, const std::string& parameters)
    {
        const json p = json::parse(parameters, nullptr, false);
        if (p.is_discarded())
            return internalError();
        json rows = json::array();
        if (name == "crcr_backend_dashboard") {
            if (dashboardPages++ == newPrAfterPages)
                ++prs; // the newest PR sorts first: every later page shifts by one
            const int perPage = p.at("per_page").get<int>(), offset = p.at("offset").get<int>();
            for (int pr = prs - offset; pr > std::max(0, prs - offset - perPage); --pr)
                for (int k = 0; k < rowsPerPr; ++k)
                    rows.push_back(dashboardRow(100000 + pr, sha40(pr), "job " + std::to_string(k),
                                                std::to_string(pr * 100 + k),
                                                std::to_string(pr * 1000), 1, "success",
                                                "2026-12-01T10:00:00.654321000Z"));
            if (offset == 0)
                for (const auto& row : extraRows)
                    rows.push_back(row);
        } else if (name == "crcr_nightly_dashboard") {
            rows = p.at("repo") == kProbeRepo ? probeNightlyRows : json(nightlyRows);
        } else if (name == "crcr_summary") {
            rows = summaryRows;
        } else if (name == "crcr_backend_summary") {
            rows = json::array({{{"successes", 1},
                                 {"failures", 0},
                                 {"timed_out", 0},
                                 {"total_jobs", 1},
                                 {"pass_rate", 1},
                                 {"total_prs", 1},
                                 {"avg_queue_time_s", 12.5},
                                 {"avg_exec_time_s", 600.25},
                                 {"timeout_rate", 0}}});
        } else if (name == "crcr_success_rate") {
            rows = json::array({{{"day", "2026-12-01"},
                                 {"repo", "acme/spyre"},
                                 {"successes", p.at("event_type") == "push" ? 4 : 1},
                                 {"failures", 0},
                                 {"timed_out", 0},
                                 {"total", p.at("event_type") == "push" ? 4 : 1}}});
        } else if (name == "crcr_nightly_summary") {
            rows = json::array();
        } else if (name == "crcr_health_last_prs") {
            rows = healthRows;
        } else if (name == "crcr_hud_results") {
            rows = hudResultsRows;
        } else {
            return internalError(); // readFileSync of an unknown query throws
        }
        const std::string body = rows.dump();
        if (body.size() > capBytes) // Vercel: FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE
            return internalError();
        return rawResponse(200, "OK", {{"Content-Type", "application/json; charset=utf-8"}}, body);
    }
};

} // namespace relayhud::test
