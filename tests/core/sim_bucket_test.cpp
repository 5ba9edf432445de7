// relayhud-sim's S3 bucket (SigV4 checked against requests that libcurl signs
// with CURLOPT_AWS_SIGV4: listings, continuation tokens, S3 errors) and its
// plain HTTPS report files, over real HTTP on loopback.
#include "sim_store_fixture.h"

#include <curl/curl.h>

namespace relayhud::sim {
namespace {

// Its own suite name: gtest wants one fixture type per suite.
class SimBucketTest : public SimArtifactsTest {};

// ---------------------------------------------------------------- S3

struct CurlAnswer {
    long status = 0;
    std::string body;
};

size_t appendBody(char* data, size_t size, size_t count, void* out)
{
    static_cast<std::string*>(out)->append(data, size * count);
    return size * count;
}

// A GET signed by libcurl's own SigV4 (what the fetcher uses). S3 wants the
// payload hash header; libcurl 7.88 signs whatever value it is given.
CurlAnswer s3Get(const std::string& url, const std::string& keyId, const std::string& secret,
                 bool sign = true, bool payloadHeader = true)
{
    CURL* curl = curl_easy_init();
    CurlAnswer out;
    curl_slist* headers = nullptr;
    if (payloadHeader)
        headers = curl_slist_append(headers, ("x-amz-content-sha256: " + kEmptySha256).c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (sign) {
        curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, "aws:amz:us-east-1:s3");
        curl_easy_setopt(curl, CURLOPT_USERPWD, (keyId + ":" + secret).c_str());
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out.body);
    EXPECT_EQ(curl_easy_perform(curl), CURLE_OK);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return out;
}

std::vector<std::string> listedKeys(const std::string& xml)
{
    std::vector<std::string> out;
    const std::regex key("<Key>([^<]*)</Key>");
    for (auto it = std::sregex_iterator(xml.begin(), xml.end(), key); it != std::sregex_iterator();
         ++it)
        out.push_back((*it)[1].str());
    return out;
}

TEST_F(SimBucketTest, BucketListsAndServesWithLibcurlsSigV4)
{
    const SimRow* row = find([](const SimRow& r) {
        return r.run.downstreamRepo == kAscend && !r.run.reported.artifactUrl.empty();
    });
    ASSERT_NE(row, nullptr);
    const std::string prefix =
        row->run.reported.artifactUrl.substr(std::string("s3://ascend-pytorch-ci/").size());
    const std::string& id = s_server->s3AccessKeyId();
    const std::string& secret = s_server->s3SecretAccessKey();
    // libcurl 7.88 signs the query as written, so it is written canonically:
    // sorted by name, RFC 3986 encoded ('/' as %2F).
    std::string encoded;
    for (char c : prefix)
        encoded += c == '/' ? std::string("%2F") : std::string(1, c);
    const std::string bucket = s_server->s3Endpoint() + "/ascend-pytorch-ci";
    const CurlAnswer list = s3Get(bucket + "?list-type=2&prefix=" + encoded, id, secret);
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_NE(
        list.body.find("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"),
        std::string::npos);
    const auto keys = listedKeys(list.body);
    const auto truth = s_truth->reports(*row);
    ASSERT_EQ(keys.size(), truth.size());
    ASSERT_EQ(truth.size(), 2U) << "Ascend splits a job's cases over two reports";
    EXPECT_EQ(xmlValue(list.body, "KeyCount"), "2");
    for (std::size_t i = 0; i < keys.size(); ++i) {
        EXPECT_EQ(keys[i], prefix + truth[i].name);
        const CurlAnswer object = s3Get(bucket + "/" + keys[i], id, secret);
        EXPECT_EQ(object.status, 200);
        EXPECT_EQ(object.body, truth[i].xml);
    }
    EXPECT_EQ(xmlValue(s3Get(bucket + "/" + prefix + "missing.xml", id, secret).body, "Code"),
              "NoSuchKey");
    EXPECT_EQ(xmlValue(s3Get(s_server->s3Endpoint() + "/other-bucket?list-type=2", id, secret).body,
                       "Code"),
              "NoSuchBucket");
}

TEST_F(SimBucketTest, BucketRejectsBadSignaturesWithS3Errors)
{
    const std::string url = s_server->s3Endpoint() + "/ascend-pytorch-ci?list-type=2&max-keys=1";
    const std::string& id = s_server->s3AccessKeyId();
    const CurlAnswer wrongSecret = s3Get(url, id, "not-the-secret");
    EXPECT_EQ(wrongSecret.status, 403);
    EXPECT_EQ(xmlValue(wrongSecret.body, "Code"), "SignatureDoesNotMatch");
    EXPECT_NE(wrongSecret.body.find("<CanonicalRequest>"), std::string::npos);
    const CurlAnswer unknownKey = s3Get(url, "AKIDUNKNOWN", "whatever");
    EXPECT_EQ(unknownKey.status, 403);
    EXPECT_EQ(xmlValue(unknownKey.body, "Code"), "InvalidAccessKeyId");
    const CurlAnswer unsignedRequest = s3Get(url, id, "", false);
    EXPECT_EQ(unsignedRequest.status, 403);
    EXPECT_EQ(xmlValue(unsignedRequest.body, "Code"), "AccessDenied");
    const CurlAnswer noPayloadHash = s3Get(url, id, s_server->s3SecretAccessKey(), true, false);
    EXPECT_EQ(noPayloadHash.status, 400);
    EXPECT_EQ(xmlValue(noPayloadHash.body, "Code"), "InvalidRequest");
    // Unsorted query: libcurl signs it verbatim, S3 canonicalizes: no match.
    const CurlAnswer unsorted =
        s3Get(s_server->s3Endpoint() + "/ascend-pytorch-ci?max-keys=1&list-type=2", id,
              s_server->s3SecretAccessKey());
    EXPECT_EQ(xmlValue(unsorted.body, "Code"), "SignatureDoesNotMatch");
}

TEST_F(SimBucketTest, BucketListingsPageWithContinuationTokensAndRollUpPrefixes)
{
    const std::string& id = s_server->s3AccessKeyId();
    const std::string& secret = s_server->s3SecretAccessKey();
    const std::string bucket = s_server->s3Endpoint() + "/ascend-pytorch-ci";
    const CurlAnswer first =
        s3Get(bucket + "?list-type=2&max-keys=3&prefix=ci-results%2F", id, secret);
    ASSERT_EQ(first.status, 200) << first.body;
    EXPECT_EQ(xmlValue(first.body, "IsTruncated"), "true");
    const std::string token = xmlValue(first.body, "NextContinuationToken");
    ASSERT_FALSE(token.empty());
    const CurlAnswer second = s3Get(bucket + "?continuation-token=" + token
                                        + "&list-type=2&max-keys=3&prefix=ci-results%2F",
                                    id, secret);
    ASSERT_EQ(second.status, 200) << second.body;
    const auto a = listedKeys(first.body);
    const auto b = listedKeys(second.body);
    ASSERT_EQ(a.size(), 3U);
    ASSERT_FALSE(b.empty());
    EXPECT_LT(a.back(), b.front());
    const CurlAnswer rolled =
        s3Get(bucket + "?delimiter=%2F&list-type=2&prefix=ci-results%2F", id, secret);
    ASSERT_EQ(rolled.status, 200) << rolled.body;
    EXPECT_TRUE(listedKeys(rolled.body).empty());
    EXPECT_NE(rolled.body.find("<CommonPrefixes><Prefix>ci-results/"), std::string::npos);
    EXPECT_EQ(
        xmlValue(s3Get(bucket + "?continuation-token=zz&list-type=2", id, secret).body, "Code"),
        "InvalidArgument");
}

// ---------------------------------------------------------------- HTTPS files

TEST_F(SimBucketTest, HttpsFilesServeGzippedReportsAndTarballs)
{
    const std::string base = s_server->baseUrl();
    for (const std::string repo : {"intel/torch-xpu-ops", "openmlu/torch-mlu"}) {
        const SimRow* row = find([&](const SimRow& r) {
            return r.run.downstreamRepo == repo && !r.run.reported.artifactUrl.empty();
        });
        ASSERT_NE(row, nullptr) << repo;
        const std::string path = row->run.reported.artifactUrl.substr(base.size());
        auto res = get(path);
        ASSERT_EQ(res->status, 200) << path;
        EXPECT_EQ(res->get_header_value("Content-Type"), "application/gzip");
        const auto truth = s_truth->reports(*row);
        ASSERT_EQ(truth.size(), 1U);
        if (repo == "intel/torch-xpu-ops") {
            EXPECT_EQ(gunzip(res->body), truth.front().xml);
        } else {
            const Entries entries = unpack(res->body);
            ASSERT_EQ(entries.size(), 1U);
            EXPECT_EQ(entries.at("test-reports/" + truth.front().name), truth.front().xml);
        }
        EXPECT_EQ(get(path, {{"Range", "bytes=0-1"}})->body, res->body.substr(0, 2));
        EXPECT_EQ(get(path, {{"If-None-Match", res->get_header_value("ETag")}})->status, 304);
        EXPECT_EQ(get(path)->body, res->body) << "served bytes are stable";
    }
    auto missing = get("/files/intel/torch-xpu-ops/1/1/nothing/report.xml.gz");
    EXPECT_EQ(missing->status, 404);
    EXPECT_EQ(missing->get_header_value("Content-Type"), "text/html");
}

} // namespace
} // namespace relayhud::sim
