// HttpClient over real HTTP on loopback: an httplib server scripted per test,
// and a bare TCP server for replies httplib will not produce.
#include "relayhud/net/http_client.h"
#include "relayhud/util/time.h"

#include "loopback_servers.h"

#include <zlib.h>

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <ctime>
#include <mutex>
#include <thread>

namespace {

using namespace std::chrono_literals;
using relayhud::HttpClient;
using relayhud::HttpOptions;
using relayhud::HttpRequest;
using relayhud::nowSeconds;
using relayhud::RetryPolicy;
using relayhud::test::RawServer;
using relayhud::test::ScriptedServer;
using relayhud::test::unusedPort;
using Clock = std::chrono::steady_clock;

// Short delays keep the suite fast; the policy's shape is what is tested.
HttpOptions fastOptions()
{
    HttpOptions options;
    options.retry.maxAttempts = 3;
    options.retry.baseDelay = 10ms;
    options.retry.maxDelay = 40ms;
    options.connectTimeout = 2000ms;
    options.totalTimeout = 5000ms;
    return options;
}

std::chrono::milliseconds since(Clock::time_point start)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

std::string gzip(const std::string& text)
{
    z_stream stream{};
    EXPECT_EQ(deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
              Z_OK); // windowBits + 16: gzip framing rather than zlib's
    std::string out(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
    // zlib never writes through next_in; httplib.h included zlib.h without
    // ZLIB_CONST, so the field is not const.
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

std::string httpDate(std::time_t when)
{
    std::tm parts{};
    gmtime_r(&when, &parts);
    char text[64];
    std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &parts);
    return text;
}

class HttpClientTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        // httplib writes to sockets the client may have closed (time-out and
        // cancellation tests); that must not kill the test process.
        std::signal(SIGPIPE, SIG_IGN);
        // A proxy from the environment must not swallow loopback requests.
        ::setenv("no_proxy", "127.0.0.1,localhost", 1);
        ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    }

    ScriptedServer m_server;
};

// ---- Retry timing ----------------------------------------------------------

TEST(HttpRetryTiming, BackoffStaysUnderADoublingCapWithFullJitter)
{
    RetryPolicy policy;
    policy.baseDelay = 100ms;
    policy.maxDelay = 1000ms;
    for (int retry = 1; retry <= 6; ++retry) {
        const auto cap = std::min(100ms * (1 << (retry - 1)), 1000ms);
        auto lowest = cap, highest = 0ms;
        for (std::uint64_t seed = 0; seed < 400; ++seed) {
            const auto delay = HttpClient::backoffDelay(policy, retry, seed);
            lowest = std::min(lowest, delay);
            highest = std::max(highest, delay);
        }
        EXPECT_GE(lowest, 0ms);
        EXPECT_LE(highest, cap) << "retry " << retry;
        // Full jitter spreads over the whole range, not just near the cap.
        EXPECT_LT(lowest, cap / 4) << "retry " << retry;
        EXPECT_GT(highest, cap * 3 / 4) << "retry " << retry;
    }
}

TEST(HttpRetryTiming, BackoffIsDeterministicPerSeedAndSafeForHugeRetryNumbers)
{
    RetryPolicy policy;
    EXPECT_EQ(HttpClient::backoffDelay(policy, 3, 42), HttpClient::backoffDelay(policy, 3, 42));
    EXPECT_LE(HttpClient::backoffDelay(policy, 1000, 7), policy.maxDelay);
    policy.baseDelay = 0ms;
    EXPECT_EQ(HttpClient::backoffDelay(policy, 2, 7), 0ms);
}

TEST(HttpRetryTiming, RetryAfterReadsDeltaSeconds)
{
    EXPECT_EQ(HttpClient::parseRetryAfter("1"), std::optional(1000ms));
    EXPECT_EQ(HttpClient::parseRetryAfter(" 120 "), std::optional(120000ms));
    EXPECT_EQ(HttpClient::parseRetryAfter("0"), std::optional(0ms));
    EXPECT_GT(HttpClient::parseRetryAfter("99999999999999999999999").value(), 1000000s);
    for (const char* bad : {"", "soon", "-5", "1.5", "12abc"})
        EXPECT_FALSE(HttpClient::parseRetryAfter(bad).has_value()) << '"' << bad << '"';
}

TEST(HttpRetryTiming, RetryAfterReadsHttpDates)
{
    const auto inThirty = HttpClient::parseRetryAfter(httpDate(nowSeconds() + 30));
    ASSERT_TRUE(inThirty.has_value());
    EXPECT_GE(*inThirty, 28s);
    EXPECT_LE(*inThirty, 31s);
    // Dates in the past mean "now", in all three forms RFC 9110 allows.
    for (const char* past : {"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
                             "Sun Nov  6 08:49:37 1994"})
        EXPECT_EQ(HttpClient::parseRetryAfter(past), std::optional(0ms)) << past;
}

// ---- Single requests ------------------------------------------------------

TEST_F(HttpClientTest, FetchesABodyWithHeadersAndUserAgent)
{
    std::string seenAgent, seenToken;
    m_server.http().Get("/hello", [&](const httplib::Request& req, httplib::Response& res) {
        seenAgent = req.get_header_value("User-Agent");
        seenToken = req.get_header_value("Authorization");
        res.set_header("X-Custom", "yes");
        res.set_content("hello world", "text/plain");
    });
    m_server.start();
    HttpOptions options = fastOptions();
    options.userAgent = "RelayHUD-test/1";
    HttpClient client(options);
    const auto response =
        client.get({m_server.url("/hello"), {{"Authorization", "Bearer t0k"}}, {}});
    ASSERT_TRUE(response.ok()) << response.message();
    EXPECT_EQ(response->status, 200);
    EXPECT_EQ(response->body, "hello world");
    EXPECT_EQ(response->header("x-custom"), "yes");
    EXPECT_EQ(response->header("content-type"), "text/plain");
    EXPECT_EQ(response->attempts, 1);
    EXPECT_EQ(response->effectiveUrl, m_server.url("/hello"));
    EXPECT_EQ(seenAgent, "RelayHUD-test/1");
    EXPECT_EQ(seenToken, "Bearer t0k");
}

TEST_F(HttpClientTest, ReusesTheConnectionForTheNextRequest)
{
    std::mutex mutex;
    std::vector<int> clientPorts;
    m_server.http().Get("/page", [&](const httplib::Request& req, httplib::Response& res) {
        const std::lock_guard lock(mutex);
        clientPorts.push_back(req.remote_port);
        res.set_content("{}", "application/json");
    });
    m_server.start();
    HttpClient client(fastOptions());
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(client.get({m_server.url("/page"), {}, {}}).ok());
    ASSERT_EQ(clientPorts.size(), 3u);
    EXPECT_EQ(clientPorts[1], clientPorts[0]);
    EXPECT_EQ(clientPorts[2], clientPorts[0]);
}

TEST_F(HttpClientTest, RetriesServerErrorsUntilSuccess)
{
    std::atomic<int> calls{0};
    m_server.http().Get("/flaky", [&](const httplib::Request&, httplib::Response& res) {
        if (++calls <= 2)
            res.status = 500;
        else
            res.set_content("finally", "text/plain");
    });
    m_server.start();
    HttpClient client(fastOptions());
    const auto response = client.get({m_server.url("/flaky"), {}, {}});
    ASSERT_TRUE(response.ok()) << response.message();
    EXPECT_EQ(response->body, "finally");
    EXPECT_EQ(response->attempts, 3);
}

TEST_F(HttpClientTest, GivesUpOnPersistent503WithStatusUrlAndBody)
{
    std::atomic<int> calls{0};
    m_server.http().Get("/down", [&](const httplib::Request&, httplib::Response& res) {
        ++calls;
        res.status = 503;
        res.set_content("store down\n\x1b[31mretry later", "text/plain");
    });
    m_server.start();
    HttpClient client(fastOptions());
    const auto response = client.get({m_server.url("/down"), {}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(response.message(), "HTTP 503 from " + m_server.url("/down")
                                      + ": store down [31mretry later (gave up after 3 attempts)");
}

TEST_F(HttpClientTest, DoesNotRetryClientErrors)
{
    std::atomic<int> calls{0};
    m_server.http().Get("/gone", [&](const httplib::Request&, httplib::Response& res) {
        ++calls;
        res.status = 404;
    });
    m_server.start();
    HttpClient client(fastOptions());
    const auto response = client.get({m_server.url("/gone"), {}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(calls, 1);
    EXPECT_NE(response.message().find("HTTP 404 from " + m_server.url("/gone")), std::string::npos)
        << response.message();
}

TEST_F(HttpClientTest, HonoursRetryAfterOn429)
{
    std::atomic<int> calls{0};
    m_server.http().Get("/limited", [&](const httplib::Request&, httplib::Response& res) {
        if (++calls == 1) {
            res.status = 429;
            res.set_header("Retry-After", "1");
        } else {
            res.set_content("ok", "text/plain");
        }
    });
    m_server.start();
    HttpClient client(fastOptions()); // backoff alone would wait at most 40 ms
    const auto start = Clock::now();
    const auto response = client.get({m_server.url("/limited"), {}, {}});
    ASSERT_TRUE(response.ok()) << response.message();
    EXPECT_EQ(response->attempts, 2);
    EXPECT_GE(since(start), 950ms);
}

// A server pacing its clients (429 with Retry-After) is waited through past
// maxAttempts, up to maxPacedAttempts: clients retrying together may land on
// its limit again.
TEST_F(HttpClientTest, RateLimitsAreWaitedThroughPastTheAttemptsForErrors)
{
    std::atomic<int> calls{0};
    m_server.http().Get("/paced", [&](const httplib::Request&, httplib::Response& res) {
        if (++calls <= 5) {
            res.status = 429;
            res.set_header("Retry-After", "0");
        } else {
            res.set_content("ok", "text/plain");
        }
    });
    m_server.http().Get("/closed", [&](const httplib::Request&, httplib::Response& res) {
        res.status = 429;
        res.set_header("Retry-After", "0");
    });
    m_server.start();
    HttpOptions options = fastOptions(); // maxAttempts 3
    options.retry.maxPacedAttempts = 7;
    HttpClient client(options);
    const auto response = client.get({m_server.url("/paced"), {}, {}});
    ASSERT_TRUE(response.ok()) << response.message();
    EXPECT_EQ(response->attempts, 6);
    const auto closed = client.get({m_server.url("/closed"), {}, {}});
    ASSERT_FALSE(closed.ok());
    EXPECT_NE(closed.message().find("HTTP 429"), std::string::npos) << closed.message();
    EXPECT_NE(closed.message().find("gave up after 7 attempts"), std::string::npos)
        << closed.message();
}

TEST_F(HttpClientTest, ConditionalRequestGetsNotModified)
{
    m_server.http().Get("/etag", [](const httplib::Request& req, httplib::Response& res) {
        if (req.get_header_value("If-None-Match") == "\"v1\"") {
            res.status = 304;
            return;
        }
        res.set_header("ETag", "\"v1\"");
        res.set_content("[1,2,3]", "application/json");
    });
    m_server.start();
    HttpClient client(fastOptions());
    const auto first = client.get({m_server.url("/etag"), {}, {}});
    ASSERT_TRUE(first.ok()) << first.message();
    EXPECT_FALSE(first->notModified());
    const std::string etag = first->header("etag");
    EXPECT_EQ(etag, "\"v1\"");
    const auto second = client.get({m_server.url("/etag"), {}, etag});
    ASSERT_TRUE(second.ok()) << second.message();
    EXPECT_TRUE(second->notModified());
    EXPECT_TRUE(second->body.empty());
}

TEST_F(HttpClientTest, DecodesGzipBodies)
{
    std::string original;
    for (int i = 0; i < 2000; ++i)
        original += "row " + std::to_string(i) + "\n";
    const std::string compressed = gzip(original);
    ASSERT_LT(compressed.size(), original.size() / 3);
    std::string seenEncodings;
    m_server.http().Get("/zipped", [&](const httplib::Request& req, httplib::Response& res) {
        seenEncodings = req.get_header_value("Accept-Encoding");
        res.set_header("Content-Encoding", "gzip");
        // Not a text type: httplib would compress text a second time.
        res.set_content(compressed, "application/octet-stream");
    });
    m_server.start();
    HttpClient client(fastOptions());
    const auto response = client.get({m_server.url("/zipped"), {}, {}});
    ASSERT_TRUE(response.ok()) << response.message();
    EXPECT_EQ(response->body, original);
    EXPECT_NE(seenEncodings.find("gzip"), std::string::npos) << seenEncodings;
}

TEST_F(HttpClientTest, TimesOutWithAClearMessage)
{
    m_server.http().Get("/slow", [&](const httplib::Request&, httplib::Response& res) {
        m_server.stall(3s);
        res.set_content("too late", "text/plain");
    });
    m_server.start();
    HttpOptions options = fastOptions();
    options.totalTimeout = 300ms;
    options.retry.maxAttempts = 2;
    HttpClient client(options);
    const auto start = Clock::now();
    const auto response = client.get({m_server.url("/slow"), {}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_LT(since(start), 2s);
    EXPECT_EQ(response.message(), "timed out after 0.3 s fetching " + m_server.url("/slow")
                                      + " (gave up after 2 attempts)");
}

TEST_F(HttpClientTest, ReportsARefusedConnection)
{
    const std::string url = "http://127.0.0.1:" + std::to_string(unusedPort()) + "/x";
    HttpClient client(fastOptions());
    const auto response = client.get({url, {}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(response.message().rfind("connection refused: " + url, 0), 0u) << response.message();
    EXPECT_NE(response.message().find("gave up after 3 attempts"), std::string::npos);
}

TEST_F(HttpClientTest, RetriesATruncatedBodyThenFails)
{
    RawServer raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nshort");
    HttpClient client(fastOptions());
    const auto response = client.get({raw.url("/artifact.zip"), {}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(raw.connections(), 3);
    EXPECT_EQ(response.message(), "truncated response from " + raw.url("/artifact.zip")
                                      + ": got 5 of 100 bytes (gave up after 3 attempts)");
}

TEST_F(HttpClientTest, RetriesAnEmptyReply)
{
    RawServer raw("");
    HttpClient client(fastOptions());
    const auto response = client.get({raw.url("/x"), {}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(raw.connections(), 3);
    EXPECT_EQ(response.message().rfind("empty reply from " + raw.url("/x"), 0), 0u)
        << response.message();
}

TEST_F(HttpClientTest, SummarisesAnHtmlErrorPage)
{
    std::string page = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title>"
                       "<style>body{color:red}</style></head><body>";
    while (page.size() < 50000)
        page += "<p>The upstream server did not answer in time.</p>\n";
    page += "</body></html>";
    m_server.http().Get("/proxy", [&](const httplib::Request&, httplib::Response& res) {
        res.status = 502;
        res.set_content(page, "text/html; charset=utf-8");
    });
    m_server.start();
    HttpOptions options = fastOptions();
    options.retry.maxAttempts = 1;
    HttpClient client(options);
    const auto response = client.get({m_server.url("/proxy"), {}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(response.message(), "HTTP 502 from " + m_server.url("/proxy") + ": 502 Bad Gateway");
}

TEST_F(HttpClientTest, UsesTheMessageOfAJsonError)
{
    m_server.http().Get("/private", [](const httplib::Request&, httplib::Response& res) {
        res.status = 401;
        res.set_content(R"({"message":"Bad credentials","documentation_url":"https://x"})",
                        "application/json");
    });
    m_server.start();
    HttpClient client(fastOptions());
    const auto response = client.get({m_server.url("/private"), {}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(response.message(),
              "HTTP 401 from " + m_server.url("/private") + ": Bad credentials");
}

TEST_F(HttpClientTest, FollowsRedirectsAndKeepsTheLastHeaders)
{
    m_server.http().Get("/old", [](const httplib::Request&, httplib::Response& res) {
        res.set_header("X-Hop", "1");
        res.set_redirect("/new");
    });
    m_server.http().Get("/new", [](const httplib::Request&, httplib::Response& res) {
        res.set_header("X-Final", "yes");
        res.set_content("moved here", "text/plain");
    });
    m_server.http().Get("/loop", [](const httplib::Request&, httplib::Response& res) {
        res.set_redirect("/loop");
    });
    m_server.start();
    HttpClient client(fastOptions());
    const auto response = client.get({m_server.url("/old"), {}, {}});
    ASSERT_TRUE(response.ok()) << response.message();
    EXPECT_EQ(response->body, "moved here");
    EXPECT_EQ(response->effectiveUrl, m_server.url("/new"));
    EXPECT_EQ(response->header("x-final"), "yes");
    EXPECT_EQ(response->headers.count("x-hop"), 0u);
    const auto loop = client.get({m_server.url("/loop"), {}, {}});
    ASSERT_FALSE(loop.ok());
    EXPECT_EQ(loop.message(), "too many redirects; refused the one to " + m_server.url("/loop"));
}

// A redirect's failure names the target that failed or was refused, and
// where the chain began (issue 35: naming only the original misled).
TEST_F(HttpClientTest, ARedirectFailureNamesTheRefusedTarget)
{
    m_server.http().Get("/to-ftp", [](const httplib::Request&, httplib::Response& res) {
        res.set_redirect("ftp://127.0.0.1/secret.xml");
    });
    m_server.http().Get(R"(/hop(\d+))", [](const httplib::Request& req, httplib::Response& res) {
        res.set_redirect("/hop" + std::to_string(std::stoi(req.matches[1]) + 1));
    });
    m_server.start();
    HttpClient client(fastOptions());
    const auto ftp = client.get({m_server.url("/to-ftp"), {}, {}});
    ASSERT_FALSE(ftp.ok());
    EXPECT_NE(ftp.message().find("ftp://127.0.0.1/secret.xml"), std::string::npos) << ftp.message();
    EXPECT_NE(ftp.message().find("(redirected from " + m_server.url("/to-ftp") + ")"),
              std::string::npos)
        << ftp.message();
    const auto chain = client.get({m_server.url("/hop1"), {}, {}});
    ASSERT_FALSE(chain.ok());
    EXPECT_EQ(chain.message(), "too many redirects; refused the one to " + m_server.url("/hop7")
                                   + " (redirected from " + m_server.url("/hop1") + ")");
}

TEST_F(HttpClientTest, EnforcesTheBodyLimitWithAndWithoutContentLength)
{
    const std::string big(10000, 'x');
    m_server.http().Get("/big", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(big, "text/plain");
    });
    m_server.http().Get("/streamed", [&](const httplib::Request&, httplib::Response& res) {
        res.set_chunked_content_provider("text/plain", [&](std::size_t, httplib::DataSink& sink) {
            for (int i = 0; i < 10; ++i)
                sink.write(big.data(), 1000);
            sink.done();
            return true;
        });
    });
    m_server.start();
    HttpOptions options = fastOptions();
    options.maxBodyBytes = 1000;
    HttpClient client(options);
    for (const std::string path : {"/big", "/streamed"}) {
        const auto response = client.get({m_server.url(path), {}, {}});
        ASSERT_FALSE(response.ok()) << path;
        EXPECT_EQ(response.message(), "response from " + m_server.url(path)
                                          + " is larger than the limit of 1000 bytes");
    }
}

TEST_F(HttpClientTest, RefusesHeaderInjection)
{
    HttpClient client(fastOptions());
    const auto response = client.get({"http://127.0.0.1:1/x", {{"X-A", "1\r\nX-B: 2"}}, {}});
    ASSERT_FALSE(response.ok());
    EXPECT_NE(response.message().find("line break"), std::string::npos);
}

TEST_F(HttpClientTest, CancellationStopsALongRequestPromptly)
{
    m_server.http().Get("/forever", [&](const httplib::Request&, httplib::Response& res) {
        m_server.stall(5s);
        res.set_content("late", "text/plain");
    });
    m_server.start();
    std::atomic<bool> cancel{false};
    HttpOptions options = fastOptions();
    options.totalTimeout = 10s;
    options.cancel = &cancel;
    HttpClient client(options);
    std::thread canceller([&] {
        std::this_thread::sleep_for(200ms);
        cancel = true;
    });
    const auto start = Clock::now();
    const auto response = client.get({m_server.url("/forever"), {}, {}});
    canceller.join();
    ASSERT_FALSE(response.ok());
    EXPECT_EQ(response.message(), "cancelled");
    EXPECT_LT(since(start), 1500ms);
}

// ---- Parallel requests -----------------------------------------------------

TEST_F(HttpClientTest, OneClientServesSeveralThreads)
{
    m_server.http().Get(R"(/thread/(\d+))",
                        [](const httplib::Request& req, httplib::Response& res) {
                            res.set_content(req.matches[1], "text/plain");
                        });
    m_server.start();
    HttpClient client(fastOptions());
    std::atomic<int> good{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 10; ++i) {
                const auto response =
                    client.get({m_server.url("/thread/" + std::to_string(t)), {}, {}});
                good += response.ok() && response->body == std::to_string(t);
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(good, 40);
}

TEST_F(HttpClientTest, GetAllKeepsOrderAndBoundsParallelism)
{
    std::atomic<int> inFlight{0}, mostInFlight{0};
    m_server.http().Get(R"(/item/(\d+))", [&](const httplib::Request& req, httplib::Response& res) {
        const int now = ++inFlight;
        int seen = mostInFlight.load();
        while (now > seen && !mostInFlight.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::sleep_for(30ms);
        --inFlight;
        res.set_content("item " + std::string(req.matches[1]), "text/plain");
    });
    m_server.start();
    HttpOptions options = fastOptions();
    options.maxParallel = 3;
    HttpClient client(options);
    std::vector<HttpRequest> requests;
    for (int i = 0; i < 20; ++i)
        requests.push_back({m_server.url("/item/" + std::to_string(i)), {}, {}});
    const auto results = client.getAll(requests);
    ASSERT_EQ(results.size(), 20u);
    for (std::size_t i = 0; i < results.size(); ++i) {
        ASSERT_TRUE(results[i].ok()) << results[i].message();
        EXPECT_EQ(results[i]->body, "item " + std::to_string(i));
    }
    EXPECT_LE(mostInFlight, 3);
    EXPECT_GE(mostInFlight, 2); // it did run requests side by side
}

TEST_F(HttpClientTest, GetAllRetriesAndReportsEachFailure)
{
    std::atomic<int> flakyCalls{0};
    m_server.http().Get("/flaky", [&](const httplib::Request&, httplib::Response& res) {
        if (++flakyCalls <= 2)
            res.status = 503;
        else
            res.set_content("recovered", "text/plain");
    });
    m_server.http().Get("/ok", [](const httplib::Request&, httplib::Response& res) {
        res.set_content("fine", "text/plain");
    });
    m_server.start();
    HttpOptions options = fastOptions();
    options.maxParallel = 2;
    HttpClient client(options);
    const auto results = client.getAll({{m_server.url("/flaky"), {}, {}},
                                        {m_server.url("/missing"), {}, {}},
                                        {m_server.url("/ok"), {}, {}}});
    ASSERT_EQ(results.size(), 3u);
    ASSERT_TRUE(results[0].ok()) << results[0].message();
    EXPECT_EQ(results[0]->body, "recovered");
    EXPECT_EQ(results[0]->attempts, 3);
    ASSERT_FALSE(results[1].ok());
    EXPECT_NE(results[1].message().find("HTTP 404 from " + m_server.url("/missing")),
              std::string::npos);
    ASSERT_TRUE(results[2].ok()) << results[2].message();
    EXPECT_EQ(results[2]->attempts, 1);
}

TEST_F(HttpClientTest, CancellationStopsGetAllPromptly)
{
    m_server.http().Get("/forever", [&](const httplib::Request&, httplib::Response& res) {
        m_server.stall(5s);
        res.set_content("late", "text/plain");
    });
    m_server.start();
    std::atomic<bool> cancel{false};
    HttpOptions options = fastOptions();
    options.totalTimeout = 10s;
    options.maxParallel = 2;
    options.cancel = &cancel;
    HttpClient client(options);
    std::thread canceller([&] {
        std::this_thread::sleep_for(200ms);
        cancel = true;
    });
    const auto start = Clock::now();
    const auto results =
        client.getAll(std::vector<HttpRequest>(4, {m_server.url("/forever"), {}, {}}));
    canceller.join();
    EXPECT_LT(since(start), 1500ms);
    ASSERT_EQ(results.size(), 4u);
    for (const auto& result : results) {
        ASSERT_FALSE(result.ok());
        EXPECT_EQ(result.message(), "cancelled");
    }
}

} // namespace
