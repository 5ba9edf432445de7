// Failure clusters: the cluster key on real-looking failure reasons (and on
// the corpus's failure lines), its linear cost on hostile input, and
// buildClusters' counts, first-seen SHA, backends, jobs and tags.
#include "relayhud/triage/cluster.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace relayhud;
using namespace relayhud::triage;

TEST(ClusterKey, FirstMeaningfulLine)
{
    EXPECT_EQ(firstMeaningfulLine(""), "");
    EXPECT_EQ(firstMeaningfulLine("\n  \n\t\n"), "");
    EXPECT_EQ(firstMeaningfulLine("  a b  \nc"), "a b");
    EXPECT_EQ(firstMeaningfulLine("=====\n-----\r\nE   assert 1 == 2\n"), "E   assert 1 == 2");
    EXPECT_EQ(firstMeaningfulLine("Traceback (most recent call last):\n  File \"x.py\", line 3"),
              "File \"x.py\", line 3");
}

TEST(ClusterKey, RealReasonsKeepTheirWordsAndLoseWhatVaries)
{
    const std::vector<std::pair<std::string, std::string>> table{
        {"AssertionError: Tensor-likes are not close!\n\nMismatched elements: 3 / 100 (3.0%)",
         "AssertionError: Tensor-likes are not close!"},
        {"RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total "
         "capacity; 14.2 GiB already allocated)",
         "RuntimeError: CUDA out of memory. Tried to allocate <SIZE> (GPU <N>; <SIZE> total "
         "capacity; <SIZE> already allocated)"},
        {"RuntimeError: Process 0 terminated or timed out after 310.0115718841553 seconds",
         "RuntimeError: Process <N> terminated or timed out after <DUR>"},
        {"FileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmpa1b2c3d4/model.pt'",
         "FileNotFoundError: [Errno <N>] No such file or directory: '<PATH>'"},
        {"OSError: cannot write /var/folders/x1/abc_123/T/pytest-of-runner/pytest-12/t0/out.bin",
         "OSError: cannot write <PATH>"},
        {"AssertionError: assert 'x' in '/home/runner/.cache/pytest-of-root/pytest-3/test_x0/log'",
         "AssertionError: assert 'x' in '<PATH>'"},
        {"PermissionError: /private/var/folders/zz/T/tmp9x_2ab1c", "PermissionError: <PATH>"},
        {"cannot remove tmpk3j2_x9q: busy", "cannot remove <PATH>: busy"},
        {"Fatal Python error: Segmentation fault at 0x7f3a2c1b0000",
         "Fatal Python error: Segmentation fault at <ADDR>"},
        {"<torch._C.Generator object at 0x7F00DEADBEEF>", "<torch._C.Generator object at <ADDR>>"},
        {"KeyError: 'run-3f2a9c1d-7b4e-4c2a-9f1e-0123456789ab'", "KeyError: 'run-<HEX>'"},
        {"fatal: reference is not a tree: 050ce9e1226b95d6b5938bdd5e245491f7219fd8",
         "fatal: reference is not a tree: <HEX>"},
        {"Failed: Timeout >300.0s", "Failed: Timeout ><DUR>"},
        {"Command took >30min, returning 124", "Command took ><DUR>, returning <N>"},
        {"took 12.3s (limit 10s), then 250 ms, 40us and 1.5 hours",
         "took <DUR> (limit <DUR>), then <DUR>, <DUR> and <DUR>"},
        {"ValueError: invalid literal for int() with base 10: ''",
         "ValueError: invalid literal for int() with base <N>: ''"},
        {"AssertionError: \nItems are not equal:\n ACTUAL: 5.0000000000000004e+73",
         "AssertionError:"},
        {"Items are not equal: ACTUAL: 5.0000000000000004e+73 DESIRED: -2147483648",
         "Items are not equal: ACTUAL: <N> DESIRED: -<N>"},
        {"test_compare_cpu_add_spyre_float16 failed in conv2d on 12 elements",
         "test_compare_cpu_add_spyre_float16 failed in conv2d on <N> elements"},
        {"2026-07-30T10:55:18.2486986Z ##[error]The operation was canceled.",
         "<TIME> ##[error]The operation was canceled."},
        {"at 2026-07-28 23:46:33 UTC", "at <TIME> UTC"},
        {"MemoryError: could not allocate 4096 bytes (1.5GB free)",
         "MemoryError: could not allocate <SIZE> (<SIZE> free)"},
        {"  spaced \t  out  ", "spaced out"},
        {"-0. propagation in sum", "-<N>. propagation in sum"},
        {"tmpfs is full; tmp_dir unset; deadbeef stays; cafe1234 goes",
         "tmpfs is full; tmp_dir unset; deadbeef stays; <HEX> goes"},
        {"/usr/lib/python3.10/site-packages/torch/x.py:123: UserWarning",
         "/usr/lib/python3.<N>/site-packages/torch/x.py:<N>: UserWarning"},
        {"RuntimeError: test_cuda 1/1 failed!", "RuntimeError: test_cuda <N>/<N> failed!"},
        {"request ID 93C2:95E39:1954C51:58FD1F0:6A693F59",
         "request ID <N>C2:<N>:<HEX>:<HEX>:<HEX>"},
        {"", ""},
    };
    for (const auto& [reason, key] : table)
        EXPECT_EQ(clusterKey(reason), key) << reason;
}

TEST(ClusterKey, InstancesGroupAndDifferentFailuresDoNot)
{
    const std::vector<std::pair<std::string, std::string>> same{
        {"Expected 3 but got 4", "Expected 17 but got 1.5"},
        {"timed out after 300 seconds", "timed out after 12.5 seconds"},
        {"No such file: /tmp/pytest-of-ci/pytest-1/a0/x", "No such file: /tmp/xyz"},
        {"object at 0x1", "object at 0xffffffffff"},
    };
    for (const auto& [a, b] : same)
        EXPECT_EQ(clusterKey(a), clusterKey(b)) << a << " | " << b;
    const std::vector<std::pair<std::string, std::string>> different{
        {"KeyError: 'float16'", "KeyError: 'float32'"},
        {"CUDA out of memory", "CPU out of memory"},
        {"No such file: /home/a/x.txt", "No such file: /home/a/y.txt"},
    };
    for (const auto& [a, b] : different)
        EXPECT_NE(clusterKey(a), clusterKey(b)) << a << " | " << b;
}

namespace {

// The failure lines the corpus marks (#=MATCH=#), without their marks.
std::vector<std::string> corpusFailureLines()
{
    std::vector<std::string> lines;
    const std::filesystem::path dir = std::filesystem::path(RELAYHUD_CORPUS_DIR) / "logs";
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(entry.path());
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("#=MATCH=# ", 0) != 0)
                continue;
            line.erase(0, 10);
            for (const std::string mark : {"\xE2\x80\xB9", "\xE2\x80\xBA"}) // ‹ ›
                for (auto at = line.find(mark); at != std::string::npos; at = line.find(mark))
                    line.erase(at, mark.size());
            lines.push_back(line);
        }
    }
    return lines;
}

} // namespace

TEST(ClusterKey, CorpusFailureLinesKeepNoVaryingNumbers)
{
    const auto lines = corpusFailureLines();
    ASSERT_GE(lines.size(), 20u);
    for (const std::string& line : lines) {
        const std::string key = clusterKey(line);
        EXPECT_FALSE(key.empty()) << line;
        // Every timestamp prefix went, and no number starts a token.
        EXPECT_EQ(key.find("2026-"), std::string::npos) << key;
        for (std::size_t i = 0; i < key.size(); ++i) {
            const bool digit = key[i] >= '0' && key[i] <= '9';
            const bool inWord =
                i > 0
                && (std::isalnum(static_cast<unsigned char>(key[i - 1])) || key[i - 1] == '_');
            EXPECT_FALSE(digit && !inWord) << key;
        }
        // A key is its own key: placeholders are stable.
        EXPECT_EQ(clusterKey(key), key) << line;
    }
}

TEST(ClusterKey, HostileReasonsCostLinearTime)
{
    auto repeat = [](std::string_view unit, std::size_t bytes) {
        std::string out;
        while (out.size() < bytes)
            out += unit;
        return out;
    };
    const std::size_t mb = 1 << 20;
    for (const std::string& reason :
         {repeat("/a", mb), repeat("a/", mb), repeat("1.", mb), repeat("0x", mb), repeat("a-", mb),
          "tmp" + std::string(mb, 'a'), repeat("12 ", mb), repeat("1e", mb), repeat("/tmp/ ", mb),
          repeat("deadbeef-", mb), std::string(mb, '9')}) {
        const auto start = std::chrono::steady_clock::now();
        const std::string key = clusterKey(reason);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
        EXPECT_LT(ms, 1000) << reason.substr(0, 20);
        EXPECT_LE(key.size(), reason.size() * 4) << reason.substr(0, 20);
    }
}

namespace {

FailureRecord failure(const std::string& sha, EpochSeconds time, const std::string& repo,
                      const std::string& job, const std::string& test, const std::string& reason)
{
    FailureRecord f;
    f.sha = Sha{sha};
    f.commitTime = time;
    f.repo = repo;
    f.workflow = "CI";
    f.job = job;
    f.attempt = 1;
    f.checkRunRow = CheckRunRow{time};
    f.test = test;
    f.reason = reason;
    return f;
}

TriageTag tagFor(const FailureRecord& f, FailureClass cls)
{
    TriageTag t;
    t.target = f.target();
    t.cls = cls;
    t.timeMs = 1;
    return t;
}

} // namespace

TEST(Clusters, CountFirstSeenBackendsJobsAndMembers)
{
    const std::vector<FailureRecord> failures{
        failure("s3", 300, "org/b", "test (1)", "t::a", "timed out after 300 seconds"),
        failure("s2", 200, "org/a", "test (2)", "t::a", "timed out after 12 seconds"),
        failure("s1", 100, "org/a", "test (1)", "t::b", "timed out after 9.5 seconds"),
        failure("s2", 200, "org/a", "test (1)", "t::c", "KeyError: 'float16'"),
        failure("s3", 300, "org/b", "test (1)", "t::d", "AssertionError: 1 != 2"),
        failure("s2", 200, "org/b", "test (1)", "t::d", "AssertionError: 3 != 4"),
    };
    const auto clusters = buildClusters(failures, {});
    ASSERT_EQ(clusters.size(), 3u);
    const FailureCluster& timeouts = clusters[0];
    EXPECT_EQ(timeouts.key, "timed out after <DUR>");
    EXPECT_EQ(timeouts.count, 3u);
    EXPECT_EQ(timeouts.example, "timed out after 300 seconds"); // the newest
    EXPECT_EQ(timeouts.firstSeenSha.value, "s1");
    EXPECT_EQ(timeouts.firstSeenTime, 100);
    EXPECT_EQ(timeouts.backends, (std::vector<std::string>{"org/a", "org/b"}));
    EXPECT_EQ(timeouts.jobs, (std::vector<std::string>{"CI / test (1)", "CI / test (2)"}));
    EXPECT_EQ(timeouts.members, (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(timeouts.tagState, ClusterTagState::Untriaged);
    EXPECT_EQ(clusterTagName(timeouts), "untriaged");
    // Ties in count go by key.
    EXPECT_EQ(clusters[1].key, "AssertionError: <N> != <N>");
    EXPECT_EQ(clusters[1].count, 2u);
    EXPECT_EQ(clusters[1].firstSeenSha.value, "s2");
    EXPECT_EQ(clusters[2].key, "KeyError: 'float16'");
    EXPECT_TRUE(buildClusters({}, {}).empty());
}

TEST(Clusters, TheTagIsTheMembersCommonClass)
{
    const std::vector<FailureRecord> failures{
        failure("s1", 100, "org/a", "j", "t::a", "boom 1"),
        failure("s2", 200, "org/a", "j", "t::a", "boom 2"),
        failure("s1", 100, "org/a", "j", "t::b", "bang 1"),
        failure("s2", 200, "org/a", "j", "t::b", "bang 2"),
        failure("s1", 100, "org/a", "j", "t::c", "pop 1"),
        failure("s2", 200, "org/a", "j", "t::c", "pop 2"),
    };
    const std::vector<TriageTag> tags{
        tagFor(failures[0], FailureClass::Flaky),
        tagFor(failures[1], FailureClass::Flaky),
        tagFor(failures[2], FailureClass::Flaky),
        tagFor(failures[3], FailureClass::Infra),
        tagFor(failures[4], FailureClass::Flaky),
        tagFor(failures[5], FailureClass::Untriaged), // cleared: not a class
        tagFor(failure("s9", 1, "org/z", "j", "t::z", "elsewhere"), FailureClass::Infra),
    };
    const auto clusters = buildClusters(failures, tags);
    ASSERT_EQ(clusters.size(), 3u);
    auto byKey = [&](const std::string& key) {
        for (const auto& c : clusters)
            if (c.key == key)
                return c;
        ADD_FAILURE() << key;
        return FailureCluster{};
    };
    const auto boom = byKey("boom <N>");
    EXPECT_EQ(boom.tagState, ClusterTagState::Tagged);
    EXPECT_EQ(boom.cls, FailureClass::Flaky);
    EXPECT_EQ(boom.tagged, 2u);
    EXPECT_EQ(clusterTagName(boom), "flaky");
    const auto bang = byKey("bang <N>");
    EXPECT_EQ(bang.tagState, ClusterTagState::Mixed);
    EXPECT_EQ(clusterTagName(bang), "mixed");
    const auto pop = byKey("pop <N>");
    EXPECT_EQ(pop.tagState, ClusterTagState::Mixed); // one tagged, one not
    EXPECT_EQ(pop.tagged, 1u);
    EXPECT_EQ(pop.cls, FailureClass::Untriaged);
}
