// The team server's schema (issue 21) on a real PostgreSQL the test starts:
// init creates it and is idempotent, two clients initialising at once take
// turns, a server with a newer schema is refused, a role that may not
// create tables gets the server's reason, and an unreachable server says so.
#include "relayhud/team/team_server.h"

#include "pg_test_server.h"

#include <gtest/gtest.h>

#include <thread>

namespace {

using namespace relayhud;
using namespace relayhud::team;
using relayhud::testing::PgTestServer;

TEST(TeamServer, InitCreatesTheSchemaOnceAndNamesTheSessionUser)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    auto server = TeamServer::connect(pg.conninfo());
    ASSERT_TRUE(server) << server.message();
    auto before = server->schemaVersion();
    ASSERT_TRUE(before) << before.message();
    EXPECT_EQ(*before, 0);

    auto init = server->init();
    ASSERT_TRUE(init) << init.message();
    EXPECT_EQ(init->before, 0);
    EXPECT_EQ(init->after, kTeamSchemaVersion);
    EXPECT_EQ(init->user, "relayhud");
    EXPECT_NE(init->where.find("/.s.PGSQL."), std::string::npos) << init->where;
    EXPECT_NE(init->where.find("database postgres"), std::string::npos) << init->where;

    auto again = server->init();
    ASSERT_TRUE(again) << again.message();
    EXPECT_EQ(again->before, kTeamSchemaVersion);
    EXPECT_EQ(again->after, kTeamSchemaVersion);
}

TEST(TeamServer, TwoClientsInitialisingAtOnceTakeTurns)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    Result<TeamInit> first = makeError("not run"), second = makeError("not run");
    {
        std::jthread a([&] {
            auto s = TeamServer::connect(pg.conninfo());
            first = s ? s->init() : Result<TeamInit>(s.error());
        });
        std::jthread b([&] {
            auto s = TeamServer::connect(pg.conninfo());
            second = s ? s->init() : Result<TeamInit>(s.error());
        });
    }
    ASSERT_TRUE(first) << first.message();
    ASSERT_TRUE(second) << second.message();
    EXPECT_EQ(first->after, kTeamSchemaVersion);
    EXPECT_EQ(second->after, kTeamSchemaVersion);
}

TEST(TeamServer, ANewerServerSchemaIsRefused)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    {
        auto server = TeamServer::connect(pg.conninfo());
        ASSERT_TRUE(server) << server.message();
        ASSERT_TRUE(server->init());
    }
    const int newer = kTeamSchemaVersion + 1;
    ASSERT_TRUE(pg.psql("UPDATE relayhud_schema SET version = " + std::to_string(newer)));
    auto server = TeamServer::connect(pg.conninfo());
    ASSERT_TRUE(server) << server.message();
    const std::string expected =
        "schema " + std::to_string(newer) + " is newer than this RelayHUD knows";
    auto version = server->schemaVersion();
    ASSERT_FALSE(version);
    EXPECT_NE(version.message().find(expected), std::string::npos) << version.message();
    auto init = server->init();
    ASSERT_FALSE(init);
    EXPECT_NE(init.message().find(expected), std::string::npos) << init.message();
}

TEST(TeamServer, ARoleThatMayNotCreateTablesGetsTheServersReason)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    // PostgreSQL 15: only the database owner may create in schema public.
    ASSERT_TRUE(pg.psql("CREATE ROLE triager LOGIN"));
    auto server = TeamServer::connect(pg.conninfo("triager"));
    ASSERT_TRUE(server) << server.message();
    EXPECT_EQ(server->user(), "triager");
    auto init = server->init();
    ASSERT_FALSE(init);
    EXPECT_NE(init.message().find("refused role 'triager'"), std::string::npos) << init.message();
    EXPECT_NE(init.message().find("SQLSTATE 42501"), std::string::npos) << init.message();
    auto version = server->schemaVersion();
    ASSERT_TRUE(version) << "nothing half-made: " << version.message();
    EXPECT_EQ(*version, 0);
}

TEST(TeamServer, APasswordComesFromTheKeychainOrLibpqAndNeverFromTheSetting)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    ASSERT_TRUE(pg.requirePasswords("s3cret-pw"));
    ::unsetenv("PGPASSWORD");
    ::setenv("PGPASSFILE", "/nonexistent", 1);
    auto none = TeamServer::connect(pg.conninfo(), 2);
    ASSERT_FALSE(none);
    EXPECT_NE(none.message().find("password"), std::string::npos) << none.message();
    auto wrong = TeamServer::connect(pg.conninfo(), 2, "guess");
    ASSERT_FALSE(wrong);
    EXPECT_NE(wrong.message().find("password authentication failed"), std::string::npos)
        << wrong.message();
    // The keychain's password.
    auto keychain = TeamServer::connect(pg.conninfo(), 2, "s3cret-pw");
    ASSERT_TRUE(keychain) << keychain.message();
    EXPECT_EQ(keychain->where().find("s3cret"), std::string::npos);
    // libpq's own PGPASSWORD when the keychain has none.
    ::setenv("PGPASSWORD", "s3cret-pw", 1);
    auto environment = TeamServer::connect(pg.conninfo(), 2);
    ::unsetenv("PGPASSWORD");
    ::unsetenv("PGPASSFILE");
    ASSERT_TRUE(environment) << environment.message();

    // The setting itself never holds one, and must be something libpq reads.
    EXPECT_EQ(serverSettingProblem(pg.conninfo()), "");
    EXPECT_EQ(serverSettingProblem("postgresql://alice@db.example.org/triage?sslmode=verify-full"),
              "");
    EXPECT_NE(serverSettingProblem(pg.conninfo() + " password=s3cret-pw").find("keychain"),
              std::string::npos);
    EXPECT_NE(
        serverSettingProblem("postgresql://alice:s3cret@db.example.org/triage").find("keychain"),
        std::string::npos);
    EXPECT_NE(serverSettingProblem("host=db port").find("not a libpq conninfo"), std::string::npos);
}

// TLS is libpq's: the conninfo's sslmode is honoured as given. verify-full
// checks the chain against sslrootcert and the host name against the
// certificate; a client's setting is never weakened.
TEST(TeamServer, VerifyFullChecksTheCertificateChainAndTheHostName)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    if (!pg.startWithTls())
        GTEST_SKIP() << "no openssl or no free port for a TLS server here";
    auto verified = TeamServer::connect(
        pg.tcpConninfo("localhost", "sslmode=verify-full sslrootcert=" + pg.caFile()), 5);
    ASSERT_TRUE(verified) << verified.message();
    ASSERT_TRUE(verified->init()) << "a TLS connection works like any other";
    EXPECT_EQ(pg.query("SELECT count(*) FROM pg_stat_ssl WHERE ssl"), "1")
        << "our connection, the only one over TLS";

    auto wrongHost = TeamServer::connect(
        pg.tcpConninfo("127.0.0.1", "sslmode=verify-full sslrootcert=" + pg.caFile()), 5);
    ASSERT_FALSE(wrongHost);
    EXPECT_NE(wrongHost.message().find("does not match host name"), std::string::npos)
        << wrongHost.message();
    auto wrongCa = TeamServer::connect(
        pg.tcpConninfo("localhost", "sslmode=verify-full sslrootcert=" + pg.otherCaFile()), 5);
    ASSERT_FALSE(wrongCa);
    EXPECT_NE(wrongCa.message().find("certificate verify failed"), std::string::npos)
        << wrongCa.message();
}

TEST(TeamServer, AStoppedServerIsAClearError)
{
    PgTestServer pg;
    ASSERT_TRUE(pg.ok()) << pg.error();
    ASSERT_TRUE(pg.stop());
    auto server = TeamServer::connect(pg.conninfo(), 2);
    ASSERT_FALSE(server);
    EXPECT_EQ(server.message().rfind("cannot reach the team server: ", 0), 0u) << server.message();
}

} // namespace
