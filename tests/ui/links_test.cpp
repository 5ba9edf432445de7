// App links (relayhud://sha|pr|run): parsing, the links "Copy link" writes,
// where each points in a hand-made matrix, and what Ctrl+K's index matches.
#include "relayhud/ui/jump/jump_index.h"
#include "relayhud/ui/links/app_link.h"
#include "relayhud/ui/links/link_target.h"

#include "test_support.h"

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;
using ::testing::HasSubstr;

namespace {

const QString kShaA = QStringLiteral("1a2b3c4d5e6f708192a3b4c5d6e7f80910a1b2c3");

std::string message(const Result<AppLink>& parsed)
{
    return parsed ? std::string("(parsed)") : parsed.message();
}

CheckRun checkRun(const std::string& repo, const std::string& job, const std::string& sha,
                  const std::string& id)
{
    CheckRun run;
    run.downstreamRepo = repo;
    run.workflow = "CI";
    run.jobName = job;
    run.upstreamSha = Sha{sha};
    run.checkRunId = CheckRunId{id};
    return run;
}

// Three commits (newest first; PR 7 has two heads, the newer first) and three
// columns of two backends.
MatrixSnapshot matrix()
{
    using namespace relayhud::ui::test;
    std::vector<MatrixColumn> columns{column("org/spyre", "build", 1),
                                      column("org/spyre", "test (default, 1, 2)", 2),
                                      column("org/ascend", "test", 3)};
    for (auto& c : columns)
        c.workflow = "CI";
    MatrixSnapshot snap =
        snapshot({commit(kShaA.toStdString(), 300, 7),
                  commit("1a2b999999999999999999999999999999999999", 200, 8),
                  commit("ffff000000000000000000000000000000000000", 100, 7),
                  commit("nightly-2026-01-02", 50, 0, "main", EventType::Nightly)},
                 columns);
    setCell(snap, 1, 1, cell(Conclusion::Failure, 11));
    setCell(snap, 2, 1, cell(Conclusion::Success, 12));
    return snap;
}

} // namespace

TEST(AppLinkParse, ReadsEachKind)
{
    auto sha = parseAppLink(QStringLiteral("relayhud://sha/1A2B3C4"));
    ASSERT_TRUE(sha) << sha.message();
    EXPECT_EQ(sha->kind, AppLink::Kind::Commit);
    EXPECT_EQ(sha->sha, QStringLiteral("1a2b3c4"));

    auto pr = parseAppLink(QStringLiteral("  relayhud://pr/151234/  "));
    ASSERT_TRUE(pr) << pr.message();
    EXPECT_EQ(pr->kind, AppLink::Kind::PullRequest);
    EXPECT_EQ(pr->pr, PrNumber{151234});
    auto hashed = parseAppLink(QStringLiteral("relayhud://pr/%23151234"));
    ASSERT_TRUE(hashed) << hashed.message();
    EXPECT_EQ(hashed->pr, PrNumber{151234});

    auto run = parseAppLink(QStringLiteral("RELAYHUD://run/48291736450"));
    ASSERT_TRUE(run) << run.message();
    EXPECT_EQ(run->kind, AppLink::Kind::Run);
    EXPECT_EQ(run->checkRun.value, "48291736450");
    EXPECT_TRUE(run->test.isEmpty());

    auto nightly = parseAppLink(QStringLiteral("relayhud://sha/nightly-2026-01-02"));
    ASSERT_TRUE(nightly) << nightly.message();
    EXPECT_EQ(nightly->sha, QStringLiteral("nightly-2026-01-02"));
}

TEST(AppLinkParse, ARunLinkCarriesATestIdentity)
{
    const QString identity = QStringLiteral(
        "test/test_ops.py::TestCommonPRIVATEUSE1::test_add_spyre_float16[a&b=c+d #2]");
    const QString url = runLinkUrl(CheckRunId{"991"}, identity);
    EXPECT_TRUE(url.startsWith(QStringLiteral("relayhud://run/991?test=test/test_ops.py::Test")))
        << url.toStdString();
    auto parsed = parseAppLink(url);
    ASSERT_TRUE(parsed) << parsed.message();
    EXPECT_EQ(parsed->checkRun.value, "991");
    EXPECT_EQ(parsed->test, identity);
    EXPECT_EQ(appLinkUrl(*parsed), url);
}

TEST(AppLinkParse, LinksRoundTrip)
{
    for (const AppLink& link :
         {AppLink{AppLink::Kind::Commit, kShaA, 0, {}, {}},
          AppLink{AppLink::Kind::Commit, QStringLiteral("nightly-2026"), 0, {}, {}},
          AppLink{AppLink::Kind::PullRequest, {}, 42, {}, {}},
          AppLink{AppLink::Kind::Run, {}, 0, CheckRunId{"12345"}, {}}}) {
        auto parsed = parseAppLink(appLinkUrl(link));
        ASSERT_TRUE(parsed) << parsed.message();
        EXPECT_EQ(*parsed, link) << appLinkUrl(link).toStdString();
    }
    EXPECT_EQ(commitLinkUrl(kShaA), u"relayhud://sha/" % kShaA);
    EXPECT_EQ(pullRequestLinkUrl(PrNumber{42}), QStringLiteral("relayhud://pr/42"));
}

TEST(AppLinkParse, MalformedLinksSayWhatIsWrong)
{
    const auto error = [](const char* text) {
        return message(parseAppLink(QString::fromUtf8(text)));
    };
    EXPECT_THAT(error("relayhud://run/abc"), HasSubstr("check run's id"));
    EXPECT_THAT(error("relayhud://run/"), HasSubstr("names no run"));
    EXPECT_THAT(error("relayhud://run/12/34"), HasSubstr("names no run"));
    EXPECT_THAT(error("relayhud://pr/0"), HasSubstr("pull request link needs its number"));
    EXPECT_THAT(error("relayhud://pr/12x"), HasSubstr("pull request link needs its number"));
    EXPECT_THAT(error("relayhud://sha/abc"), HasSubstr("4 to 40 hex digits"));
    EXPECT_THAT(error("relayhud://sha/1a2b3c4d5e6f708192a3b4c5d6e7f80910a1b2c3ff"),
                HasSubstr("at most 40"));
    EXPECT_THAT(error("relayhud://run/12?test="), HasSubstr("test= needs"));
    EXPECT_THAT(error("relayhud://sha/1a2b3c4?test=x"), HasSubstr("unknown parameter 'test'"));
    EXPECT_THAT(error("relayhud://commit/1a2b3c4"), HasSubstr("unknown link kind 'commit'"));
    EXPECT_THAT(error("relayhud:sha/1a2b3c4"), HasSubstr("not a relayhud:// link"));
    EXPECT_THAT(error("https://hud.pytorch.org/pr/1"), HasSubstr("not a relayhud:// link"));
    EXPECT_THAT(error("relayhud://run/12#frag"), HasSubstr("malformed"));
    // The link itself leads the message, so the status bar names it.
    EXPECT_THAT(error("relayhud://pr/x"), HasSubstr("relayhud://pr/x: "));
}

// A link pasted from a chat or a page may carry CR, LF or an escape: the
// refusal stays one line (the controls shown as pictures), and a link of a
// page is quoted by its start (fuzz/fuzz_link.cpp found both).
TEST(AppLinkParse, ARefusalIsOneLineWhateverTheLinkHolds)
{
    const std::string crlf =
        message(parseAppLink(QStringLiteral("relayhud://pr/1\r\nFAKE: second line\x1b[2J")));
    EXPECT_EQ(crlf.find_first_of("\r\n\x1b"), std::string::npos) << crlf;
    EXPECT_THAT(crlf, HasSubstr("relayhud://pr/1\u240d\u240aFAKE: second line\u241b[2J: "));
    const std::string page =
        message(parseAppLink(QStringLiteral("relayhud://sha/") + QString(100000, u'x')));
    EXPECT_LT(page.size(), 400u) << page.substr(0, 400);
    EXPECT_THAT(page, HasSubstr("xxx\u2026: "));
}

TEST(AppLinkParse, LogLinksAndPathsAreNotAppLinks)
{
    EXPECT_TRUE(isAppLink(QStringLiteral("relayhud://run/1")));
    EXPECT_TRUE(isAppLink(QStringLiteral("relayhud://junk")));
    EXPECT_FALSE(isAppLink(QStringLiteral("relayhud://log?path=%2Ftmp%2Fa.log&lines=3")));
    EXPECT_FALSE(isAppLink(QStringLiteral("/tmp/job.log:12")));
    EXPECT_FALSE(isAppLink(QStringLiteral("report.xml")));
}

TEST(LinkTarget, CommitsByFullShaOrUniquePrefix)
{
    const MatrixSnapshot snap = matrix();
    const auto full = resolveCommitLink({AppLink::Kind::Commit, kShaA, 0, {}, {}}, snap);
    ASSERT_TRUE(full) << full.message();
    EXPECT_EQ(full->row, 0);
    EXPECT_EQ(full->column, -1);
    const auto prefix =
        resolveCommitLink({AppLink::Kind::Commit, QStringLiteral("1a2b9"), 0, {}, {}}, snap);
    ASSERT_TRUE(prefix) << prefix.message();
    EXPECT_EQ(prefix->row, 1);
    const auto nightly = resolveCommitLink(
        {AppLink::Kind::Commit, QStringLiteral("nightly-2026-01-02"), 0, {}, {}}, snap);
    ASSERT_TRUE(nightly) << nightly.message();
    EXPECT_EQ(nightly->row, 3);

    const auto ambiguous =
        resolveCommitLink({AppLink::Kind::Commit, QStringLiteral("1a2b"), 0, {}, {}}, snap);
    ASSERT_FALSE(ambiguous);
    EXPECT_THAT(ambiguous.message(), HasSubstr("1a2b starts 2 commits"));
    const auto unknown =
        resolveCommitLink({AppLink::Kind::Commit, QStringLiteral("deadbeef"), 0, {}, {}}, snap);
    ASSERT_FALSE(unknown);
    EXPECT_THAT(unknown.message(), HasSubstr("Commit deadbeef is not in the cache's matrix"));
}

TEST(LinkTarget, APullRequestIsItsNewestHead)
{
    const MatrixSnapshot snap = matrix();
    const auto pr = resolveCommitLink({AppLink::Kind::PullRequest, {}, 7, {}, {}}, snap);
    ASSERT_TRUE(pr) << pr.message();
    EXPECT_EQ(pr->row, 0);
    EXPECT_EQ(pr->what, QStringLiteral("PR #7 at 1a2b3c4"));
    const auto unknown = resolveCommitLink({AppLink::Kind::PullRequest, {}, 9, {}, {}}, snap);
    ASSERT_FALSE(unknown);
    EXPECT_THAT(unknown.message(), HasSubstr("PR #9 has no commit in the cache's matrix"));
}

TEST(LinkTarget, ARunIsTheCellOfItsShaAndJob)
{
    const MatrixSnapshot snap = matrix();
    const AppLink link{AppLink::Kind::Run, {}, 0, CheckRunId{"555"}, {}};
    const auto target = resolveRunLink(link,
                                       checkRun("org/spyre", "test (default, 1, 2)",
                                                "ffff000000000000000000000000000000000000", "555"),
                                       snap);
    ASSERT_TRUE(target) << target.message();
    EXPECT_EQ(target->row, 2);
    EXPECT_EQ(target->column, 1);
    EXPECT_EQ(target->what, QStringLiteral("test (default, 1, 2) on ffff000"));

    const auto unknown = resolveRunLink(link, std::nullopt, snap);
    ASSERT_FALSE(unknown);
    EXPECT_THAT(unknown.message(), HasSubstr("Check run 555 is not in the cache"));
    const auto old = resolveRunLink(link, checkRun("org/spyre", "build", "0000aaaa", "555"), snap);
    ASSERT_FALSE(old);
    EXPECT_THAT(old.message(), HasSubstr("is in the cache but not in the matrix"));
    const auto noColumn =
        resolveRunLink(link, checkRun("org/gone", "build", kShaA.toStdString(), "555"), snap);
    ASSERT_FALSE(noColumn);
    EXPECT_THAT(noColumn.message(), HasSubstr("its job has no column"));
}

TEST(JumpIndex, FindsShaPrefixesAndPullRequests)
{
    JumpIndex index;
    index.setMatrix(matrix());
    const auto sha = index.match(QStringLiteral("ffff"));
    ASSERT_FALSE(sha.empty());
    EXPECT_EQ(sha.front().kind, JumpEntry::Kind::Commit);
    EXPECT_EQ(sha.front().sha, QStringLiteral("ffff000000000000000000000000000000000000"));

    const auto pr = index.match(QStringLiteral("#7"));
    ASSERT_EQ(pr.size(), 1u);
    EXPECT_EQ(pr.front().kind, JumpEntry::Kind::PullRequest);
    EXPECT_EQ(pr.front().text, QStringLiteral("#7"));
    EXPECT_EQ(pr.front().sha, kShaA); // the newest head
    const auto bare = index.match(QStringLiteral("8"));
    ASSERT_FALSE(bare.empty());
    EXPECT_EQ(bare.front().text, QStringLiteral("#8"));
}

TEST(JumpIndex, FindsBackendsJobsAndTheShownRunsTests)
{
    JumpIndex index;
    index.setMatrix(matrix());
    const auto backend = index.match(QStringLiteral("asc"));
    ASSERT_FALSE(backend.empty());
    EXPECT_EQ(backend.front().kind, JumpEntry::Kind::Backend);
    EXPECT_EQ(backend.front().backend, QStringLiteral("org/ascend"));
    EXPECT_EQ(backend.front().detail, QStringLiteral("1 job"));

    const auto job = index.match(QStringLiteral("DEFAULT"));
    ASSERT_EQ(job.size(), 1u);
    EXPECT_EQ(job.front().kind, JumpEntry::Kind::Job);
    EXPECT_EQ(job.front().job, QStringLiteral("test (default, 1, 2)"));
    EXPECT_EQ(job.front().detail, QStringLiteral("org/spyre · CI"));
    // A name's start ranks before its middle.
    const auto test = index.match(QStringLiteral("test"));
    ASSERT_GE(test.size(), 2u);
    EXPECT_EQ(test[0].text, QStringLiteral("test"));

    StoredTestResult result;
    result.identity = "test/test_ops.py::TestOps::test_add_float16";
    index.setTests({result});
    const auto found = index.match(QStringLiteral("add_float"));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found.front().kind, JumpEntry::Kind::Test);
    EXPECT_EQ(found.front().test, QString::fromStdString(result.identity));
    EXPECT_TRUE(index.match(QStringLiteral("zzz")).empty());
    EXPECT_TRUE(index.match(QStringLiteral("  ")).empty());
}
