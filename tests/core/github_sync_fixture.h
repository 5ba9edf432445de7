#pragma once
// The fixture of the sync tests that talk to FakeGitHub: a scratch cache and
// content cache, a fast-retrying HTTP client, and a fetcher holding a token.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/net/http_client.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"

#include "artifact_test_support.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

namespace relayhud::test {

class GitHubSyncTest : public ::testing::Test {
protected:
    explicit GitHubSyncTest(std::string scratchTag) : m_scratchTag(std::move(scratchTag)) {}

    static void SetUpTestSuite()
    {
        std::signal(SIGPIPE, SIG_IGN);
        ::setenv("no_proxy", "127.0.0.1,localhost", 1);
        ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    }
    void SetUp() override
    {
        m_scratch.emplace(m_scratchTag);
        m_cache = relayhud::testing::openCacheOk(m_scratch->file("cache.sqlite"));
        auto blobs = ContentCache::open(m_scratch->file("blobs"));
        ASSERT_TRUE(blobs) << blobs.message();
        m_blobs.emplace(std::move(*blobs));
        m_settings.githubApiUrl = m_github.apiUrl();
        useToken(FakeGitHub::kToken);
    }
    void useToken(const std::string& token)
    {
        Credentials credentials;
        credentials.githubToken = token;
        m_fetcher.emplace(m_http, *m_blobs, m_settings, credentials);
    }
    static HttpOptions fastOptions()
    {
        using namespace std::chrono_literals;
        HttpOptions options;
        options.retry.maxAttempts = 2;
        options.retry.baseDelay = 5ms;
        options.retry.maxDelay = 10ms;
        return options;
    }

    FakeGitHub m_github; // outlives the client's kept-alive connections
    std::string m_scratchTag;
    std::optional<relayhud::testing::ScratchDir> m_scratch;
    relayhud::testing::TestCache m_cache;
    std::optional<ContentCache> m_blobs;
    HttpClient m_http{fastOptions()};
    ArtifactSettings m_settings;
    std::optional<ArtifactFetcher> m_fetcher;
};

} // namespace relayhud::test
