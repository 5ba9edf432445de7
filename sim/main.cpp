// relayhud-sim: the local HUD simulator. Serves until SIGINT/SIGTERM, or until
// stdin closes with --exit-on-stdin-eof, so a parent never leaves it orphaned.
#include "relayhud/sim/sim_configs.h"
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_options.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/sim/sim_truth.h"

#include <csignal>
#include <cstdio>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

// Turns stdin's end into SIGTERM, which the main thread is waiting for.
void watchStdin()
{
    std::thread([] {
        char buf[256];
        while (read(STDIN_FILENO, buf, sizeof buf) > 0) {
        }
        kill(getpid(), SIGTERM);
    }).detach();
}

// The outcome configs the simulated backends run under, for the verdict.
int writeConfigs(const relayhud::sim::SimDataset& dataset, const std::string& dir)
{
    const auto written = relayhud::sim::writeOutcomeConfigs(dataset, dir);
    if (!written) {
        std::fprintf(stderr, "relayhud-sim: %s\n", written.message().c_str());
        return 1;
    }
    for (const auto& [repo, path] : *written)
        std::printf("%s\t%s\n", repo.c_str(), path.c_str());
    return 0;
}

// Serves until SIGINT/SIGTERM (or stdin's end with --exit-on-stdin-eof).
int serve(relayhud::sim::SimDataset dataset, const relayhud::sim::SimOptions& options)
{
    using namespace relayhud::sim;
    // Block the stop signals before any thread exists so that every thread
    // inherits the mask and only sigwait below receives them.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGPIPE, SIG_IGN); // a client hanging up must not kill the server

    SimServer server(std::move(dataset), options.faults, options.stores);
    if (server.start(options.port) < 0) {
        std::fprintf(stderr, "relayhud-sim: cannot listen on 127.0.0.1:%d\n", options.port);
        return 1;
    }
    std::printf("listening on %s\n", server.baseUrl().c_str());
    std::printf("github api %s\n", server.githubApiUrl().c_str());
    std::printf("s3 endpoint %s\n", server.s3Endpoint().c_str());
    std::fflush(stdout);
    const auto& data = server.dataset();
    std::fprintf(stderr, "relayhud-sim: seed %llu, %zu commits, %zu rows, %zu backends\n",
                 static_cast<unsigned long long>(data.config.seed), data.commits.size(),
                 data.rows.size(), data.backends.size());
    if (options.exitOnStdinEof)
        watchStdin();
    int received = 0;
    sigwait(&stopSignals, &received);
    server.stop();
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace relayhud::sim;
    const auto options = parseSimOptions(std::vector<std::string>(argv + 1, argv + argc));
    if (!options) {
        std::fprintf(stderr, "relayhud-sim: %s\n", options.message().c_str());
        return 2;
    }
    if (options->help) {
        std::fputs(simUsage().c_str(), stdout);
        return 0;
    }
    // A world as of --now is served by a server whose clock reads the same:
    // signed URLs, rate-limit windows and Last-Modified agree with the rows.
    if (options->config.now != 0)
        relayhud::pinClock(options->config.now);
    if (!options->writeTruthFile.empty() || !options->writeConfigsDir.empty()) {
        // One world for the truth, the configs and what is served.
        SimDataset dataset = buildDataset(options->config);
        if (!options->writeTruthFile.empty()) {
            const auto written = writeTruthFile(dataset, options->writeTruthFile);
            if (!written) {
                std::fprintf(stderr, "relayhud-sim: %s\n", written.message().c_str());
                return 1;
            }
        }
        if (!options->writeConfigsDir.empty())
            return writeConfigs(dataset, options->writeConfigsDir);
        return serve(std::move(dataset), *options);
    }
    return serve(buildDataset(options->config), *options);
}
