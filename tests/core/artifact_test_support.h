#pragma once
// Shared by the artifact fetch and sync tests: zips made with libarchive's
// writer, small pytest JUnit reports, and FakeGitHub, a loopback server with
// the GitHub Actions endpoints artifact fetching uses (listing with Link
// pagination and ETags, artifact zips and job logs behind a 302 to a signed
// blob URL on the same host, 401/410, rate-limit headers), scripted per test.
#include "loopback_servers.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace relayhud::test {

using Files = std::vector<std::pair<std::string, std::string>>;

// A zip (or, with gzipTar, a .tar.gz) of the files as given: the writer
// stores hostile names too, so tests can build zip-slip archives.
inline std::string archiveOf(const Files& files, bool gzipTar = false)
{
    std::string bytes;
    archive* writer = archive_write_new();
    if (gzipTar) {
        archive_write_set_format_pax_restricted(writer);
        archive_write_add_filter_gzip(writer);
    } else {
        archive_write_set_format_zip(writer);
    }
    archive_write_set_bytes_in_last_block(writer, 1);
    archive_write_open(
        writer, &bytes, nullptr,
        [](archive*, void* out, const void* data, size_t size) -> la_ssize_t {
            static_cast<std::string*>(out)->append(static_cast<const char*>(data), size);
            return static_cast<la_ssize_t>(size);
        },
        nullptr);
    for (const auto& [path, content] : files) {
        archive_entry* entry = archive_entry_new();
        archive_entry_set_pathname(entry, path.c_str());
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_perm(entry, 0644);
        archive_entry_set_size(entry, static_cast<la_int64_t>(content.size()));
        EXPECT_EQ(archive_write_header(writer, entry), ARCHIVE_OK);
        archive_write_data(writer, content.data(), content.size());
        archive_entry_free(entry);
    }
    EXPECT_EQ(archive_write_close(writer), ARCHIVE_OK);
    archive_write_free(writer);
    return bytes;
}

// A pytest report: `passed` passing cases, then `failed` failing ones.
inline std::string junitXml(int passed, int failed, const std::string& file = "test_ops.py")
{
    std::string cases;
    const std::string cls = file.substr(0, file.find('.')) + ".TestCommonPRIVATEUSE1";
    for (int i = 0; i < passed + failed; ++i) {
        cases += "<testcase classname=\"" + cls + "\" name=\"test_case_" + std::to_string(i)
                 + "\" file=\"" + file + "\" time=\"0.01\">";
        if (i >= passed)
            cases += "<failure message=\"AssertionError: boom\">Traceback</failure>";
        cases += "</testcase>";
    }
    return "<?xml version=\"1.0\"?><testsuites><testsuite name=\"pytest\" tests=\""
           + std::to_string(passed + failed) + "\" failures=\"" + std::to_string(failed)
           + "\" errors=\"0\" skipped=\"0\">" + cases + "</testsuite></testsuites>";
}

inline std::string quotedHash(const std::string& text)
{
    return "\"" + std::to_string(std::hash<std::string>{}(text)) + "\"";
}

class FakeGitHub {
public:
    struct Artifact {
        Artifact(std::int64_t id_, std::string name_, std::string zip_, bool expired_ = false,
                 std::string runId_ = {}, std::string expiresAt_ = {},
                 std::int64_t listedSize_ = -1)
            : id(id_), name(std::move(name_)), zip(std::move(zip_)), expired(expired_),
              runId(std::move(runId_)), expiresAt(std::move(expiresAt_)), listedSize(listedSize_)
        {
        }
        std::int64_t id = 0;
        std::string name;
        std::string zip;
        bool expired = false;
        std::string runId;            // "" : listed for every run; else only for this one
        std::string expiresAt;        // "expires_at", when set
        std::int64_t listedSize = -1; // "size_in_bytes" when not the zip's (a wheel's)
    };
    // A run of "List workflow runs for a repository".
    struct Run {
        std::int64_t id = 0;
        std::string name;
        std::string event;
        std::string createdAt = "2026-12-01T04:00:00Z";
    };
    struct Seen {
        std::string path;
        std::string authorization;
        std::string ifNoneMatch;
        std::string range;
    };

    static constexpr const char* kToken = "ghs_fakeGitHubToken1234567890abcdef";

    std::vector<Artifact> artifacts;         // of every run
    std::map<std::string, std::string> logs; // job id -> text
    std::vector<Run> runs;                   // of the repository
    int perPage = 100;
    std::int64_t rateRemaining = 4999;
    std::int64_t rateReset = 0;               // 0: an hour from now
    int expiredSignatures = 0;                // blob answers that say the signature expired
    int secondaryLimits = 0;                  // listing answers that are a secondary rate limit
    std::string foreignNextLink;              // a Link rel="next" to another host, when set
    std::string echoInError;                  // listing answers 500 with this body, when set
    std::vector<std::int64_t> goneOnDownload; // listed as live, but the zip answers 410

    FakeGitHub()
    {
        auto& http = m_server.http();
        http.Get(
            R"(/api/v3/repos/([^/]+)/([^/]+)/actions/runs/(\d+)/artifacts)",
            [this](const httplib::Request& req, httplib::Response& res) { listing(req, res); });
        http.Get(
            R"(/api/v3/repos/([^/]+)/([^/]+)/actions/runs)",
            [this](const httplib::Request& req, httplib::Response& res) { runListing(req, res); });
        http.Get(R"(/api/v3/repos/([^/]+)/([^/]+)/actions/artifacts/(\d+)/zip)",
                 [this](const httplib::Request& req, httplib::Response& res) { zip(req, res); });
        http.Get(R"(/api/v3/repos/([^/]+)/([^/]+)/actions/jobs/(\d+)/logs)",
                 [this](const httplib::Request& req, httplib::Response& res) { log(req, res); });
        http.Get(R"(/blob/(.+))",
                 [this](const httplib::Request& req, httplib::Response& res) { blob(req, res); });
        m_server.start();
    }

    std::string apiUrl() const { return m_server.url("/api/v3"); }
    std::string url(const std::string& path) const { return m_server.url(path); }

    std::vector<Seen> seen() const
    {
        const std::lock_guard lock(m_mutex);
        return m_seen;
    }
    int requestsTo(const std::string& fragment) const
    {
        int n = 0;
        for (const auto& s : seen())
            n += s.path.find(fragment) != std::string::npos ? 1 : 0;
        return n;
    }

private:
    void record(const httplib::Request& req)
    {
        const std::lock_guard lock(m_mutex);
        m_seen.push_back({req.path, req.get_header_value("Authorization"),
                          req.get_header_value("If-None-Match"), req.get_header_value("Range")});
    }

    void rateHeaders(httplib::Response& res) const
    {
        const auto reset = rateReset ? rateReset : nowSeconds() + 3600;
        res.set_header("X-RateLimit-Limit", "5000");
        res.set_header("X-RateLimit-Remaining", std::to_string(rateRemaining));
        res.set_header("X-RateLimit-Reset", std::to_string(reset));
        res.set_header("X-RateLimit-Resource", "core");
    }

    bool authorized(const httplib::Request& req, httplib::Response& res)
    {
        const std::string auth = req.get_header_value("Authorization");
        if (auth == std::string("Bearer ") + kToken)
            return true;
        res.status = 401;
        res.set_content(auth.empty() ? R"({"message":"Requires authentication"})"
                                     : R"({"message":"Bad credentials"})",
                        "application/json");
        return false;
    }

    void listing(const httplib::Request& req, httplib::Response& res)
    {
        record(req);
        rateHeaders(res);
        if (!echoInError.empty()) {
            res.status = 500;
            res.set_content(echoInError + req.get_header_value("Authorization"), "text/plain");
            return;
        }
        if (secondaryLimits > 0) {
            --secondaryLimits;
            res.status = 403;
            res.set_header("Retry-After", "1");
            res.set_content(R"({"message":"You have exceeded a secondary rate limit."})",
                            "application/json");
            return;
        }
        const int page = req.has_param("page") ? std::stoi(req.get_param_value("page")) : 1;
        std::string items;
        const auto size = static_cast<std::size_t>(perPage);
        const auto first = static_cast<std::size_t>(page - 1) * size;
        const std::string runId = req.matches[3];
        std::vector<const Artifact*> listed;
        for (const auto& a : artifacts)
            if (a.runId.empty() || a.runId == runId)
                listed.push_back(&a);
        for (std::size_t i = first; i < listed.size() && i < first + size; ++i) {
            const auto& a = *listed[i];
            const auto bytes =
                a.listedSize >= 0 ? a.listedSize : static_cast<std::int64_t>(a.zip.size());
            items += std::string(items.empty() ? "" : ",") + "{\"id\":" + std::to_string(a.id)
                     + ",\"name\":\"" + a.name + "\",\"size_in_bytes\":" + std::to_string(bytes)
                     + ",\"expired\":" + (a.expired ? "true" : "false")
                     + (a.expiresAt.empty() ? "" : ",\"expires_at\":\"" + a.expiresAt + "\"") + "}";
        }
        const std::string body =
            "{\"total_count\":" + std::to_string(listed.size()) + ",\"artifacts\":[" + items + "]}";
        if (first + size < listed.size() || !foreignNextLink.empty()) {
            const std::string next = foreignNextLink.empty()
                                         ? m_server.url(req.path)
                                               + "?per_page=" + std::to_string(perPage)
                                               + "&page=" + std::to_string(page + 1)
                                         : foreignNextLink;
            res.set_header("Link", "<" + next + ">; rel=\"next\"");
        }
        res.set_header("ETag", quotedHash(body));
        if (req.get_header_value("If-None-Match") == quotedHash(body)) {
            res.status = 304;
            return;
        }
        res.set_content(body, "application/json");
    }

    // ?event= filters; created and paging are taken as given (one page).
    void runListing(const httplib::Request& req, httplib::Response& res)
    {
        record(req);
        rateHeaders(res);
        const std::string event = req.get_param_value("event");
        std::string items;
        std::size_t count = 0;
        for (const Run& run : runs) {
            if (!event.empty() && run.event != event)
                continue;
            ++count;
            items += std::string(items.empty() ? "" : ",") + "{\"id\":" + std::to_string(run.id)
                     + ",\"name\":\"" + run.name + "\",\"event\":\"" + run.event
                     + "\",\"created_at\":\"" + run.createdAt
                     + "\",\"html_url\":\"https://github.com/o/r/actions/runs/"
                     + std::to_string(run.id) + "\"}";
        }
        res.set_content("{\"total_count\":" + std::to_string(count) + ",\"workflow_runs\":[" + items
                            + "]}",
                        "application/json");
    }

    const Artifact* find(std::int64_t id) const
    {
        for (const auto& a : artifacts)
            if (a.id == id)
                return &a;
        return nullptr;
    }

    void zip(const httplib::Request& req, httplib::Response& res)
    {
        record(req);
        rateHeaders(res);
        if (!authorized(req, res))
            return;
        const auto id = std::stoll(req.matches[3]);
        const Artifact* artifact = find(id);
        const bool gone =
            std::find(goneOnDownload.begin(), goneOnDownload.end(), id) != goneOnDownload.end();
        if (!artifact || artifact->expired || gone) {
            res.status = artifact ? 410 : 404;
            res.set_content(artifact ? R"({"message":"Artifact has expired"})"
                                     : R"({"message":"Not Found"})",
                            "application/json");
            return;
        }
        res.status = 302;
        res.set_header("Location", m_server.url("/blob/artifacts/" + std::to_string(artifact->id)
                                                + ".zip?X-Amz-Expires=60&X-Amz-Signature=f00d"));
    }

    void log(const httplib::Request& req, httplib::Response& res)
    {
        record(req);
        rateHeaders(res);
        if (!authorized(req, res))
            return;
        const std::string job = req.matches[3];
        if (!logs.contains(job)) {
            res.status = 404;
            res.set_content(R"({"message":"Not Found"})", "application/json");
            return;
        }
        res.status = 302;
        res.set_header("Location", "/blob/logs/" + job + ".txt?X-Amz-Signature=beef");
    }

    void blob(const httplib::Request& req, httplib::Response& res)
    {
        record(req);
        if (expiredSignatures > 0) {
            --expiredSignatures;
            res.status = 403;
            res.set_content("<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code>"
                            "<Message>Request has expired</Message></Error>",
                            "application/xml");
            return;
        }
        const std::string path = req.matches[1];
        if (path.starts_with("logs/")) {
            res.set_content(logs[path.substr(5, path.size() - 9)], "text/plain");
            return;
        }
        const Artifact* artifact = find(std::stoll(path.substr(10)));
        if (!artifact) {
            res.status = 404;
            return;
        }
        res.set_header("ETag", quotedHash(artifact->zip));
        res.set_content(artifact->zip, "application/zip");
    }

    ScriptedServer m_server;
    mutable std::mutex m_mutex;
    std::vector<Seen> m_seen;
};

} // namespace relayhud::test
