// HttpClient::download and the per-request options artifact fetching uses:
// resumable downloads into a file, redirects handed back, error answers as
// responses, SigV4 signing and per-request cancellation. Real HTTP on loopback.
#include "relayhud/net/http_client.h"

#include "loopback_servers.h"
#include "raw_http_server.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

using relayhud::test::readFile;

using namespace std::chrono_literals;
using relayhud::HttpClient;
using relayhud::HttpOptions;
using relayhud::HttpRequest;
using relayhud::test::RawHttpServer;
using relayhud::test::RawRequest;
using relayhud::test::rawResponse;
using relayhud::test::ScriptedServer;
namespace fs = std::filesystem;

HttpRequest requestFor(const std::string& url)
{
    HttpRequest request;
    request.url = url;
    return request;
}

void writeFile(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string body(std::size_t size)
{
    std::string text;
    for (std::size_t i = 0; text.size() < size; ++i)
        text += "<testcase name=\"test_" + std::to_string(i) + "\"/>\n";
    text.resize(size);
    return text;
}

// "bytes=N-" -> N; -1 without a Range header.
long rangeStart(const RawRequest& request)
{
    const std::string range = request.header("range");
    return range.starts_with("bytes=") ? std::stol(range.substr(6)) : -1;
}

std::string partial(const std::string& full, long from, const std::string& etag)
{
    const auto start = static_cast<std::size_t>(from);
    return rawResponse(
        206, "Partial Content",
        {{"ETag", etag},
         {"Content-Range", "bytes " + std::to_string(start) + "-" + std::to_string(full.size() - 1)
                               + "/" + std::to_string(full.size())}},
        full.substr(start));
}

class HttpDownloadTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        std::signal(SIGPIPE, SIG_IGN);
        ::setenv("no_proxy", "127.0.0.1,localhost", 1);
        ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    }
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = fs::temp_directory_path() / ("relayhud-download-" + std::string(info->name()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string file() const { return (m_dir / "part").string(); }
    static HttpOptions options()
    {
        HttpOptions o;
        o.retry.maxAttempts = 3;
        o.retry.baseDelay = 5ms;
        o.retry.maxDelay = 20ms;
        o.totalTimeout = 5000ms;
        return o;
    }

    fs::path m_dir;
};

TEST_F(HttpDownloadTest, WritesTheBodyToTheFileNotToMemory)
{
    const std::string full = body(300'000);
    RawHttpServer server([&](const RawRequest&) {
        return rawResponse(200, "OK", {{"ETag", "\"v1\""}}, full);
    });
    HttpClient client(options());
    auto answer = client.download(requestFor(server.url("/report.xml")), file());
    ASSERT_TRUE(answer) << answer.message();
    EXPECT_EQ(answer->status, 200);
    EXPECT_TRUE(answer->body.empty());
    EXPECT_EQ(answer->header("etag"), "\"v1\"");
    EXPECT_EQ(readFile(file()), full);
    EXPECT_FALSE(fs::exists(file() + ".etag")) << "a complete file needs no resume validator";
}

TEST_F(HttpDownloadTest, ResumesATransferCutShortWithRangeAndIfRange)
{
    const std::string full = body(200'000);
    RawHttpServer server([&](const RawRequest& request) {
        const long from = rangeStart(request);
        if (from < 0) // the first answer stops half-way: the connection just closes
            return rawResponse(200, "OK", {{"ETag", "\"v1\""}}, full, 80'000);
        return partial(full, from, "\"v1\"");
    });
    HttpClient client(options());
    auto answer = client.download(requestFor(server.url("/artifact.zip")), file());
    ASSERT_TRUE(answer) << answer.message();
    EXPECT_EQ(answer->status, 206);
    EXPECT_EQ(readFile(file()), full);
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[1].header("range"), "bytes=80000-");
    EXPECT_EQ(requests[1].header("if-range"), "\"v1\"");
}

TEST_F(HttpDownloadTest, ResumesAPartialFileLeftByAnEarlierCall)
{
    const std::string full = body(50'000);
    writeFile(file(), full.substr(0, 12'345));
    writeFile(file() + ".etag", "\"v1\"\n");
    RawHttpServer server([&](const RawRequest& request) {
        return rangeStart(request) >= 0 ? partial(full, rangeStart(request), "\"v1\"")
                                        : rawResponse(200, "OK", {{"ETag", "\"v1\""}}, full);
    });
    HttpClient client(options());
    auto answer = client.download(requestFor(server.url("/a.zip")), file());
    ASSERT_TRUE(answer) << answer.message();
    EXPECT_EQ(readFile(file()), full);
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests()[0].header("range"), "bytes=12345-");
}

TEST_F(HttpDownloadTest, AFullAnswerToARangeRewritesTheFile)
{
    const std::string full = body(40'000);
    writeFile(file(), std::string(30'000, 'x'));
    writeFile(file() + ".etag", "\"old\"\n");
    RawHttpServer server([&](const RawRequest&) { // ignores Range: the resource changed
        return rawResponse(200, "OK", {{"ETag", "\"new\""}}, full);
    });
    HttpClient client(options());
    auto answer = client.download(requestFor(server.url("/a.zip")), file());
    ASSERT_TRUE(answer) << answer.message();
    EXPECT_EQ(answer->status, 200);
    EXPECT_EQ(readFile(file()), full) << "a 200 must never be appended to old bytes";
}

TEST_F(HttpDownloadTest, APartialAnswerForAnotherVersionStartsOver)
{
    const std::string full = body(40'000);
    writeFile(file(), std::string(10'000, 'x'));
    writeFile(file() + ".etag", "\"old\"\n");
    RawHttpServer server([&](const RawRequest& request) { // a server that ignores If-Range
        return rangeStart(request) >= 0 ? partial(full, rangeStart(request), "\"new\"")
                                        : rawResponse(200, "OK", {{"ETag", "\"new\""}}, full);
    });
    HttpClient client(options());
    auto answer = client.download(requestFor(server.url("/a.zip")), file());
    ASSERT_TRUE(answer) << answer.message();
    EXPECT_EQ(readFile(file()), full);
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[1].header("range"), "") << "the fresh start asks for everything";
}

TEST_F(HttpDownloadTest, APartialFileWithoutAValidatorIsNotResumed)
{
    const std::string full = body(20'000);
    writeFile(file(), std::string(5'000, 'x')); // no .etag: nothing proves these bytes
    RawHttpServer server([&](const RawRequest&) { return rawResponse(200, "OK", {}, full); });
    HttpClient client(options());
    ASSERT_TRUE(client.download(requestFor(server.url("/a.xml")), file()));
    EXPECT_EQ(server.requests().at(0).header("range"), "");
    EXPECT_EQ(readFile(file()), full);
}

TEST_F(HttpDownloadTest, A416ForACompletePartialStartsOver)
{
    const std::string full = body(8'000);
    writeFile(file(), full);
    writeFile(file() + ".etag", "\"v1\"\n");
    RawHttpServer server([&](const RawRequest& request) {
        if (rangeStart(request) >= 0)
            return rawResponse(416, "Range Not Satisfiable", {}, "");
        return rawResponse(200, "OK", {{"ETag", "\"v1\""}}, full);
    });
    HttpClient client(options());
    auto answer = client.download(requestFor(server.url("/a.xml")), file());
    ASSERT_TRUE(answer) << answer.message();
    EXPECT_EQ(readFile(file()), full);
}

TEST_F(HttpDownloadTest, ErrorAnswersComeBackWithTheirBodyAndLeaveNoFile)
{
    RawHttpServer server([&](const RawRequest&) {
        return rawResponse(410, "Gone", {{"Content-Type", "application/json"}},
                           R"({"message":"Artifact has expired"})");
    });
    HttpClient client(options());
    HttpRequest request = requestFor(server.url("/zip"));
    request.statusAsAnswer = true;
    auto answer = client.download(request, file());
    ASSERT_TRUE(answer) << answer.message();
    EXPECT_EQ(answer->status, 410);
    EXPECT_NE(answer->body.find("Artifact has expired"), std::string::npos);
    EXPECT_FALSE(fs::exists(file()));
    // Without statusAsAnswer the same answer is an Error naming the status.
    auto plain = client.download(requestFor(server.url("/zip")), file());
    ASSERT_FALSE(plain);
    EXPECT_NE(plain.message().find("HTTP 410"), std::string::npos) << plain.message();
}

TEST_F(HttpDownloadTest, RedirectsCanBeHandedBackInsteadOfFollowed)
{
    RawHttpServer server([&](const RawRequest& request) {
        if (request.target == "/api/zip")
            return rawResponse(302, "Found", {{"Location", "/blob/1.zip?X-Amz-Signature=abc"}}, "");
        return rawResponse(200, "OK", {}, "zip bytes");
    });
    HttpClient client(options());
    HttpRequest request = requestFor(server.url("/api/zip"));
    request.headers = {{"Authorization", "Bearer secret-token"}};
    request.followRedirects = false;
    auto answer = client.download(request, file());
    ASSERT_TRUE(answer) << answer.message();
    EXPECT_EQ(answer->status, 302);
    EXPECT_EQ(answer->header("location"), "/blob/1.zip?X-Amz-Signature=abc");
    EXPECT_EQ(server.requests().size(), 1u);
    EXPECT_FALSE(fs::exists(file()));
}

TEST_F(HttpDownloadTest, TheSizeLimitAppliesToTheFile)
{
    const std::string full = body(100'000);
    RawHttpServer server([&](const RawRequest&) { return rawResponse(200, "OK", {}, full); });
    HttpClient client(options());
    HttpRequest request = requestFor(server.url("/big.zip"));
    request.maxBodyBytes = 10'000;
    auto answer = client.download(request, file());
    ASSERT_FALSE(answer);
    EXPECT_NE(answer.message().find("larger than the limit"), std::string::npos)
        << answer.message();
}

TEST_F(HttpDownloadTest, SignsWithSigV4AndTheSecurityToken)
{
    RawHttpServer server([&](const RawRequest&) { return rawResponse(200, "OK", {}, "<x/>"); });
    HttpClient client(options());
    HttpRequest request = requestFor(server.url("/s3/bucket/key.xml"));
    request.headers = {{"x-amz-content-sha256", "UNSIGNED-PAYLOAD"},
                       {"x-amz-security-token", "session-token"}};
    request.awsSigning = relayhud::AwsSigning{"aws:amz:eu-west-1:s3", "AKIDEXAMPLE", "s3cr3t"};
    ASSERT_TRUE(client.get(request));
    const RawRequest seen = server.requests().at(0);
    const std::string auth = seen.header("authorization");
    EXPECT_TRUE(auth.starts_with("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")) << auth;
    EXPECT_NE(auth.find("/eu-west-1/s3/aws4_request"), std::string::npos) << auth;
    EXPECT_NE(auth.find("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token"),
              std::string::npos)
        << auth;
    EXPECT_EQ(auth.find("s3cr3t"), std::string::npos);
    EXPECT_FALSE(seen.header("x-amz-date").empty());
}

TEST_F(HttpDownloadTest, APerRequestCancelFlagStopsTheTransfer)
{
    ScriptedServer server;
    server.http().Get("/slow", [&](const httplib::Request&, httplib::Response& res) {
        server.stall(3000ms);
        res.set_content("late", "text/plain");
    });
    server.start();
    HttpClient client(options());
    std::atomic<bool> cancel{false};
    HttpRequest request = requestFor(server.url("/slow"));
    request.cancel = &cancel;
    std::thread canceller([&] {
        std::this_thread::sleep_for(100ms);
        cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    auto answer = client.download(request, file());
    canceller.join();
    ASSERT_FALSE(answer);
    EXPECT_EQ(answer.message(), "cancelled");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2000ms);
}

} // namespace
