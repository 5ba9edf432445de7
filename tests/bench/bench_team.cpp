// A team's shared triage (issue 21): 10,000 tags pushed from one cache and
// pulled into another through a real PostgreSQL the bench starts (the tests'
// throwaway server, tests/core/pg_test_server.h), <= 1 s together, beside a
// bare COPY of the same rows through psql (process start included, as the
// reference was measured in docs/team-server-notes.md).
//   push: the first sync of a cache holding the tags (join queues them, the
//         outbox goes in batches, the cache's own changes come back)
//   pull: the first sync of an empty cache (10,000 changes applied)
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/store/database.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/team/team_server.h"
#include "relayhud/team/team_sync.h"

#include "pg_test_server.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace relayhud::bench {

void benchTeam(Report& report)
{
    const int count = envNumber("RELAYHUD_BENCH_TEAM_TAGS", 10'000);
    relayhud::testing::PgTestServer pg;
    if (!pg.ok()) {
        std::printf("  team: no throwaway PostgreSQL (%s); skipped\n", pg.error().c_str());
        return;
    }
    auto server = team::TeamServer::connect(pg.conninfo());
    if (!server || !server->init()) {
        std::printf("  team: cannot initialise the server; skipped\n");
        return;
    }
    const std::filesystem::path dir = std::filesystem::temp_directory_path()
                                      / ("relayhud-bench-team-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto alice = Database::open((dir / "alice.sqlite").string());
    auto bob = Database::open((dir / "bob.sqlite").string());
    if (!alice || !bob) {
        std::printf("  team: cannot open the caches\n");
        return;
    }
    std::vector<TriageTag> tags;
    tags.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        TriageTag tag;
        tag.target = {"torch-spyre/torch-spyre",
                      "pull",
                      "test (" + std::to_string(i % 4 + 1) + ")",
                      Sha{"0123456789abcdef0123456789abcdef0123" + std::to_string(1000 + i / 100)},
                      1,
                      "test/test_ops.py::TestOps::test_case_" + std::to_string(i)};
        tag.cls = i % 3 == 0 ? triage::FailureClass::Flaky : triage::FailureClass::Infra;
        tag.author = "alice";
        tag.timeMs = 1'764'000'000'000 + i;
        tags.push_back(std::move(tag));
    }
    if (!TriageStore(**alice).setTriageTags(tags)) {
        std::printf("  team: cannot store the tags\n");
        return;
    }

    auto start = Clock::now();
    auto pushed = team::syncTeam(**alice, *server);
    const double pushMs = msSince(start);
    auto other = team::TeamServer::connect(pg.conninfo());
    start = Clock::now();
    auto pulled =
        other ? team::syncTeam(**bob, *other) : Result<team::TeamSyncReport>(other.error());
    const double pullMs = msSince(start);
    if (!pushed || !pulled || pushed->pushed != static_cast<std::size_t>(count)
        || pulled->pulled.applied != static_cast<std::size_t>(count)) {
        std::printf("  team: the sync failed: %s\n", !pushed   ? pushed.message().c_str()
                                                     : !pulled ? pulled.message().c_str()
                                                               : "not every change arrived");
        return;
    }

    // The reference: the same rows, COPY'd into a table of the same columns.
    const std::filesystem::path rows = dir / "rows.tsv";
    {
        std::ofstream out(rows);
        for (const TriageTag& tag : tags)
            out << tag.target.repo << '\t' << tag.target.workflow << '\t' << tag.target.job << '\t'
                << tag.target.sha.value << '\t' << tag.target.attempt << '\t' << tag.target.test
                << "\tclass\t\"" << triage::failureClassName(tag.cls) << "\"\n";
    }
    std::filesystem::permissions(dir, std::filesystem::perms::all);
    std::filesystem::permissions(rows, std::filesystem::perms::all);
    pg.psql("CREATE TABLE copy_reference (repo text, workflow text, job text, sha text, attempt"
            " integer, test text, field text, value jsonb)");
    const std::string copy = "psql -X -q '" + pg.conninfo() + "' -c \"\\copy copy_reference FROM '"
                             + rows.string() + "'\" >/dev/null 2>&1";
    start = Clock::now();
    const int rc = std::system(copy.c_str());
    const double copyMs = msSince(start);

    const std::string what = std::to_string(count) + " tags";
    report.add({"team: push " + what + " (first sync)", pushMs, "ms", 1000, "", 0});
    report.add({"team: pull " + what + " (first sync)", pullMs, "ms", 1000, "", 0});
    report.add({"team: push + pull " + what, pushMs + pullMs, "ms", 1000,
                rc == 0 ? "psql \\copy of the same rows" : "psql \\copy failed",
                rc == 0 ? copyMs : 0});
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
}

} // namespace relayhud::bench
