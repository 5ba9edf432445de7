// Cold start: launching relayhud on a filled cache until its window has
// painted the matrix (the app prints "first paint" and exits when started
// with --exit-after-paint), <= 3x the reference: `relayhud --version`, the
// cost of starting the process and loading Qt without a window. Both are the
// best of 3 launches.
#include "bench_sections.h"

#include "relayhud/sim/sim_server.h"
#include "relayhud/store/database.h"
#include "relayhud/sync/hud_sync.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace relayhud::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Runs a command, returns its wall time in ms, or -1 when it failed.
double timeCommand(const std::string& command)
{
    const auto start = Clock::now();
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return -1;
    char line[512];
    std::string out;
    while (std::fgets(line, sizeof line, pipe))
        out += line;
    const int rc = ::pclose(pipe);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (rc != 0) {
        std::fprintf(stderr, "'%s' failed (%d): %s\n", command.c_str(), rc, out.c_str());
        return -1;
    }
    return ms;
}

} // namespace

void benchColdStart(Report& report, const std::string& binDir)
{
    sim::SimServer server(sim::buildDataset(sim::SimConfig{}));
    if (server.start(0) <= 0)
        return;
    const auto dir = std::filesystem::temp_directory_path() / "relayhud-bench-start";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string cachePath = (dir / "cache.sqlite").string();
    {
        auto cache = Database::open(cachePath);
        HttpClient http;
        HudClient hud(http, server.baseUrl());
        HudSync sync(hud, **cache);
        SyncOptions options;
        options.days = 30;
        if (!cache || !sync.run(options))
            return;
    }
    const std::string app = binDir + "/relayhud";
    const std::string env = "QT_QPA_PLATFORM=offscreen ";
    double version = 1e9; // best of 3 as well: both are a process start
    for (int i = 0; i < 3; ++i)
        version = std::min(version, timeCommand(env + app + " --version > /dev/null"));
    double best = 1e9;
    for (int i = 0; i < 3; ++i) {
        const double ms = timeCommand(env + app + " --cache " + cachePath + " --hud "
                                      + server.baseUrl() + " --exit-after-paint");
        if (ms < 0)
            return;
        best = std::min(best, ms);
    }
    report.add({"cold start to a painted matrix (best of 3)", best, "ms", 0, "relayhud --version",
                version, 3.0});
    if (std::getenv("RELAYHUD_BENCH_KEEP"))
        std::printf("  kept %s (RELAYHUD_BENCH_KEEP)\n", cachePath.c_str());
    else
        std::filesystem::remove_all(dir);
}

} // namespace relayhud::bench
