// locateArtifacts over every artifact_url form a HUD row may carry, and
// Credentials::fromEnvironment.
#include "relayhud/artifacts/artifact_store.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using relayhud::ArtifactLocation;
using relayhud::ArtifactSettings;
using relayhud::Credentials;
using relayhud::locateArtifacts;
using relayhud::StoreKind;

struct GitHubCase {
    const char* url;
    const char* owner;
    const char* repo;
    const char* runId;
    int attempt;
    const char* jobId;
};

ArtifactSettings gheSettings()
{
    ArtifactSettings settings;
    settings.githubApiUrl = "https://ghe.example.com/api/v3";
    settings.githubWebHost = "ghe.example.com";
    return settings;
}

TEST(ArtifactLocator, ReadsGitHubRunUrlsInEveryForm)
{
    const GitHubCase cases[] = {
        {"https://github.com/torch-spyre/torch-spyre/actions/runs/14800012345", "torch-spyre",
         "torch-spyre", "14800012345", 0, ""},
        {"https://github.com/torch-spyre/torch-spyre/actions/runs/14800012345/artifacts",
         "torch-spyre", "torch-spyre", "14800012345", 0, ""},
        {"https://github.com/Ascend/pytorch/actions/runs/42/attempts/3", "Ascend", "pytorch", "42",
         3, ""},
        {"https://github.com/Ascend/pytorch/actions/runs/42/attempts/2/artifacts/", "Ascend",
         "pytorch", "42", 2, ""},
        {"https://github.com/vllm-project/vllm/actions/runs/7/job/991", "vllm-project", "vllm", "7",
         0, "991"},
        {"https://www.github.com/a/b.c/actions/runs/5?check_suite_focus=true", "a", "b.c", "5", 0,
         ""},
        {"https://api.github.com/repos/a/b/actions/runs/77/artifacts", "a", "b", "77", 0, ""},
        {"https://api.github.com/repos/a/b/actions/runs/77/attempts/2", "a", "b", "77", 2, ""},
        {"  https://github.com/a/b/actions/runs/9  \n", "a", "b", "9", 0, ""},
    };
    for (const auto& c : cases) {
        auto located = locateArtifacts(c.url, {});
        ASSERT_TRUE(located) << c.url << ": " << located.message();
        EXPECT_EQ(located->kind, StoreKind::GitHubArtifacts) << c.url;
        EXPECT_EQ(located->owner, c.owner) << c.url;
        EXPECT_EQ(located->repo, c.repo) << c.url;
        EXPECT_EQ(located->runId, c.runId) << c.url;
        EXPECT_EQ(located->runAttempt, c.attempt) << c.url;
        EXPECT_EQ(located->jobId, c.jobId) << c.url;
    }
}

TEST(ArtifactLocator, ReadsGitHubEnterpriseHostsFromTheSettings)
{
    for (const char* url : {"https://ghe.example.com/org/repo/actions/runs/12/artifacts",
                            "https://ghe.example.com/api/v3/repos/org/repo/actions/runs/12"}) {
        auto located = locateArtifacts(url, gheSettings());
        ASSERT_TRUE(located) << url << ": " << located.message();
        EXPECT_EQ(located->kind, StoreKind::GitHubArtifacts) << url;
        EXPECT_EQ(located->owner, "org");
        EXPECT_EQ(located->runId, "12");
    }
    // Without the setting the same host is just a web server.
    auto plain = locateArtifacts("https://ghe.example.com/org/repo/actions/runs/12", {});
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->kind, StoreKind::Https);
}

TEST(ArtifactLocator, ReadsS3UrlsPathAndVirtualHosted)
{
    struct S3Case {
        const char* url;
        const char* bucket;
        const char* key;
    };
    const S3Case cases[] = {
        {"s3://ascend-pytorch-ci/ci-results/123/1/test-default/", "ascend-pytorch-ci",
         "ci-results/123/1/test-default/"},
        {"s3://ascend-pytorch-ci/reports/test ops.xml", "ascend-pytorch-ci",
         "reports/test ops.xml"},
        {"s3://ascend-pytorch-ci", "ascend-pytorch-ci", ""},
        {"https://my.bucket.s3.us-west-2.amazonaws.com/a/b%20c.xml", "my.bucket", "a/b c.xml"},
        {"https://team-ci.s3.amazonaws.com/run/1/", "team-ci", "run/1/"},
        {"https://team-ci.s3-eu-west-1.amazonaws.com/x.xml.gz", "team-ci", "x.xml.gz"},
        {"https://s3.eu-central-1.amazonaws.com/team-ci/run/2/report.xml", "team-ci",
         "run/2/report.xml"},
    };
    for (const auto& c : cases) {
        auto located = locateArtifacts(c.url, {});
        ASSERT_TRUE(located) << c.url << ": " << located.message();
        EXPECT_EQ(located->kind, StoreKind::S3) << c.url;
        EXPECT_EQ(located->bucket, c.bucket) << c.url;
        EXPECT_EQ(located->key, c.key) << c.url;
    }
    ArtifactSettings minio;
    minio.s3Endpoint = "http://127.0.0.1:9000/s3";
    auto underEndpoint = locateArtifacts("http://127.0.0.1:9000/s3/bucket-a/p/q.xml", minio);
    ASSERT_TRUE(underEndpoint) << underEndpoint.message();
    EXPECT_EQ(underEndpoint->kind, StoreKind::S3);
    EXPECT_EQ(underEndpoint->bucket, "bucket-a");
    EXPECT_EQ(underEndpoint->key, "p/q.xml");
}

TEST(ArtifactLocator, ReadsHttpsFilesAndLocalPaths)
{
    auto https = locateArtifacts("https://ci.example.org/torch-spyre/1/2/report.xml.gz?sig=1", {});
    ASSERT_TRUE(https);
    EXPECT_EQ(https->kind, StoreKind::Https);
    EXPECT_EQ(https->url, "https://ci.example.org/torch-spyre/1/2/report.xml.gz?sig=1");

    struct LocalCase {
        const char* url;
        const char* path;
    };
    const LocalCase cases[] = {
        {"/srv/ci/reports", "/srv/ci/reports"},
        {"file:///srv/ci/test%20results/r%C3%A9sum%C3%A9.xml", "/srv/ci/test results/résumé.xml"},
        {"file://localhost/tmp/a.zip", "/tmp/a.zip"},
        {"FILE:///tmp/b.xml", "/tmp/b.xml"},
    };
    for (const auto& c : cases) {
        auto located = locateArtifacts(c.url, {});
        ASSERT_TRUE(located) << c.url << ": " << located.message();
        EXPECT_EQ(located->kind, StoreKind::LocalPath) << c.url;
        EXPECT_EQ(located->path, c.path) << c.url;
    }
}

TEST(ArtifactLocator, RefusesWhatNoStoreReadsWithAMessageNamingTheUrl)
{
    struct BadCase {
        const char* url;
        const char* says;
    };
    const BadCase cases[] = {
        {"", "no artifact URL"},
        {"   ", "no artifact URL"},
        {"ftp://ci.example.org/report.xml", "not \"ftp://\""},
        {"gs://bucket/key", "not \"gs://\""},
        {"reports/report.xml", "neither an absolute path nor a URL"},
        {"https://github.com/torch-spyre/torch-spyre", "names no workflow run"},
        {"https://github.com/torch-spyre/torch-spyre/pull/12", "names no workflow run"},
        {"https://github.com/a/b/actions/runs/abc", "names no workflow run"},
        {"https://github.com/a/b/actions/runs/1/logs", "unexpected \"logs\""},
        {"https://api.github.com/users/octocat", "names no workflow run"},
        {"https://github.com/../b/actions/runs/1", "names no workflow run"},
        {"s3://Bad_Bucket/key", "not an S3 bucket name"},
        {"s3://ab/key", "not an S3 bucket name"},
        {"file://fileserver/share/a.xml", "another host"},
        {"file:///tmp/a%00b.xml", "NUL"},
        {"file:///tmp/a%zzb.xml", "broken"},
        {"https:///no-host", "no host"},
    };
    for (const auto& c : cases) {
        auto located = locateArtifacts(c.url, {});
        ASSERT_FALSE(located) << '"' << c.url << "\" was read as " << located->url;
        EXPECT_NE(located.message().find(c.says), std::string::npos)
            << c.url << " -> " << located.message();
    }
    auto withNewline = locateArtifacts(std::string("https://x.org/a\nb.xml"), {});
    EXPECT_FALSE(withNewline);
}

TEST(ArtifactLocator, KeepsPasswordsInUrlsOutOfMessages)
{
    auto located = locateArtifacts("ftp://user:hunter22@ci.example.org/report.xml", {});
    ASSERT_FALSE(located);
    EXPECT_EQ(located.message().find("hunter22"), std::string::npos) << located.message();
}

TEST(ArtifactLocator, NamesEveryStoreKind)
{
    EXPECT_STREQ(relayhud::storeKindName(StoreKind::GitHubArtifacts), "GitHub artifacts");
    EXPECT_STREQ(relayhud::storeKindName(StoreKind::S3), "S3 bucket");
    EXPECT_STREQ(relayhud::storeKindName(StoreKind::Https), "HTTPS file");
    EXPECT_STREQ(relayhud::storeKindName(StoreKind::LocalPath), "local files");
}

// Sets environment variables for one test and restores them after.
class ScopedEnv {
public:
    void set(const char* name, const char* value)
    {
        const char* old = std::getenv(name);
        m_saved.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~ScopedEnv()
    {
        for (auto it = m_saved.rbegin(); it != m_saved.rend(); ++it) {
            if (it->second)
                ::setenv(it->first.c_str(), it->second->c_str(), 1);
            else
                ::unsetenv(it->first.c_str());
        }
    }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> m_saved;
};

TEST(Credentials, ComeFromGitHubTokenThenGhTokenAndTheAwsVariables)
{
    ScopedEnv env;
    env.set("GITHUB_TOKEN", "ghp_first\n");
    env.set("GH_TOKEN", "ghp_second");
    env.set("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE");
    env.set("AWS_SECRET_ACCESS_KEY", " secret/key+1 ");
    env.set("AWS_SESSION_TOKEN", nullptr);
    Credentials credentials = Credentials::fromEnvironment();
    EXPECT_EQ(credentials.githubToken, "ghp_first") << "a pasted newline must not reach a header";
    EXPECT_EQ(credentials.s3AccessKeyId, "AKIDEXAMPLE");
    EXPECT_EQ(credentials.s3SecretAccessKey, "secret/key+1");
    EXPECT_EQ(credentials.s3SessionToken, "");

    env.set("GITHUB_TOKEN", "");
    EXPECT_EQ(Credentials::fromEnvironment().githubToken, "ghp_second");
    env.set("GH_TOKEN", nullptr);
    EXPECT_EQ(Credentials::fromEnvironment().githubToken, "");
}

} // namespace
