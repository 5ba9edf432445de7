// The triage exchange file: export -> import round trip between two caches,
// the newest-wins merge and its conflict report, and every kind of bad file
// (named with where it is wrong, and nothing written).
#include "relayhud/store/triage_store.h"
#include "relayhud/store/triage_tag_rules.h"
#include "relayhud/triage/triage_exchange.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace relayhud;
using namespace relayhud::testing;
using namespace relayhud::triage;

namespace {

TriageTag tag(const std::string& sha, const std::string& test, FailureClass cls,
              std::int64_t timeMs, const std::string& note = {},
              const std::string& author = "alice")
{
    TriageTag t;
    t.target = {"torch-spyre/torch-spyre", "CI", "test (1, 2)", Sha{sha}, 1, test};
    t.cls = cls;
    t.note = note;
    t.bugUrl = note.empty() ? "" : "https://github.com/org/repo/issues/7";
    t.author = author;
    t.timeMs = timeMs;
    return t;
}

// A document with one tag whose field `name` is replaced by `value` (or
// removed when value is discarded).
std::string withField(const std::string& name, const nlohmann::json& value)
{
    auto doc = nlohmann::json::parse(exportTriageJson(
        {tag("a1", "", FailureClass::Infra, 1000), tag("a2", "", FailureClass::Infra, 1000)}));
    if (value.is_discarded())
        doc["tags"][1].erase(name);
    else
        doc["tags"][1][name] = value;
    return doc.dump();
}

} // namespace

TEST(TriageExchange, TimesAreIsoUtcWithMilliseconds)
{
    EXPECT_EQ(formatTimeMs(0), "1970-01-01T00:00:00.000Z");
    EXPECT_EQ(formatTimeMs(1'777'927'708'123), "2026-05-04T20:48:28.123Z");
    EXPECT_EQ(parseTimeMs("2026-05-04T20:48:28.123Z"), 1'777'927'708'123);
    EXPECT_EQ(parseTimeMs("2026-05-04T20:48:28Z"), 1'777'927'708'000);
    EXPECT_EQ(parseTimeMs("2026-05-04T20:48:28.1Z"), 1'777'927'708'100);
    EXPECT_EQ(parseTimeMs("2026-05-04T20:48:28.123456789Z"), 1'777'927'708'123);
    EXPECT_EQ(parseTimeMs("1970-01-01T00:00:00.010Z"), 10);
    for (const std::int64_t ms :
         {std::int64_t{0}, std::int64_t{999}, std::int64_t{1'700'000'000'001}})
        EXPECT_EQ(parseTimeMs(formatTimeMs(ms)), ms);
    for (const char* bad :
         {"", "2026-05-04", "2026-05-04 20:48:28.123Z", "2026-05-04T20:48:28.123",
          "2026-05-04T20:48:28.Z", "2026-05-04T20:48:28.12aZ", "2026-13-04T20:48:28Z",
          "2026-05-04T20:48:28+01:00", "2026-02-30T00:00:00Z", "2026-05-04T24:00:00Z",
          "1969-12-31T23:59:59Z", "yesterday"})
        EXPECT_FALSE(parseTimeMs(bad)) << bad;
}

TEST(TriageExchange, ClassNames)
{
    EXPECT_EQ(parseTagClass("flaky"), FailureClass::Flaky);
    EXPECT_EQ(parseTagClass("Backend-Bug"), FailureClass::BackendBug);
    EXPECT_EQ(parseTagClass("pre_existing"), FailureClass::PreExisting);
    EXPECT_EQ(parseTagClass("test or config"), FailureClass::TestOrConfig);
    EXPECT_EQ(parseTagClass("unexpected pass"), FailureClass::UnexpectedPass);
    EXPECT_EQ(parseTagClass("untriaged"), FailureClass::Untriaged);
    EXPECT_FALSE(parseTagClass(""));
    EXPECT_FALSE(parseTagClass("flakey"));
    for (int c = 1; c <= static_cast<int>(FailureClass::Untriaged); ++c) {
        const auto cls = static_cast<FailureClass>(c);
        EXPECT_EQ(parseTagClass(failureClassName(cls)), cls) << c;
    }
}

TEST(TriageExchange, TheDocumentIsVersionedAndNamesEveryField)
{
    const auto doc = nlohmann::json::parse(exportTriageJson(
        {tag("abc", "t.py::T::x", FailureClass::BackendBug, 1'777'927'708'123, "n")}));
    EXPECT_EQ(doc["format"], "relayhud-triage");
    EXPECT_EQ(doc["version"], 1);
    ASSERT_EQ(doc["tags"].size(), 1u);
    const auto& t = doc["tags"][0];
    EXPECT_EQ(t["repo"], "torch-spyre/torch-spyre");
    EXPECT_EQ(t["workflow"], "CI");
    EXPECT_EQ(t["job"], "test (1, 2)");
    EXPECT_EQ(t["sha"], "abc");
    EXPECT_EQ(t["attempt"], 1);
    EXPECT_EQ(t["test"], "t.py::T::x");
    EXPECT_EQ(t["class"], "backend bug");
    EXPECT_EQ(t["note"], "n");
    EXPECT_EQ(t["bug"], "https://github.com/org/repo/issues/7");
    EXPECT_EQ(t["author"], "alice");
    EXPECT_EQ(t["time"], "2026-05-04T20:48:28.123Z");
    EXPECT_EQ(nlohmann::json::parse(exportTriageJson({}))["tags"].size(), 0u);
}

TEST(TriageExchange, ExportThenImportIntoAFreshCacheGivesTheSameTags)
{
    ScratchDir dir("triage-exchange");
    auto source = openCacheOk(dir.file("a.sqlite"));
    ASSERT_TRUE(source);
    const std::vector<TriageTag> tags{
        tag("s1", "", FailureClass::Infra, 1'700'000'000'001, "runner \"lost\"\nagain"),
        tag("s1", "test/a.py::TestA::test_ü", FailureClass::Flaky, 1'700'000'000'002),
        tag("s2", "test/a.py::TestA::test_b", FailureClass::Untriaged, 1'700'000'000'003, "", ""),
    };
    ASSERT_TRUE(TriageStore(*source).setTriageTags(tags));
    const std::string file = dir.file("sub/../triage.json");
    std::filesystem::create_directories(dir.file("sub"));
    auto written = exportTriageFile(*source, file);
    ASSERT_TRUE(written) << written.message();
    EXPECT_EQ(*written, 3u);

    auto target = openCacheOk(dir.file("b.sqlite"));
    ASSERT_TRUE(target);
    auto report = importTriageFile(*target, file);
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->added, 3u);
    EXPECT_EQ(report->updated + report->unchanged + report->keptLocal, 0u);
    EXPECT_TRUE(report->conflicts.empty());
    EXPECT_EQ(*TriageStore(*target).triageTags(), *TriageStore(*source).triageTags());

    // Importing the same file again changes nothing.
    auto again = importTriageFile(*target, file);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->unchanged, 3u);
    EXPECT_EQ(again->added, 0u);

    // --sha: only that SHA's tags.
    auto one = exportTriageFile(*source, dir.file("s2.json"), {Sha{"s2"}});
    ASSERT_TRUE(one);
    EXPECT_EQ(*one, 1u);
}

TEST(TriageExchange, MergeNewestWinsAndReportsConflicts)
{
    auto cache = openCacheOk(":memory:");
    ASSERT_TRUE(cache);
    ASSERT_TRUE(TriageStore(*cache).setTriageTags({
        tag("older", "", FailureClass::Flaky, 1000, "", "bob"),
        tag("newer", "", FailureClass::Flaky, 3000, "", "bob"),
        tag("tie", "", FailureClass::Flaky, 2000, "", "bob"),
        tag("same", "", FailureClass::Infra, 1000, "n", "bob"),
    }));
    const std::vector<TriageTag> incoming{
        tag("older", "", FailureClass::Regression, 2000, "found it"),
        tag("newer", "", FailureClass::Infra, 2000),
        tag("tie", "", FailureClass::Expected, 2000),
        tag("same", "", FailureClass::Infra, 5000, "n"),
        tag("fresh", "", FailureClass::BackendBug, 10),
    };
    auto report = importTriageJson(*cache, exportTriageJson(incoming));
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->added, 1u);
    EXPECT_EQ(report->updated, 1u);
    EXPECT_EQ(report->unchanged, 1u);
    EXPECT_EQ(report->keptLocal, 2u);
    ASSERT_EQ(report->conflicts.size(), 3u);
    const MergeConflict& updated = report->conflicts[0];
    EXPECT_EQ(updated.winner, MergeWinner::Imported);
    EXPECT_EQ(updated.local.author, "bob");
    EXPECT_EQ(updated.imported.note, "found it");
    EXPECT_EQ(updated.why,
              "imported is newer (1970-01-01T00:00:02.000Z > 1970-01-01T00:00:01.000Z)");
    EXPECT_EQ(report->conflicts[1].winner, MergeWinner::Local);
    EXPECT_EQ(report->conflicts[1].why,
              "local is newer (1970-01-01T00:00:03.000Z > 1970-01-01T00:00:02.000Z)");
    EXPECT_EQ(report->conflicts[2].winner, MergeWinner::Local);
    EXPECT_EQ(report->conflicts[2].why, "same time (1970-01-01T00:00:02.000Z): local kept");

    auto now = TriageStore(*cache).triageTagsFor({incoming[0].target, incoming[1].target,
                                                  incoming[2].target, incoming[3].target,
                                                  incoming[4].target});
    ASSERT_TRUE(now);
    EXPECT_EQ((*now)[0], incoming[0]);
    EXPECT_EQ((*now)[1]->cls, FailureClass::Flaky);
    EXPECT_EQ((*now)[2]->cls, FailureClass::Flaky);
    EXPECT_EQ((*now)[3]->timeMs, 1000); // unchanged keeps the local row as it was
    EXPECT_EQ((*now)[4], incoming[4]);
}

TEST(TriageExchange, BadFilesAreNamedAndWriteNothing)
{
    auto cache = openCacheOk(":memory:");
    ASSERT_TRUE(cache);
    const TriageTag local = tag("a1", "", FailureClass::Flaky, 1);
    ASSERT_TRUE(TriageStore(*cache).setTriageTags({local}));
    const auto discard = nlohmann::json(nlohmann::json::value_t::discarded);
    struct Case {
        std::string text;
        std::string message;
    };
    std::vector<Case> cases{
        {"", "not JSON: error at line 1, column 1"},
        {"{\"format\": \"relayhud-triage\",\n \"version\": 1,\n \"tags\": [}",
         "not JSON: error at line 3, column 11"},
        {"[1, 2]", "not a triage file: the document is not a JSON object"},
        {R"({"format": "other", "version": 1, "tags": []})",
         "\"format\" is not \"relayhud-triage\""},
        {R"({"version": 1, "tags": []})", "\"format\" is not"},
        {R"({"format": "relayhud-triage", "tags": []})", "\"version\" is missing or not a number"},
        {R"({"format": "relayhud-triage", "version": 2, "tags": []})",
         "triage file version 2 is not supported (this RelayHUD reads version 1)"},
        {R"({"format": "relayhud-triage", "version": 1})", "\"tags\" is missing or not a list"},
        {R"({"format": "relayhud-triage", "version": 1, "tags": {}})", "\"tags\" is missing"},
        {R"({"format": "relayhud-triage", "version": 1, "tags": [7]})", "tag 0: is not an object"},
        {withField("class", "flakey"),
         "tag 1: \"class\": unknown class \"flakey\" (one of \"regression\""},
        {withField("class", discard), "tag 1: \"class\" is missing"},
        {withField("repo", discard), "tag 1: \"repo\" is missing"},
        {withField("sha", ""), "tag 1: \"sha\" is empty"},
        {withField("job", 3), "tag 1: \"job\" is not a string"},
        {withField("note", nlohmann::json::array()), "tag 1: \"note\" is not a string"},
        {withField("attempt", discard), "tag 1: \"attempt\" is missing"},
        {withField("attempt", 0), "tag 1: \"attempt\" is not a run attempt"},
        {withField("attempt", "1"), "tag 1: \"attempt\" is not a run attempt"},
        {withField("attempt", 1.5), "tag 1: \"attempt\" is not a run attempt"},
        {withField("time", "2026-05-04"), "tag 1: \"time\": \"2026-05-04\" is not a UTC time"},
        {withField("time", discard), "tag 1: \"time\" is missing"},
        {withField("sha", "a1"), "tag 1: the same failure as tag 0"},
        {withField("sha", "../../etc"), "tag 1: \"sha\": not a commit SHA or delivery id"},
        {withField("sha", "a1 \x1b]0;x\x07"), "tag 1: \"sha\": not a commit SHA"},
        {withField("bug", "javascript:alert(1)"), "tag 1: \"bug\": not an http(s) link"},
        {withField("bug", "file:///etc/passwd"), "tag 1: \"bug\": not an http(s) link"},
        {withField("time", "2030-01-01T00:00:00.000Z"),
         "tag 1: \"time\": 2030-01-01T00:00:00Z is in the future"},
        {withField("job", std::string(kMaxTagNameBytes + 1, 'j')),
         "tag 1: \"job\" is 1025 bytes; the limit is 1024"},
        {withField("note", std::string(kMaxTagNoteBytes + 1, 'n')),
         "tag 1: \"note\" is 65537 bytes; the limit is 65536"},
    };
    // Hostile shapes: deep nesting (refused before it is parsed, issue 35) and
    // a name that is not UTF-8.
    cases.push_back({std::string(200'000, '[') + std::string(200'000, ']'),
                     "the triage file was refused: JSON nested deeper than 256 levels"});
    cases.push_back({std::string(200'000, '['), "JSON nested deeper than 256 levels"});
    cases.push_back(
        {withField("note", "x").replace(withField("note", "x").find("\"x\""), 3, "\"\xff\""),
         "not JSON: error at line 1"});
    for (const Case& c : cases) {
        auto report = importTriageJson(*cache, c.text);
        ASSERT_FALSE(report) << c.text;
        EXPECT_NE(report.message().find(c.message), std::string::npos)
            << c.text << "\n gave: " << report.message();
        auto tags = TriageStore(*cache).triageTags();
        ASSERT_TRUE(tags);
        EXPECT_EQ(*tags, std::vector<TriageTag>{local}) << c.text;
    }
}

TEST(TriageExchange, MissingAndHugeFilesAreRefusedUnread)
{
    ScratchDir dir("triage-exchange");
    auto cache = openCacheOk(":memory:");
    ASSERT_TRUE(cache);
    auto missing = importTriageFile(*cache, dir.file("nope.json"));
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.message().find("cannot open " + dir.file("nope.json")), std::string::npos)
        << missing.message();

    const std::string huge = dir.file("huge.json");
    {
        std::ofstream(huge) << ' ';
    }
    std::filesystem::resize_file(huge, kMaxExchangeBytes + 1); // sparse: no 64 MB written
    auto tooBig = importTriageFile(*cache, huge);
    ASSERT_FALSE(tooBig);
    EXPECT_NE(tooBig.message().find("a triage file is at most 64 MiB"), std::string::npos)
        << tooBig.message();
    auto tooBigText = importTriageJson(*cache, std::string(kMaxExchangeBytes + 1, ' '));
    ASSERT_FALSE(tooBigText);
    EXPECT_NE(tooBigText.message().find("the limit is 64 MiB"), std::string::npos);

    auto unwritable = exportTriageFile(*cache, dir.file("no/such/folder/x.json"));
    ASSERT_FALSE(unwritable);
    EXPECT_NE(unwritable.message().find("cannot write"), std::string::npos);
}
