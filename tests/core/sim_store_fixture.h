#pragma once
// The fixture of the simulator's artifact-store tests: one SimServer over a
// fixed dataset for a whole suite, HTTP helpers, and the generator's ground
// truth (SimArtifacts) to compare what is served with.
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"
#include "sim_http_support.h"
#include "test_world.h"

#include "relayhud/sim/httplib_quiet.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>

namespace relayhud::sim {
namespace {

using json = nlohmann::ordered_json;

using relayhud::test::kAscend;
using relayhud::test::kNow;
using relayhud::test::kSpyre;
const std::string kEmptySha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

using Entries = std::map<std::string, std::string>;

// Reads a zip or tar.gz from memory with libarchive.
inline Entries unpack(const std::string& bytes)
{
    Entries out;
    archive* a = archive_read_new();
    archive_read_support_format_all(a);
    archive_read_support_filter_all(a);
    EXPECT_EQ(archive_read_open_memory(a, bytes.data(), bytes.size()), ARCHIVE_OK);
    archive_entry* entry = nullptr;
    while (archive_read_next_header(a, &entry) == ARCHIVE_OK) {
        std::string content(static_cast<std::size_t>(archive_entry_size(entry)), '\0');
        archive_read_data(a, content.data(), content.size());
        out[archive_entry_pathname(entry)] = content;
    }
    archive_read_free(a);
    return out;
}

inline std::string gunzip(const std::string& bytes)
{
    archive* a = archive_read_new();
    archive_read_support_format_raw(a);
    archive_read_support_filter_gzip(a);
    archive_read_open_memory(a, bytes.data(), bytes.size());
    archive_entry* entry = nullptr;
    std::string out;
    if (archive_read_next_header(a, &entry) == ARCHIVE_OK) {
        char buf[65536];
        la_ssize_t n = 0;
        while ((n = archive_read_data(a, buf, sizeof buf)) > 0)
            out.append(buf, static_cast<std::size_t>(n));
    }
    archive_read_free(a);
    return out;
}

inline std::string xmlValue(const std::string& xml, const std::string& tag)
{
    std::smatch m;
    return std::regex_search(xml, m, std::regex("<" + tag + ">([^<]*)</" + tag + ">")) ? m[1].str()
                                                                                       : "";
}

class SimArtifactsTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_server = new SimServer(makeDataset());
        ASSERT_GT(s_server->start(0), 0);
        s_truth = new SimArtifacts(s_server->dataset());
    }
    static void TearDownTestSuite()
    {
        delete s_truth;
        delete s_server;
    }
    void TearDown() override { s_server->setFaults({}); }

    static const SimDataset& data() { return s_server->dataset(); }

    static httplib::Result get(const std::string& path, httplib::Headers headers = {})
    {
        httplib::Client cli(s_server->baseUrl());
        cli.set_read_timeout(30, 0);
        return cli.Get(path.c_str(), headers);
    }

    static httplib::Headers bearer()
    {
        return {{"Authorization", "Bearer " + s_server->githubToken()}};
    }

    static std::string api(const std::string& repo, const std::string& rest)
    {
        return "/api/v3/repos/" + repo + "/actions/" + rest;
    }

    static json getJson(const std::string& path, httplib::Headers headers = {})
    {
        auto res = get(path, std::move(headers));
        EXPECT_TRUE(res) << path;
        if (!res)
            return json();
        EXPECT_EQ(res->status, 200) << path << ": " << res->body;
        EXPECT_EQ(res->get_header_value("Content-Type"), "application/json; charset=utf-8");
        return json::parse(res->body, nullptr, false);
    }

    // The first row matching `pred`.
    template <class Pred>
    static const SimRow* find(Pred pred)
    {
        for (const SimRow& row : data().rows)
            if (pred(row))
                return &row;
        return nullptr;
    }

    static const SimRow* uploaded(const std::string& repo, bool expired)
    {
        return find([&](const SimRow& r) {
            const bool old = *r.run.reported.completedAt + 7 * 86400 <= kNow;
            return r.run.downstreamRepo == repo && !r.run.reported.artifactUrl.empty()
                   && old == expired;
        });
    }

    // Follows the API's 302 to the signed URL (path and query only).
    static std::string location(const httplib::Result& res)
    {
        const std::string url = res->get_header_value("Location");
        EXPECT_EQ(url.rfind(s_server->baseUrl(), 0), 0U) << url;
        return url.substr(s_server->baseUrl().size());
    }

    static std::int64_t artifactIdOf(const SimRow& row)
    {
        const json list = getJson(
            api(row.run.downstreamRepo, "runs/" + row.run.runId + "/artifacts?per_page=100"));
        for (const auto& a : list["artifacts"])
            if (a["name"].get<std::string>().find("_" + row.run.checkRunId.value)
                != std::string::npos)
                return a["id"].get<std::int64_t>();
        return 0;
    }

    static inline SimServer* s_server = nullptr;
    static inline SimArtifacts* s_truth = nullptr;
};

} // namespace
} // namespace relayhud::sim
