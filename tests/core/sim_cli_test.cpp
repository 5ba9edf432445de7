// relayhud-sim's command line (SimOptions) and the relayhud-sim binary itself:
// the lines it announces, stdin EOF, SIGTERM, bad flags.
#include "relayhud/sim/sim_options.h"

#include "relayhud/sim/httplib_quiet.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace relayhud::sim {
namespace {

// ---------------------------------------------------------------- command line

TEST(SimOptions, ParsesEveryFlag)
{
    auto o = parseSimOptions({"--port",
                              "8080",
                              "--seed=9",
                              "--commits",
                              "300",
                              "--jobs-scale",
                              "2",
                              "--error-rate",
                              "0.25",
                              "--latency-ms",
                              "5",
                              "--429-every",
                              "4",
                              "--truncate-rate=0.5",
                              "--drop-rate",
                              "0.1",
                              "--html-errors",
                              "--exit-on-stdin-eof",
                              "--now",
                              "1777914000"});
    ASSERT_TRUE(o) << o.message();
    EXPECT_EQ(o->port, 8080);
    EXPECT_EQ(o->config.seed, 9U);
    EXPECT_EQ(o->faults.seed, 9U);
    EXPECT_EQ(o->config.commits, 300);
    EXPECT_EQ(o->config.jobsScale, 2);
    EXPECT_EQ(o->config.now, 1777914000);
    EXPECT_DOUBLE_EQ(o->faults.errorRate, 0.25);
    EXPECT_EQ(o->faults.latencyMs, 5);
    EXPECT_EQ(o->faults.tooManyEvery, 4);
    EXPECT_DOUBLE_EQ(o->faults.truncateRate, 0.5);
    EXPECT_DOUBLE_EQ(o->faults.dropRate, 0.1);
    EXPECT_TRUE(o->faults.htmlErrors);
    EXPECT_TRUE(o->exitOnStdinEof);
    EXPECT_FALSE(o->help);
    EXPECT_TRUE(parseSimOptions({"--help"})->help);
}

TEST(SimOptions, ParsesTheStoreCredentials)
{
    auto o = parseSimOptions({"--github-token", "ghs_other", "--s3-access-key-id=AKIDEXAMPLE",
                              "--s3-secret-access-key", "s3cr3t/key", "--github-rate-limit", "10"});
    ASSERT_TRUE(o) << o.message();
    EXPECT_EQ(o->stores.githubToken, "ghs_other");
    EXPECT_EQ(o->stores.s3AccessKeyId, "AKIDEXAMPLE");
    EXPECT_EQ(o->stores.s3SecretAccessKey, "s3cr3t/key");
    EXPECT_EQ(o->stores.githubRateLimit, 10);
    const SimOptions defaults = *parseSimOptions({});
    EXPECT_EQ(defaults.stores.githubToken, "ghs_relayhudSimulatorToken0000000000");
    EXPECT_EQ(defaults.stores.s3AccessKeyId, "RELAYHUDSIMULATOR");
    EXPECT_EQ(defaults.stores.s3SecretAccessKey, "relayhud/simulator/secret");
    EXPECT_NE(simUsage().find("--github-token"), std::string::npos);
    EXPECT_NE(simUsage().find("--s3-secret-access-key"), std::string::npos);
    for (const auto& bad :
         std::vector<std::vector<std::string>>{{"--github-token", ""},
                                               {"--s3-access-key-id", "has space"},
                                               {"--github-rate-limit", "0"},
                                               {"--s3-secret-access-key"}}) {
        auto e = parseSimOptions(bad);
        ASSERT_FALSE(e) << bad.front();
        EXPECT_NE(e.message().find(bad.front()), std::string::npos) << e.message();
    }
}

TEST(SimOptions, RejectsBadFlagsWithOneLine)
{
    const std::vector<std::vector<std::string>> bad = {
        {"--port", "abc"},   {"--port", "70000"},   {"--port"},         {"--error-rate", "1.5"},
        {"--bogus"},         {"--html-errors=yes"}, {"--commits", "0"}, {"--seed", "-1"},
        {"--write-configs"}, {"--write-configs="}};
    for (const auto& args : bad) {
        auto o = parseSimOptions(args);
        ASSERT_FALSE(o) << args.front();
        EXPECT_EQ(o.message().find('\n'), std::string::npos);
        EXPECT_NE(o.message().find(args.front().substr(0, args.front().find('='))),
                  std::string::npos);
    }
}

TEST(SimOptions, NowIsEpochSecondsOrATimestamp)
{
    EXPECT_EQ(parseSimOptions({"--now", "2026-05-04T17:00:00Z"})->config.now, 1777914000);
    EXPECT_EQ(parseSimOptions({"--now=2038-01-20T00:00:00Z"})->config.now, 2147558400);
    for (const char* bad : {"yesterday", "0", "-1", "999999999999"}) { // past 9999
        auto o = parseSimOptions({"--now", bad});
        ASSERT_FALSE(o) << bad;
        EXPECT_NE(o.message().find("--now"), std::string::npos) << o.message();
    }
}

TEST(SimOptions, WriteConfigsTakesAFolder)
{
    auto o = parseSimOptions({"--write-configs", "out/configs", "--commits", "30"});
    ASSERT_TRUE(o) << o.message();
    EXPECT_EQ(o->writeConfigsDir, "out/configs");
    EXPECT_EQ(o->config.commits, 30);
    EXPECT_TRUE(parseSimOptions({})->writeConfigsDir.empty());
    EXPECT_NE(simUsage().find("--write-configs DIR"), std::string::npos);
}

#ifdef RELAYHUD_SIM_BINARY
// Runs relayhud-sim with a pipe on stdin and one on stdout.
struct SimProcess {
    pid_t pid = -1;
    int stdinFd = -1;
    FILE* stdoutFile = nullptr;

    explicit SimProcess(std::vector<std::string> args)
    {
        int in[2];
        int out[2];
        if (pipe(in) != 0 || pipe(out) != 0)
            return;
        pid = fork();
        if (pid == 0) {
            dup2(in[0], STDIN_FILENO);
            dup2(out[1], STDOUT_FILENO);
            close(in[1]);
            close(out[0]);
            std::vector<char*> argv;
            args.insert(args.begin(), RELAYHUD_SIM_BINARY);
            for (auto& a : args)
                argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(argv[0], argv.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        stdinFd = in[1];
        stdoutFile = fdopen(out[0], "r");
    }
    std::string firstLine()
    {
        char buf[256] = {};
        return stdoutFile && std::fgets(buf, sizeof buf, stdoutFile) ? buf : "";
    }
    int wait()
    {
        int status = 0;
        waitpid(pid, &status, 0);
        pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    ~SimProcess()
    {
        if (stdinFd >= 0)
            close(stdinFd);
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        if (stdoutFile)
            std::fclose(stdoutFile);
    }
};

TEST(SimBinary, AnnouncesItsPortAndExitsWhenStdinCloses)
{
    SimProcess sim({"--port", "0", "--exit-on-stdin-eof", "--commits", "40"});
    const std::string line = sim.firstLine();
    std::smatch match;
    ASSERT_TRUE(
        std::regex_match(line, match, std::regex(R"(listening on http://127\.0\.0\.1:(\d+)\n)")))
        << line;
    httplib::Client cli("127.0.0.1", std::stoi(match[1]));
    auto res = cli.Get("/api/crcr/allowlist");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    close(sim.stdinFd);
    sim.stdinFd = -1;
    EXPECT_EQ(sim.wait(), 0);
}

TEST(SimBinary, AnnouncesTheStoreEndpointsAfterTheListeningLine)
{
    SimProcess sim({"--commits", "40", "--github-token", "ghs_fromFlag"});
    std::smatch match;
    const std::string first = sim.firstLine();
    ASSERT_TRUE(
        std::regex_match(first, match, std::regex(R"(listening on (http://127\.0\.0\.1:\d+)\n)")))
        << first;
    const std::string base = match[1];
    EXPECT_EQ(sim.firstLine(), "github api " + base + "/api/v3\n");
    EXPECT_EQ(sim.firstLine(), "s3 endpoint " + base + "/s3\n");
    httplib::Client cli(base);
    auto res = cli.Get("/api/v3/repos/torch-spyre/torch-spyre/actions/runs?per_page=1",
                       {{"Authorization", "Bearer ghs_fromFlag"}});
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("X-RateLimit-Limit"), "5000");
    kill(sim.pid, SIGTERM);
    EXPECT_EQ(sim.wait(), 0);
}

TEST(SimBinary, StopsCleanlyOnSigterm)
{
    SimProcess sim({"--commits", "40"});
    ASSERT_NE(sim.firstLine().find("listening on"), std::string::npos);
    kill(sim.pid, SIGTERM);
    EXPECT_EQ(sim.wait(), 0);
}

TEST(SimBinary, WriteConfigsPrintsRepoAndPathAndExits)
{
    const std::string dir = ::testing::TempDir() + "relayhud-sim-cli-configs";
    SimProcess sim({"--commits", "30", "--write-configs", dir});
    std::vector<std::string> lines;
    for (std::string line = sim.firstLine(); !line.empty(); line = sim.firstLine())
        lines.push_back(line);
    EXPECT_EQ(sim.wait(), 0);
    ASSERT_GE(lines.size(), 5U);
    for (const std::string& line : lines) {
        std::smatch match;
        ASSERT_TRUE(std::regex_match(line, match, std::regex("([^\t/]+/[^\t/]+)\t(.+\\.yaml)\n")))
            << line;
        EXPECT_EQ(match[2].str().rfind(dir, 0), 0U) << line;
        EXPECT_EQ(access(match[2].str().c_str(), R_OK), 0) << line;
        std::remove(match[2].str().c_str());
    }
    rmdir(dir.c_str());
}

TEST(SimBinary, BadFlagExitsWithTwo)
{
    SimProcess sim({"--port", "nope"});
    EXPECT_EQ(sim.firstLine(), "");
    EXPECT_EQ(sim.wait(), 2);
}
#endif

} // namespace
} // namespace relayhud::sim
