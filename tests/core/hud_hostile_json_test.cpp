// JSON from the HUD that nests without end or grows without bound (issue 35),
// met as a user meets it: a sync over real HTTP on loopback against a
// scripted HUD that turns hostile after one good sync. A 100,000-deep answer
// (200 kB) once crashed the sync (SIGSEGV) in the allowlist, a dashboard row
// or an error body alike; now each is one clear error and the cache keeps
// what the good sync stored.
#include "relayhud/store/run_store.h"
#include "relayhud/sync/hud_sync.h"
#include "relayhud/util/json_guard.h"
#include "scripted_hud.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>

using namespace relayhud;
using namespace relayhud::test;

namespace {

std::string nested(std::size_t depth, const std::string& inner = "")
{
    return std::string(depth, '[') + inner + std::string(depth, ']');
}

constexpr std::size_t kHostileDepth = 100'000;

class HudHostileJsonTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_server = std::make_unique<RawHttpServer>([this](const RawRequest& r) {
            const std::string path = r.target.substr(0, r.target.find('?'));
            if (m_hostile)
                if (auto answer = m_hostile(path))
                    return *answer;
            return m_hud.answer(r);
        });
        auto cache = relayhud::testing::openTestCache(":memory:");
        ASSERT_TRUE(cache) << cache.message();
        m_cache = std::move(cache.value());
        HttpOptions options;
        options.retry.baseDelay = std::chrono::milliseconds(5);
        options.retry.maxDelay = std::chrono::milliseconds(20);
        m_http = std::make_unique<HttpClient>(options);
        m_client = std::make_unique<HudClient>(*m_http, m_server->url(""));
        m_hud.prs = 5;
        auto first = sync();
        ASSERT_TRUE(first) << first.message();
        m_before = *RunStore(*m_cache).stats();
        ASSERT_GT(m_before.checkRuns, 0);
    }

    Result<SyncReport> sync()
    {
        HudSync sync(*m_client, *m_cache);
        SyncOptions options;
        options.days = 30;
        return sync.run(options);
    }

    // What the sync said went wrong: its error, or its errors and workarounds.
    std::string failureText()
    {
        auto report = sync();
        if (!report)
            return report.message();
        std::string all;
        for (const auto* lines : {&report->errors, &report->workarounds})
            for (const auto& line : *lines)
                all += line + "\n";
        return all;
    }

    void expectCacheUnchanged()
    {
        const auto after = *RunStore(*m_cache).stats();
        EXPECT_EQ(after.backends, m_before.backends);
        EXPECT_EQ(after.commits, m_before.commits);
        EXPECT_EQ(after.checkRuns, m_before.checkRuns);
    }

    static std::string json200(const std::string& body)
    {
        return rawResponse(200, "OK", {{"Content-Type", "application/json"}}, body);
    }

    ScriptedHud m_hud;
    std::function<std::optional<std::string>(const std::string& path)> m_hostile;
    std::unique_ptr<RawHttpServer> m_server;
    relayhud::testing::TestCache m_cache;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<HudClient> m_client;
    CacheStats m_before;
};

} // namespace

TEST_F(HudHostileJsonTest, ADeepAllowlistIsRefusedAndTheCacheKept)
{
    m_hostile = [](const std::string& path) -> std::optional<std::string> {
        if (path == "/api/crcr/allowlist")
            return json200("{\"L1\":" + nested(kHostileDepth) + "}");
        return std::nullopt;
    };
    const std::string said = failureText();
    EXPECT_NE(said.find("JSON nested deeper than 256 levels"), std::string::npos) << said;
    EXPECT_NE(said.find("/api/crcr/allowlist"), std::string::npos) << said;
    expectCacheUnchanged();
}

TEST_F(HudHostileJsonTest, ADeepDashboardRowIsRefusedAndTheCacheKept)
{
    m_hostile = [](const std::string& path) -> std::optional<std::string> {
        if (path.find("crcr_backend_dashboard") != std::string::npos)
            return json200("[{\"pr_number\": 100000, \"job_name\": " + nested(kHostileDepth)
                           + "}]");
        return std::nullopt;
    };
    const std::string said = failureText();
    EXPECT_NE(said.find("JSON nested deeper than 256 levels"), std::string::npos) << said;
    EXPECT_NE(said.find("crcr_backend_dashboard"), std::string::npos) << said;
    expectCacheUnchanged();
}

TEST_F(HudHostileJsonTest, ADeepErrorBodyGivesTheStatusAndNoCrash)
{
    m_hostile = [](const std::string& path) -> std::optional<std::string> {
        if (path == "/api/crcr/allowlist")
            return rawResponse(502, "Bad Gateway", {{"Content-Type", "application/json"}},
                               "{\"error\":" + nested(kHostileDepth) + "}");
        return std::nullopt;
    };
    // The allowlist cached by the good sync stands in; the sync goes on.
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    std::string said;
    for (const auto& w : report->workarounds)
        said += w + "\n";
    EXPECT_NE(said.find("the HUD answered 502"), std::string::npos) << said;
    EXPECT_LT(said.size(), 1000u) << "the body's head at most";
    expectCacheUnchanged();
}

// The real HUD caps an answer at 4.5 MB (hud-read-api.md R1); one that says
// it is larger than five times that is refused by its Content-Length, before
// its body is read (a 264 MB array once took 6.5 GB).
TEST_F(HudHostileJsonTest, AnAnswerOverTheSizeLimitIsRefusedBeforeItsBody)
{
    m_hostile = [](const std::string& path) -> std::optional<std::string> {
        if (path.find("crcr_backend_dashboard") == std::string::npos)
            return std::nullopt;
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
               + std::to_string(264'000'000) + "\r\nConnection: close\r\n\r\n[0,0,0,";
    };
    const std::string said = failureText();
    EXPECT_NE(said.find("is larger than the limit of 24 MiB"), std::string::npos) << said;
    expectCacheUnchanged();
}

TEST(JsonGuard, CountsDepthPastStringsAndEscapes)
{
    EXPECT_EQ(jsonNestingDepth("{\"a\": [1, {\"b\": []}]}"), 4u);
    EXPECT_EQ(jsonNestingDepth("[\"[[[[\", \"\\\"[[[\"]"), 1u);
    EXPECT_EQ(jsonNestingDepth("\"\\\\\" [[]]"), 2u) << "an escaped backslash ends no string";
    EXPECT_EQ(jsonNestingDepth(nested(1000), 10), 11u) << "stops counting past the limit";
    EXPECT_TRUE(checkJsonBounds(nested(256)));
    EXPECT_FALSE(checkJsonBounds(nested(257)));
    auto big = checkJsonBounds(std::string(2u << 20, ' '), {kMaxJsonDepth, 1u << 20});
    ASSERT_FALSE(big);
    EXPECT_EQ(big.message(), "JSON of 2 MiB is over the limit of 1 MiB");
    EXPECT_TRUE(parseJsonOrDiscarded(nested(kHostileDepth)).is_discarded());
    auto invalid = parseBoundedJson("[1,");
    ASSERT_FALSE(invalid);
    EXPECT_NE(invalid.message().find("invalid JSON"), std::string::npos);
    EXPECT_EQ(parseBoundedJson("[[1]]")->at(0).at(0), 1);
}
