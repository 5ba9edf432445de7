// Team triage through a real PostgreSQL the test starts (issue 21): two
// caches tag through one server; a tag write fills the outbox in its own
// transaction; a push cut anywhere (the server killed, or a commit whose
// answer never came) delivers each change exactly once; two edits of one
// field that had not seen each other: the newer wins and both sides list the
// conflict; edits of different fields both stay; a client older than the
// server is refused, and one newer than it told to run init; a role without
// write rights gets a clear error and loses nothing; LISTEN wakes a client.
#include "relayhud/store/team_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/team/team_server.h"
#include "relayhud/team/team_sync.h"

#include "pg_test_server.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <poll.h>

#include <chrono>
#include <set>
#include <thread>

namespace {

using namespace relayhud;
using namespace relayhud::team;
using relayhud::testing::PgTestServer;
using triage::FailureClass;

const Sha kSha{"0123456789abcdef0123456789abcdef01234567"};

TriageTarget target(const std::string& test = "test/x.py::TestX::test_y", int attempt = 1)
{
    return {"torch-spyre/torch-spyre", "pull", "test (1)", kSha, attempt, test};
}

TriageTag tag(const TriageTarget& t, FailureClass cls, std::int64_t ms,
              const std::string& note = {}, const std::string& author = "alice")
{
    TriageTag out;
    out.target = t;
    out.cls = cls;
    out.note = note;
    out.author = author;
    out.timeMs = ms;
    return out;
}

relayhud::testing::TestCache openCache()
{
    auto cache = relayhud::testing::openTestCache(":memory:");
    EXPECT_TRUE(cache) << cache.message();
    return cache ? std::move(*cache) : relayhud::testing::TestCache();
}

TeamServer connectInit(const PgTestServer& pg, const std::string& user = "relayhud")
{
    auto server = TeamServer::connect(pg.conninfo(user));
    EXPECT_TRUE(server) << server.message();
    auto init = server->init();
    EXPECT_TRUE(init) << init.message();
    return std::move(*server);
}

std::optional<TriageTag> tagOf(const Database& cache, const TriageTarget& t)
{
    auto tags = TriageStore(cache).triageTagsFor({t});
    EXPECT_TRUE(tags) << tags.message();
    return tags ? (*tags)[0] : std::nullopt;
}

TeamSyncReport synced(Database& cache, TeamServer& server, const TeamSyncOptions& options = {})
{
    auto report = syncTeam(cache, server, options);
    EXPECT_TRUE(report) << report.message();
    return report ? *report : TeamSyncReport{};
}

TEST(TeamSync, TwoCachesTagThroughOneServer)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    TeamServer a = connectInit(pg);
    TeamServer b = connectInit(pg);
    auto alice = openCache();
    auto bob = openCache();

    // Before joining, a tag is only local: no outbox.
    ASSERT_TRUE(TriageStore(*alice).setTriageTags(
        {tag(target(), FailureClass::Flaky, 1000, "retry passes")}));
    auto before = TeamStore(*alice).teamStatus();
    ASSERT_TRUE(before);
    EXPECT_FALSE(before->joined);
    EXPECT_EQ(before->unsent, 0);

    // The first sync joins and sends what the cache holds: class and note.
    TeamSyncReport first = synced(*alice, a);
    EXPECT_EQ(first.pushed, 2u);
    EXPECT_EQ(first.pulled.own, 2u);
    EXPECT_EQ(first.pulled.applied, 0u);
    EXPECT_EQ(first.user, "relayhud");

    TeamSyncReport got = synced(*bob, b);
    EXPECT_EQ(got.pushed, 0u);
    EXPECT_EQ(got.pulled.applied, 2u);
    ASSERT_EQ(got.pulled.changedTargets.size(), 1u);
    EXPECT_EQ(got.pulled.changedTargets[0], target());
    auto seen = tagOf(*bob, target());
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->cls, FailureClass::Flaky);
    EXPECT_EQ(seen->note, "retry passes");
    EXPECT_EQ(seen->timeMs, 1000);
    // The author is the server's session user, not the name the client had.
    EXPECT_EQ(seen->author, "relayhud");
    auto who = TeamStore(*bob).teamFieldChange(target(), TeamField::Class);
    ASSERT_TRUE(who && *who);
    EXPECT_EQ((*who)->author, "relayhud");
    EXPECT_TRUE((*who)->seq);

    // Now joined: Bob's next tag goes to his outbox with the tag's write, and
    // an undo is a change of its own.
    auto previous =
        TriageStore(*bob).setTriageTags({tag(target("", 1), FailureClass::Infra, 2000)});
    ASSERT_TRUE(previous);
    auto waiting = TeamStore(*bob).teamStatus();
    ASSERT_TRUE(waiting);
    EXPECT_EQ(waiting->unsent, 1);
    EXPECT_EQ(synced(*bob, b).pushed, 1u);
    EXPECT_EQ(synced(*alice, a).pulled.applied, 1u);
    EXPECT_EQ(tagOf(*alice, target("", 1))->cls, FailureClass::Infra);

    ASSERT_TRUE(TriageStore(*bob).restoreTriageTags({target("", 1)}, *previous));
    EXPECT_FALSE(tagOf(*bob, target("", 1)));
    EXPECT_EQ(synced(*bob, b).pushed, 1u);
    synced(*alice, a);
    // Cleared for the team: untriaged, which is how a clearing travels.
    EXPECT_EQ(tagOf(*alice, target("", 1))->cls, FailureClass::Untriaged);

    auto status = TeamStore(*alice).teamStatus();
    ASSERT_TRUE(status);
    EXPECT_EQ(status->unsent, 0);
    EXPECT_GT(status->lastSyncMs, 0);
    EXPECT_EQ(status->lastError, "");
    EXPECT_EQ(pg.query("SELECT count(*) FROM relayhud_change"), "4");
}

TEST(TeamSync, EditsOfOneFieldThatHadNotSeenEachOtherNewestWinsOnBothSides)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    TeamServer a = connectInit(pg);
    TeamServer b = connectInit(pg);
    auto alice = openCache();
    auto bob = openCache();
    synced(*alice, a);
    synced(*bob, b);

    // Offline from each other: both set the class; Alice also writes a
    // note, which nobody else touched.
    ASSERT_TRUE(TriageStore(*alice).setTriageTags(
        {tag(target(), FailureClass::Flaky, 5000, "seen twice")}));
    ASSERT_TRUE(TriageStore(*bob).setTriageTags(
        {tag(target(), FailureClass::Regression, 6000, "", "bob")}));

    synced(*alice, a);
    TeamSyncReport bobs = synced(*bob, b);
    TeamSyncReport alices = synced(*alice, a);

    // Bob's class is newer: it wins on both sides; Alice's note stays on both.
    for (const Database* cache : {alice.get(), bob.get()}) {
        auto t = tagOf(*cache, target());
        ASSERT_TRUE(t);
        EXPECT_EQ(t->cls, FailureClass::Regression);
        EXPECT_EQ(t->note, "seen twice");
    }
    ASSERT_EQ(bobs.pulled.conflicts.size(), 1u);
    EXPECT_FALSE(bobs.pulled.conflicts[0].remoteWon); // his own is newer
    EXPECT_EQ(bobs.pulled.conflicts[0].remote.value, "flaky");
    EXPECT_EQ(bobs.pulled.conflicts[0].local.value, "regression");
    ASSERT_EQ(alices.pulled.conflicts.size(), 1u);
    EXPECT_TRUE(alices.pulled.conflicts[0].remoteWon);
    EXPECT_EQ(alices.pulled.conflicts[0].local.value, "flaky");
    EXPECT_EQ(alices.pulled.conflicts[0].remote.value, "regression");
    for (const Database* cache : {alice.get(), bob.get()}) {
        auto listed = TeamStore(*cache).teamConflicts(10);
        ASSERT_TRUE(listed);
        EXPECT_EQ(listed->size(), 1u);
        EXPECT_EQ(TeamStore(*cache).teamStatus()->conflicts, 1);
    }

    // A change made after seeing the other follows it, whatever its clock
    // says: no conflict, and the later edit wins everywhere.
    ASSERT_TRUE(TriageStore(*alice).setTriageTags({tag(target(), FailureClass::BackendBug, 4000)}));
    synced(*alice, a);
    TeamSyncReport followed = synced(*bob, b);
    EXPECT_TRUE(followed.pulled.conflicts.empty());
    EXPECT_EQ(tagOf(*bob, target())->cls, FailureClass::BackendBug);
    EXPECT_EQ(tagOf(*alice, target())->cls, FailureClass::BackendBug);
}

TEST(TeamSync, ACommitWhoseAnswerNeverCameIsSentOnceAndAKilledServerLosesNothing)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    auto alice = openCache();
    auto bob = openCache();
    {
        TeamServer a = connectInit(pg);
        synced(*alice, a);
    }
    std::vector<TriageTag> tags;
    for (int i = 0; i < 3000; ++i)
        tags.push_back(tag(target("test/t.py::T::test_" + std::to_string(i)), FailureClass::Flaky,
                           10'000 + i));
    ASSERT_TRUE(TriageStore(*alice).setTriageTags(tags));

    // The server commits a batch and the client never hears: pushed by hand,
    // not marked sent. The next sync sends it again, a no-op.
    {
        auto a = TeamServer::connect(pg.conninfo());
        ASSERT_TRUE(a);
        auto firstBatch = TeamStore(*alice).teamOutbox(500);
        ASSERT_TRUE(firstBatch);
        ASSERT_TRUE(a->push(*firstBatch));
    }
    EXPECT_EQ(pg.query("SELECT count(*) FROM relayhud_change"), "500");

    // Then the server dies in the middle of a sync of small batches.
    Result<TeamSyncReport> cut = makeError("not run");
    {
        auto a = TeamServer::connect(pg.conninfo());
        ASSERT_TRUE(a);
        std::jthread killer([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
            pg.kill();
        });
        cut = syncTeam(*alice, *a, TeamSyncOptions{50, 100});
    }
    RecordProperty("cut", cut ? "the sync finished first" : cut.message());
    auto afterCut = TeamStore(*alice).teamStatus();
    ASSERT_TRUE(afterCut);
    if (!cut) {
        EXPECT_NE(afterCut->lastError, "");
        EXPECT_NE(afterCut->lastError.find("team server"), std::string::npos)
            << afterCut->lastError;
    }
    ASSERT_TRUE(pg.start());

    auto a = TeamServer::connect(pg.conninfo());
    ASSERT_TRUE(a) << a.message();
    synced(*alice, *a);
    auto done = TeamStore(*alice).teamStatus();
    ASSERT_TRUE(done);
    EXPECT_EQ(done->unsent, 0);
    EXPECT_EQ(done->lastError, "");
    // Exactly once on the server, and all of it at Bob's.
    EXPECT_EQ(pg.query("SELECT count(*) FROM relayhud_change"), "3000");
    EXPECT_EQ(pg.query("SELECT count(DISTINCT change_id) FROM relayhud_change"), "3000");
    auto b = TeamServer::connect(pg.conninfo());
    ASSERT_TRUE(b);
    TeamSyncReport got = synced(*bob, *b);
    EXPECT_EQ(got.pulled.applied, 3000u);
    auto all = TriageStore(*bob).triageTags();
    ASSERT_TRUE(all);
    EXPECT_EQ(all->size(), 3000u);
}

TEST(TeamSync, ARoleWithoutWriteRightsGetsAClearErrorAndLosesNothing)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    connectInit(pg);
    ASSERT_TRUE(pg.psql("CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public"
                        " TO reader"));
    auto reader = TeamServer::connect(pg.conninfo("reader"));
    ASSERT_TRUE(reader) << reader.message();
    auto cache = openCache();
    ASSERT_TRUE(TriageStore(*cache).setTriageTags(
        {tag(target(), FailureClass::Infra, 1000, "runner died")}));

    auto refused = syncTeam(*cache, *reader);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.message().find("refused role 'reader'"), std::string::npos)
        << refused.message();
    EXPECT_NE(refused.message().find("42501"), std::string::npos) << refused.message();
    EXPECT_NE(refused.message().find("GRANT"), std::string::npos) << refused.message();

    // Nothing lost: the tag is here and its two changes still wait.
    EXPECT_EQ(tagOf(*cache, target())->note, "runner died");
    auto status = TeamStore(*cache).teamStatus();
    ASSERT_TRUE(status);
    EXPECT_EQ(status->unsent, 2);
    EXPECT_EQ(status->lastError, refused.message());
    EXPECT_EQ(pg.query("SELECT count(*) FROM relayhud_change"), "0");

    ASSERT_TRUE(pg.psql("GRANT INSERT ON relayhud_change TO reader;"
                        " GRANT USAGE ON SEQUENCE relayhud_change_seq_seq TO reader"));
    auto granted = syncTeam(*cache, *reader);
    ASSERT_TRUE(granted) << granted.message();
    EXPECT_EQ(granted->pushed, 2u);
    EXPECT_EQ(pg.query("SELECT DISTINCT author FROM relayhud_change"), "reader");
}

TEST(TeamSync, SchemasThatDifferAreRefusedWithWhatToDo)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    auto cache = openCache();
    {
        // A server no one initialised.
        auto bare = TeamServer::connect(pg.conninfo());
        ASSERT_TRUE(bare);
        auto refused = syncTeam(*cache, *bare);
        ASSERT_FALSE(refused);
        EXPECT_NE(refused.message().find("team init"), std::string::npos) << refused.message();
    }
    connectInit(pg);
    // A newer RelayHUD brought the server further: this client must not write.
    ASSERT_TRUE(
        pg.psql("UPDATE relayhud_schema SET version = " + std::to_string(kTeamSchemaVersion + 1)));
    auto server = TeamServer::connect(pg.conninfo());
    ASSERT_TRUE(server);
    ASSERT_TRUE(TriageStore(*cache).setTriageTags({tag(target(), FailureClass::Flaky, 1000)}));
    auto refused = syncTeam(*cache, *server);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.message().find("newer than this RelayHUD knows"), std::string::npos)
        << refused.message();
    EXPECT_EQ(pg.query("SELECT count(*) FROM relayhud_change"), "0");
}

TEST(TeamSync, AListeningClientIsWokenByAColleaguesPush)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    TeamServer listener = connectInit(pg);
    ASSERT_TRUE(listener.listen());
    TeamServer sender = connectInit(pg);
    auto alice = openCache();
    synced(*alice, sender);
    std::vector<TriageTag> tags;
    for (int i = 0; i < 100; ++i)
        tags.push_back(tag(target("t::" + std::to_string(i)), FailureClass::Flaky, 1000 + i));
    ASSERT_TRUE(TriageStore(*alice).setTriageTags(tags));
    synced(*alice, sender);

    pollfd fd{listener.socket(), POLLIN, 0};
    ASSERT_GE(fd.fd, 0);
    ASSERT_EQ(::poll(&fd, 1, 5000), 1);
    auto woken = listener.takeNotifications();
    ASSERT_TRUE(woken) << woken.message();
    // One notification per push statement, not one per change.
    EXPECT_EQ(*woken, 1);

    // A server that dies: the socket turns readable (its farewell, then the
    // end of the stream) and the next read says the connection is gone.
    pg.kill();
    bool lost = false;
    for (int i = 0; i < 10 && !lost; ++i) {
        ::poll(&fd, 1, 500);
        lost = !listener.takeNotifications();
    }
    EXPECT_TRUE(lost);
}

// What other clients wrote is input like any other: a note that is not
// UTF-8 travels as U+FFFD, and rows a newer client (an unknown kind or
// field) or a broken one (no attempt, no repository) wrote are skipped
// without stopping the pull.
TEST(TeamSync, BadOrForeignRowsAreSkippedAndBadTextTravelsReplaced)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    TeamServer a = connectInit(pg);
    TeamServer b = connectInit(pg);
    auto alice = openCache();
    auto bob = openCache();
    ASSERT_TRUE(TriageStore(*alice).setTriageTags(
        {tag(target(), FailureClass::Flaky, 1000,
             std::string("bad \xff\xfe byte; \x1b]52;c;ZXZpbA==\x07 osc"))}));
    synced(*alice, a);
    const std::string row = "INSERT INTO relayhud_change (change_id, kind, repo, workflow, job,"
                            " sha, attempt, test, field, value, client_time) VALUES"
                            " (gen_random_uuid(), ";
    ASSERT_TRUE(pg.psql(row + "'mute', 'o/r', 'w', 'j', 'abc', 1, '', 'muted', 'true', now())"));
    ASSERT_TRUE(pg.psql(row + "'triage', 'o/r', 'w', 'j', 'abc', 1, '', 'colour', '1', now())"));
    // Since schema 3 the server itself refuses an attempt that is no attempt.
    EXPECT_FALSE(pg.psql(row + "'triage', 'o/r', 'w', 'j', 'abc', 0, '', 'class', '1', now())"));
    ASSERT_TRUE(pg.psql(row + "'triage', '', 'w', 'j', 'abc', 1, '', 'class', '1', now())"));
    ASSERT_TRUE(pg.psql(
        row + "'triage', 'o/r', 'w', 'j', 'abc', 1, '', 'class', '\\\"no such class\\\"', now())"));
    ASSERT_TRUE(pg.psql(
        row + "'triage', 'o/r', 'w', 'j', 'abc', 1, '', 'note', '\\\"after the junk\\\"', now())"));

    TeamSyncReport got = synced(*bob, b);
    EXPECT_EQ(got.pulled.skips.total(), 4u) << describeTeamSkips(got.pulled.skips);
    EXPECT_EQ(got.pulled.skips.of(TeamSkip::UnknownKind), 2u);
    EXPECT_EQ(got.pulled.skips.of(TeamSkip::BadTarget), 1u);
    EXPECT_EQ(got.pulled.skips.of(TeamSkip::UnknownClass), 1u);
    auto seen = tagOf(*bob, target());
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->cls, FailureClass::Flaky);
    EXPECT_EQ(seen->note, "bad \xef\xbf\xbd\xef\xbf\xbd byte; \x1b]52;c;ZXZpbA==\x07 osc")
        << "bytes kept as text (terminals and tooltips show controls visibly)";
    // The pull went on past the junk: the last row is applied.
    auto later = tagOf(*bob, {"o/r", "w", "j", Sha{"abc"}, 1, ""});
    ASSERT_TRUE(later);
    EXPECT_EQ(later->note, "after the junk");
    EXPECT_EQ(later->cls, FailureClass::Untriaged);
    auto status = TeamStore(*bob).teamStatus();
    ASSERT_TRUE(status);
    EXPECT_EQ(std::to_string(status->lastSeq.value),
              pg.query("SELECT max(seq) FROM relayhud_change"));
}

TEST(TeamSync, JoiningAnotherTeamStartsOverWithIt)
{
    PgTestServer first;
    PgTestServer second;
    ASSERT_TRUE(first.ok() && second.ok()) << first.error() << second.error();
    auto cache = openCache();
    ASSERT_TRUE(TriageStore(*cache).setTriageTags({tag(target(), FailureClass::Flaky, 1000)}));
    TeamServer one = connectInit(first);
    EXPECT_EQ(synced(*cache, one).pushed, 1u);
    TeamServer two = connectInit(second);
    EXPECT_EQ(synced(*cache, two).pushed, 1u); // the new team gets the cache's tags too
    EXPECT_EQ(second.query("SELECT value #>> '{}' FROM relayhud_change"), "flaky");
    auto status = TeamStore(*cache).teamStatus();
    ASSERT_TRUE(status);
    EXPECT_EQ(status->teamId, second.query("SELECT team_id FROM relayhud_schema"));
}

} // namespace
