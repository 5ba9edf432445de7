// A teammate with SQL access writes what they like into the team server
// (issue 35). Against a real PostgreSQL the test starts: hostile rows
// inserted directly (an infinite or far-future time, a seq of 10^12, a path
// for a SHA, a javascript: link, oversized fields, an unknown class) are
// skipped and counted by every pull, never stored and never a stop, and two
// caches end in the same honest state that exports and imports again; a
// schema-3 server overrides seq, author and time itself and refuses what is
// oversized; a lock held by another session is a one-line error within the
// timeout that names who holds it.
#include "relayhud/store/team_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/team/team_row.h"
#include "relayhud/team/team_server.h"
#include "relayhud/team/team_sync.h"
#include "relayhud/triage/triage_exchange.h"
#include "relayhud/util/time.h"

#include "pg_test_server.h"
#include "test_results_fixtures.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

using namespace relayhud;
using namespace relayhud::team;
using relayhud::testing::PgTestServer;
using triage::FailureClass;

const Sha kGoodSha{"0123456789abcdef0123456789abcdef01234567"};
const TriageTarget kTarget{"torch-spyre/torch-spyre", "pull", "test (1)", kGoodSha, 1, "t::a"};

relayhud::testing::TestCache freshCache()
{
    auto cache = relayhud::testing::openTestCache(":memory:");
    EXPECT_TRUE(cache) << cache.message();
    return cache ? std::move(*cache) : relayhud::testing::TestCache();
}

TriageTag localTag(const TriageTarget& t, FailureClass cls, std::int64_t ms,
                   const std::string& note)
{
    TriageTag out;
    out.target = t;
    out.cls = cls;
    out.note = note;
    out.author = "alice";
    out.timeMs = ms;
    return out;
}

TeamServer connected(const PgTestServer& pg, const std::string& user = "relayhud", int timeout = 10)
{
    auto server = TeamServer::connect(pg.conninfo(user), timeout);
    EXPECT_TRUE(server) << server.message();
    return std::move(*server);
}

// A teammate's own login, allowed what a team grants: read and append.
bool addTeammate(const PgTestServer& pg, const std::string& name)
{
    return pg.psql("CREATE ROLE " + name + " LOGIN; GRANT SELECT, INSERT ON relayhud_change TO "
                   + name + "; GRANT SELECT ON relayhud_schema TO " + name
                   + "; GRANT USAGE ON SEQUENCE relayhud_change_seq_seq TO " + name);
}

// Runs SQL through psql as `user`, as a teammate at a terminal would.
bool psqlAs(const PgTestServer& pg, const std::string& user, const std::string& sql)
{
    return std::system(("psql -q -v ON_ERROR_STOP=1 '" + pg.conninfo(user) + "' -c \"" + sql
                        + "\" >/dev/null 2>&1")
                           .c_str())
           == 0;
}

// One row of the change log as a teammate writes it; `extra` names more
// columns and `extraValues` their values.
std::string insertRow(const std::string& job, const std::string& sha, const std::string& field,
                      const std::string& value, const std::string& time,
                      const std::string& extra = {}, const std::string& extraValues = {})
{
    return "INSERT INTO relayhud_change (change_id, kind, repo, workflow, job, sha, attempt, test,"
           " field, value, client_time"
           + extra + ") VALUES (gen_random_uuid(), 'triage', 'torch-spyre/torch-spyre', 'pull', "
           + job + ", " + sha + ", 1, 't::a', '" + field + "', to_jsonb(" + value + "::text), "
           + time + extraValues + ")";
}

struct Honest {
    std::vector<TriageTag> tags;
    TeamSyncReport report;
};

Honest syncFresh(TeamServer& server)
{
    auto cache = freshCache();
    auto report = syncTeam(*cache, server);
    EXPECT_TRUE(report) << report.message();
    auto tags = TriageStore(*cache).triageTags();
    EXPECT_TRUE(tags) << tags.message();
    // What a pull stored exports and imports again into another cache.
    auto other = freshCache();
    auto imported = triage::importTriageJson(*other, triage::exportTriageJson(*tags));
    EXPECT_TRUE(imported) << imported.message();
    return {tags ? *tags : std::vector<TriageTag>{}, report ? *report : TeamSyncReport{}};
}

TEST(TeamHostile, RowsATeammateWroteAreSkippedCountedAndTwoCachesAgree)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    // The server as the last RelayHUD left it (schema 2), then written to.
    {
        TeamServer owner = connected(pg);
        ASSERT_TRUE(owner.init(2));
    }
    ASSERT_TRUE(addTeammate(pg, "mallory"));
    auto alice = freshCache();
    ASSERT_TRUE(TriageStore(*alice).setTriageTags(
        {localTag(kTarget, FailureClass::Flaky, 1000, "retry passes")}));
    const std::string job = "'test (1)'", sha = "'" + kGoodSha.value + "'";
    const std::string now = "now()";
    for (const std::string& row : {
             insertRow(job, sha, "note", "'forever'", "'infinity'"),
             insertRow(job, sha, "class", "'infra'", "'9999-01-01'"),
             insertRow(job, "E'../x\\\\x01'", "class", "'infra'", now),
             insertRow(job, sha, "bug", "'javascript:alert(1)'", now),
             insertRow("repeat('j', 2000000)", sha, "class", "'infra'", now),
             insertRow(job, sha, "note", "repeat('n', 100000)", now),
             insertRow(job, sha, "class", "'no such class'", now),
             insertRow(job, sha, "class", "'infra'", now, ", seq", ", 1000000000000"),
         })
        ASSERT_TRUE(psqlAs(pg, "mallory", row)) << row.substr(0, 300);
    EXPECT_EQ(pg.query("SELECT count(*) FROM relayhud_change"), "8");

    // `team init` upgrades the server with the rows on it.
    {
        TeamServer owner = connected(pg);
        auto upgraded = owner.init();
        ASSERT_TRUE(upgraded) << upgraded.message();
        EXPECT_EQ(upgraded->before, 2);
        EXPECT_EQ(upgraded->after, kTeamSchemaVersion);
    }
    // An honest change after all of them (its seq far below 10^12).
    TeamServer a = connected(pg);
    auto pushed = syncTeam(*alice, a);
    ASSERT_TRUE(pushed) << pushed.message();
    EXPECT_TRUE(pushed->pulled.conflicts.empty()) << "an invalid class is no conflict";

    TeamServer b = connected(pg);
    TeamServer c = connected(pg);
    const Honest bob = syncFresh(b);
    const Honest carol = syncFresh(c);
    ASSERT_EQ(bob.tags.size(), 1u);
    EXPECT_EQ(bob.tags, carol.tags);
    EXPECT_EQ(bob.tags[0].cls, FailureClass::Flaky) << "nor 9999's nor a forged seq's infra";
    EXPECT_EQ(bob.tags[0].note, "retry passes");
    EXPECT_EQ(bob.tags[0].bugUrl, "");
    for (const Honest* h : {&bob, &carol}) {
        const TeamSkips& s = h->report.pulled.skips;
        EXPECT_EQ(s.of(TeamSkip::BadTime), 2u);
        EXPECT_EQ(s.of(TeamSkip::BadSha), 1u);
        EXPECT_EQ(s.of(TeamSkip::BadLink), 1u);
        EXPECT_EQ(s.of(TeamSkip::Oversized), 2u);
        EXPECT_EQ(s.of(TeamSkip::UnknownClass), 1u);
        EXPECT_EQ(s.of(TeamSkip::ForgedSeq), 1u);
        EXPECT_TRUE(h->report.pulled.conflicts.empty());
        EXPECT_EQ(h->report.pulled.applied, 2u);
        EXPECT_LT(h->report.lastSeq.value, 1'000'000'000'000);
    }
    EXPECT_EQ(describeTeamSkips(bob.report.pulled.skips),
              "skipped 8 changes the team server holds that this RelayHUD cannot use (2 bad "
              "times, 2 oversized, 1 unknown class, 1 invalid SHA, 1 invalid link, 1 with a seq "
              "the server never gave)");

    // A later honest change still arrives: the pull never jumped to 10^12.
    ASSERT_TRUE(TriageStore(*alice).setTriageTags(
        {localTag(kTarget, FailureClass::Infra, 2000, "runner died")}));
    ASSERT_TRUE(syncTeam(*alice, a));
    auto again = freshCache();
    auto report = syncTeam(*again, b);
    ASSERT_TRUE(report) << report.message();
    auto tags = TriageStore(*again).triageTags();
    ASSERT_TRUE(tags && tags->size() == 1u);
    EXPECT_EQ((*tags)[0].cls, FailureClass::Infra);
    EXPECT_EQ((*tags)[0].note, "runner died");
    auto status = TeamStore(*again).teamStatus();
    ASSERT_TRUE(status);
    EXPECT_EQ(status->skipped, report->pulled.skips) << "kept for `team status`";
}

// The server stamps rows with its own clock: the exports of this test are
// imported at that time, not at the suite's pinned "now".
struct RealClock {
    RealClock()
    {
        pinClock(std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count());
    }
    ~RealClock() { relayhud::test::pinTestClock(); }
};

TEST(TeamHostile, ASchema3ServerSetsSeqAuthorAndTimeItselfAndRefusesOversizedRows)
{
    const RealClock realClock;
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    {
        TeamServer owner = connected(pg);
        ASSERT_TRUE(owner.init());
    }
    ASSERT_TRUE(addTeammate(pg, "mallory"));
    const std::string job = "'test (1)'", sha = "'" + kGoodSha.value + "'";
    // Claims seq 10^12, Alice's name and the year 9999: the server keeps none.
    ASSERT_TRUE(psqlAs(pg, "mallory",
                       insertRow(job, sha, "note", "'mine'", "'9999-01-01'", ", seq, author",
                                 ", 1000000000000, 'alice'")));
    EXPECT_EQ(pg.query("SELECT seq < 1000, author, client_time <= now() + interval '5 minutes'"
                       " FROM relayhud_change"),
              "t|mallory|t");
    ASSERT_TRUE(psqlAs(pg, "mallory", insertRow(job, sha, "note", "'x'", "'infinity'")));
    EXPECT_EQ(pg.query("SELECT bool_and(isfinite(client_time)) FROM relayhud_change"), "t");
    // Refused outright: no time at all, and fields over their limits.
    EXPECT_FALSE(psqlAs(pg, "mallory", insertRow(job, sha, "note", "'x'", "'-infinity'")));
    EXPECT_FALSE(
        psqlAs(pg, "mallory", insertRow("repeat('j', 2000000)", sha, "class", "'infra'", "now()")));
    EXPECT_FALSE(psqlAs(pg, "mallory", insertRow(job, sha, "note", "repeat('n', 70000)", "now()")));
    EXPECT_FALSE(psqlAs(pg, "mallory", insertRow(job, "repeat('a', 101)", "note", "'x'", "now()")));
    EXPECT_EQ(pg.query("SELECT count(*) FROM relayhud_change"), "2");

    TeamServer b = connected(pg);
    TeamServer c = connected(pg);
    const Honest bob = syncFresh(b);
    const Honest carol = syncFresh(c);
    ASSERT_EQ(bob.tags.size(), 1u);
    EXPECT_EQ(bob.tags, carol.tags);
    EXPECT_EQ(bob.tags[0].author, "mallory");
    EXPECT_LE(bob.tags[0].timeMs, nowMilliseconds() + 5 * 60 * 1000 + 1000);
    EXPECT_EQ(bob.report.pulled.skips.total(), 0u) << describeTeamSkips(bob.report.pulled.skips);
}

TEST(TeamHostile, ALockHeldByAnotherSessionIsAOneLineErrorWithinTheTimeout)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    {
        TeamServer owner = connected(pg);
        ASSERT_TRUE(owner.init());
    }
    ASSERT_TRUE(addTeammate(pg, "mallory"));
    // Mallory holds the append lock and sits on it.
    std::jthread holder([&] {
        (void)std::system(("psql -q '" + pg.conninfo("mallory")
                           + " application_name=holdout' -c 'SELECT pg_advisory_lock(7365827402),"
                             " pg_sleep(60)' >/dev/null 2>&1")
                              .c_str());
    });
    for (int i = 0; i < 100
                    && pg.query("SELECT count(*) FROM pg_locks WHERE locktype ="
                                " 'advisory' AND granted")
                           != "1";
         ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));

    auto cache = freshCache();
    TeamServer server = connected(pg, "relayhud", 2);
    ASSERT_TRUE(syncTeam(*cache, server)) << "joining takes no lock";
    ASSERT_TRUE(
        TriageStore(*cache).setTriageTags({localTag(kTarget, FailureClass::Flaky, 1000, "")}));
    const auto started = std::chrono::steady_clock::now();
    auto refused = syncTeam(*cache, server);
    const auto took = std::chrono::steady_clock::now() - started;
    pg.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
             " WHERE application_name = 'holdout'");
    ASSERT_FALSE(refused);
    EXPECT_LT(took, std::chrono::milliseconds(3500));
    EXPECT_EQ(refused.message().find('\n'), std::string::npos) << refused.message();
    EXPECT_NE(refused.message().find("append lock is held by role 'mallory' (application "
                                     "'holdout', from a local socket, pid "),
              std::string::npos)
        << refused.message();
    EXPECT_NE(refused.message().find("gave up after 2 s"), std::string::npos) << refused.message();
    auto status = TeamStore(*cache).teamStatus();
    ASSERT_TRUE(status);
    EXPECT_EQ(status->unsent, 1) << "nothing lost: the change waits";

    // Once the lock is free, the same connection sends it.
    auto sent = syncTeam(*cache, server);
    ASSERT_TRUE(sent) << sent.message();
    EXPECT_EQ(sent->pushed, 1u);
}

// A local note over the limit would be refused by the server (schema 3) and
// skipped by every pull: it is not sent, and the changes behind it are.
TEST(TeamHostile, ALocalChangeTheServerWouldRefuseIsNotSentAndHoldsUpNothing)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    TeamServer server = connected(pg);
    ASSERT_TRUE(server.init());
    auto cache = freshCache();
    ASSERT_TRUE(TriageStore(*cache).setTriageTags(
        {localTag(kTarget, FailureClass::Flaky, 1000, std::string(70'000, 'n'))}));
    auto first = syncTeam(*cache, server);
    ASSERT_TRUE(first) << first.message();
    EXPECT_EQ(first->pushed, 1u);
    EXPECT_EQ(first->unsendable, 1u);
    EXPECT_EQ(first->unsendableWhy, "\"note\" is 70000 bytes; the limit is 65536");
    EXPECT_EQ(pg.query("SELECT string_agg(field, ',') FROM relayhud_change"), "class");
    ASSERT_TRUE(
        TriageStore(*cache).setTriageTags({localTag(kTarget, FailureClass::Infra, 2000, "short")}));
    auto second = syncTeam(*cache, server);
    ASSERT_TRUE(second) << second.message();
    EXPECT_EQ(second->pushed, 2u);
    EXPECT_EQ(second->unsendable, 0u);
    EXPECT_EQ(TeamStore(*cache).teamStatus()->unsent, 0);
}

// The row decoding a pull runs (team/team_row.h), on hand-made rows.
TEST(TeamHostile, DecodingARowNamesWhyItCannotBeUsed)
{
    const TeamRowText good{"7",
                           "0f0e0d0c-0000-4000-8000-000000000001",
                           "triage",
                           "o/r",
                           "pull",
                           "test (1)",
                           kGoodSha.value,
                           "1",
                           "",
                           "class",
                           "flaky",
                           "1779999999000",
                           "alice",
                           "6",
                           "1780000000000"};
    const DecodedTeamRow ok = decodeTeamRow(good);
    ASSERT_TRUE(ok.change);
    EXPECT_EQ(ok.seq, TeamSeq{7});
    EXPECT_EQ(ok.change->value, "flaky");
    EXPECT_EQ(ok.change->baseSeq, TeamSeq{6});

    struct Case {
        void (*edit)(TeamRowText&);
        TeamSkip why;
    };
    const Case cases[] = {
        {[](TeamRowText& r) { r.clientMs.reset(); }, TeamSkip::BadTime},
        {[](TeamRowText& r) { r.clientMs = "253370764800000"; }, TeamSkip::BadTime},
        {[](TeamRowText& r) { r.clientMs = "1780086400001"; }, TeamSkip::BadTime},
        {[](TeamRowText& r) { r.receivedMs.reset(); }, TeamSkip::BadTime},
        {[](TeamRowText& r) { r.clientMs = "-5"; }, TeamSkip::BadTime},
        {[](TeamRowText& r) { r.job.reset(); }, TeamSkip::Oversized},
        {[](TeamRowText& r) { r.field = "colour"; }, TeamSkip::UnknownKind},
        {[](TeamRowText& r) { r.value = "no such class"; }, TeamSkip::UnknownClass},
        {[](TeamRowText& r) { r.sha = "../x\x01"; }, TeamSkip::BadSha},
        {[](TeamRowText& r) {
             r.field = "bug";
             r.value = "javascript:alert(1)";
         },
         TeamSkip::BadLink},
        {[](TeamRowText& r) { r.attempt = "0"; }, TeamSkip::BadTarget},
        {[](TeamRowText& r) { r.workflow = ""; }, TeamSkip::BadTarget},
        {[](TeamRowText& r) { r.kind = "mute"; }, TeamSkip::UnknownKind},
    };
    for (const Case& c : cases) {
        TeamRowText row = good;
        c.edit(row);
        const DecodedTeamRow bad = decodeTeamRow(row);
        EXPECT_FALSE(bad.change) << teamSkipSlug(c.why);
        EXPECT_EQ(bad.skip, c.why) << teamSkipSlug(c.why) << " gave " << teamSkipSlug(bad.skip);
        EXPECT_EQ(bad.seq, TeamSeq{7}) << "a skipped row still moves the pull on";
    }
    TeamRowText noSeq = good;
    noSeq.seq = "x";
    EXPECT_FALSE(decodeTeamRow(noSeq).seq);
    TeamRowText aDayAhead = good;
    aDayAhead.clientMs = "1780086400000";
    EXPECT_TRUE(decodeTeamRow(aDayAhead).change)
        << "a day past its arrival is a clock, not a forgery";
}

} // namespace
