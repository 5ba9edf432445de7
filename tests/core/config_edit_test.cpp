// The four cases of a mode edit (issue 6) on small configs, with the exact
// text expected, plus line endings, final newlines and refusals.
#include "config_test_util.h"

#include "relayhud/config/config_edit.h"
#include "relayhud/config/resolver.h"
#include "relayhud/config/text_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

namespace relayhud::config {
namespace {

using namespace relayhud::config::test;

const std::string kHead = "test_suite_config:\n"
                          "  files:\n"
                          "    - path: ${TORCH_ROOT}/test/test_x.py\n"
                          "      unlisted_test_mode: skip\n"
                          "      tests:\n";

EditRequest request(const std::string& test, EditKind kind, Mode target = Mode::MandatorySuccess)
{
    return {test, {}, kind, target, "seen passing", "12/12 runs since abc1234"};
}

TEST(ConfigEditTest, OneNameEntryChangesItsModeInPlaceKeepingQuotesAndComment)
{
    const std::string text = kHead
                             + "        - names:\n"
                               "            - TestX::test_a  # flaky on int64\n"
                               "          mode: \"xfail_strict\"  # since 2.11\n";
    Result<ModeEdit> edit = planModeEdit(text, request("TestX::test_a", EditKind::Promote));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_EQ(edit->text, kHead
                              + "        - names:\n"
                                "            - TestX::test_a  # flaky on int64\n"
                                "          # xfail_strict -> mandatory_success: seen passing "
                                "(12/12 runs since abc1234)\n"
                                "          mode: \"mandatory_success\"  # since 2.11\n");
}

TEST(ConfigEditTest, OneNameEntryWithoutModeGetsAModeLineInItsIndentation)
{
    const std::string text = kHead
                             + "      - names:\n"
                               "        - TestX::test_a\n"
                               "        edits:\n"
                               "          dtypes: {exclude: [{name: int64}]}\n";
    Result<ModeEdit> edit = planModeEdit(text, request("TestX::test_a", EditKind::Demote));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_EQ(edit->text, kHead
                              + "      - names:\n"
                                "        - TestX::test_a\n"
                                "        # mandatory_success -> xfail: seen passing "
                                "(12/12 runs since abc1234)\n"
                                "        mode: xfail\n"
                                "        edits:\n"
                                "          dtypes: {exclude: [{name: int64}]}\n");
}

TEST(ConfigEditTest, NameOfSeveralMovesToANewSiblingWithTheSameEdits)
{
    const std::string text = kHead
                             + "        - names:\n"
                               "            - TestX::test_a\n"
                               "            - TestX::test_b   # RuntimeError issues/80\n"
                               "          mode: xfail\n"
                               "          edits:\n"
                               "            dtypes:\n"
                               "              # int64 crashes\n"
                               "              exclude: [{name: int64}]\n"
                               "        # next group\n"
                               "        - names:\n"
                               "            - TestX::test_c\n";
    Result<ModeEdit> edit = planModeEdit(text, request("TestX::test_b", EditKind::Promote));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_EQ(edit->text, kHead
                              + "        - names:\n"
                                "            - TestX::test_a\n"
                                "          mode: xfail\n"
                                "          edits:\n"
                                "            dtypes:\n"
                                "              # int64 crashes\n"
                                "              exclude: [{name: int64}]\n"
                                "        # xfail -> mandatory_success: seen passing (12/12 runs "
                                "since abc1234)\n"
                                "        - names:\n"
                                "            - TestX::test_b   # RuntimeError issues/80\n"
                                "          mode: mandatory_success\n"
                                "          edits:\n"
                                "            dtypes:\n"
                                "              # int64 crashes\n"
                                "              exclude: [{name: int64}]\n"
                                "        # next group\n"
                                "        - names:\n"
                                "            - TestX::test_c\n");
}

TEST(ConfigEditTest, NameOfSeveralJoinsAnExistingSiblingWithTargetMode)
{
    const std::string text = kHead
                             + "        - names:\n"
                               "            - TestX::test_a\n"
                               "            - TestX::test_b  # passes now\n"
                               "          mode: xfail_strict\n"
                               "        - names:\n"
                               "          - TestX::test_c\n";
    Result<ModeEdit> edit = planModeEdit(text, request("TestX::test_b", EditKind::Promote));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_EQ(edit->text, kHead
                              + "        - names:\n"
                                "            - TestX::test_a\n"
                                "          mode: xfail_strict\n"
                                "        - names:\n"
                                "          - TestX::test_c\n"
                                "          # xfail_strict -> mandatory_success: seen passing "
                                "(12/12 runs since abc1234)\n"
                                "          - TestX::test_b  # passes now\n");
}

TEST(ConfigEditTest, RegexMatchGetsAnExactEntryAndAWarning)
{
    const std::string text = kHead
                             + "        - names:\n"
                               "            - TestX::test_add.*\n"
                               "          mode: xfail\n"
                               "          tags: [slow]\n";
    Result<ModeEdit> edit = planModeEdit(
        text, request("TestXPRIVATEUSE1::test_add_scalar_spyre_float16", EditKind::Promote));
    ASSERT_TRUE(edit) << edit.message();
    ASSERT_EQ(edit->warnings.size(), 1u);
    EXPECT_NE(edit->warnings[0].find("beats regex 'TestX::test_add.*'"), std::string::npos)
        << edit->warnings[0];
    EXPECT_EQ(edit->text, text
                              + "        # xfail -> mandatory_success: seen passing (12/12 runs "
                                "since abc1234)\n"
                                "        - names:\n"
                                "            - TestX::test_add_scalar\n"
                                "          mode: mandatory_success\n"
                                "          tags: [slow]\n");
}

TEST(ConfigEditTest, UnlistedTestGetsAnEntryAtTheEndOfItsFile)
{
    const std::string text = kHead
                             + "        - names:\n"
                               "            - TestX::test_a\n"
                               "  global:\n"
                               "    supported_dtypes: [{name: float16}]\n";
    Result<ModeEdit> edit =
        planModeEdit(text, request("test/test_x.py::TestXPRIVATEUSE1::test_new_spyre_float16",
                                   EditKind::SetMode, Mode::XfailStrict));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_EQ(edit->from, Mode::Skip);
    EXPECT_EQ(edit->text, kHead
                              + "        - names:\n"
                                "            - TestX::test_a\n"
                                "        # skip -> xfail_strict: seen passing (12/12 runs since "
                                "abc1234)\n"
                                "        - names:\n"
                                "            - TestX::test_new\n"
                                "          mode: xfail_strict\n"
                                "  global:\n"
                                "    supported_dtypes: [{name: float16}]\n");
}

TEST(ConfigEditTest, FileWithoutTestsGetsATestsKeyAndKeepsNoFinalNewline)
{
    const std::string text = "test_suite_config:\n"
                             "  files:\n"
                             "    - path: ${TORCH_DEVICE_ROOT}/tests/test_y.py\n"
                             "      unlisted_test_mode: mandatory_success";
    Result<ModeEdit> edit = planModeEdit(text, request("TestY::test_z", EditKind::Demote));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_EQ(edit->text, text
                              + "\n      tests:\n"
                                "        # mandatory_success -> xfail: seen passing "
                                "(12/12 runs since abc1234)\n"
                                "        - names:\n"
                                "            - TestY::test_z\n"
                                "          mode: xfail");
}

TEST(ConfigEditTest, NoFinalNewlineStaysAbsentOnACorpusEdit)
{
    std::string text = readText(corpusConfigs()
                                / "tests__configs__upstream_tests__test_binary_ufuncs_config.yaml");
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    Result<ModeEdit> edit = planModeEdit(
        text, request("TestBinaryUfuncs::test_contig_vs_transposed", EditKind::Demote));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_NE(edit->text.back(), '\n');
    EXPECT_EQ(diffLines(text, edit->text).removed.size(), 1u);
}

std::string toCrlf(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (c == '\n')
            out += '\r';
        out += c;
    }
    return out;
}

TEST(ConfigEditTest, CrlfFileKeepsCrlfOnEveryLine)
{
    const std::string lf =
        readText(corpusConfigs() / "tests__configs__upstream_tests__test_view_ops_config.yaml");
    const EditRequest demote = request("TestViewOps::test_unbind", EditKind::Demote);
    Result<ModeEdit> lfEdit = planModeEdit(lf, demote);
    Result<ModeEdit> crlfEdit = planModeEdit(toCrlf(lf), demote);
    ASSERT_TRUE(lfEdit) << lfEdit.message();
    ASSERT_TRUE(crlfEdit) << crlfEdit.message();
    EXPECT_EQ(crlfEdit->text, toCrlf(lfEdit->text));
}

TEST(ConfigEditTest, RefusesWithAReason)
{
    const std::string text = kHead
                             + "        - names:\n"
                               "            - TestX::test_a\n"
                               "        - names: [TestX::test_b, TestX::test_c]\n"
                               "          mode: xfail\n";
    Result<ModeEdit> wrongWay = planModeEdit(text, request("TestX::test_a", EditKind::Promote));
    ASSERT_FALSE(wrongWay);
    EXPECT_NE(wrongWay.message().find("cannot promote a test that is mandatory_success"),
              std::string::npos);
    Result<ModeEdit> same =
        planModeEdit(text, request("TestX::test_a", EditKind::SetMode, Mode::MandatorySuccess));
    ASSERT_FALSE(same);
    EXPECT_NE(same.message().find("already mandatory_success"), std::string::npos);
    Result<ModeEdit> flow = planModeEdit(text, request("TestX::test_b", EditKind::Promote));
    ASSERT_FALSE(flow);
    EXPECT_NE(flow.message().find("edit it by hand"), std::string::npos) << flow.message();
    Result<ModeEdit> broken =
        planModeEdit(text + "          mode: bogus\n", request("TestX::test_a", EditKind::Demote));
    ASSERT_FALSE(broken);
    EXPECT_NE(broken.message().find("fix the config first"), std::string::npos);
    Result<ModeEdit> aliased = planModeEdit(text
                                                + "  global: {supported_ops: &ops [add]}\n"
                                                  "  input_config: *ops\n",
                                            request("TestX::test_a", EditKind::Demote));
    ASSERT_FALSE(aliased);
    EXPECT_NE(aliased.message().find("aliases"), std::string::npos) << aliased.message();
}

// The framework ignores the class part and takes the first exact listing:
// a sibling below a later listing of the same method would leave that
// listing deciding, so the name goes to a new entry where it wins.
TEST(ConfigEditTest, ANameIsPlacedWhereItWinsOverALaterListingOfItsMethod)
{
    const std::string text = kHead
                             + "        - names:\n"
                               "            - TestA::test_x\n"
                               "            - TestA::test_y\n"
                               "          mode: xfail\n"
                               "        - names:\n"
                               "            - TestB::test_x\n"
                               "          mode: skip\n"
                               "        - names:\n"
                               "            - TestA::test_z\n"
                               "          mode: mandatory_success\n";
    Result<ModeEdit> edit =
        planModeEdit(text, request("TestAPRIVATEUSE1::test_x_spyre", EditKind::Promote));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_EQ(edit->text, kHead
                              + "        - names:\n"
                                "            - TestA::test_y\n"
                                "          mode: xfail\n"
                                "        # xfail -> mandatory_success: seen passing (12/12 runs "
                                "since abc1234)\n"
                                "        - names:\n"
                                "            - TestA::test_x\n"
                                "          mode: mandatory_success\n"
                                "        - names:\n"
                                "            - TestB::test_x\n"
                                "          mode: skip\n"
                                "        - names:\n"
                                "            - TestA::test_z\n"
                                "          mode: mandatory_success\n");
    bool warned = false;
    for (const std::string& w : edit->warnings)
        warned = warned
                 || w.find("'TestB::test_x' (line 11) names the same method") != std::string::npos;
    EXPECT_TRUE(warned) << "the other class's listing is named";
}

// Among several candidates the one whose edits.dtypes.include holds the
// variant's dtype decides: promoting that variant moves that entry's listing,
// and the variants the other entry decides keep their mode (and are named).
TEST(ConfigEditTest, TheEntryThatDecidesTheVariantsDtypeIsTheOneEdited)
{
    const std::string text = kHead
                             + "        - names: [TestX::test_x]\n"
                               "          mode: xfail\n"
                               "          edits: {dtypes: {include: [{name: float32}]}}\n"
                               "        - names:\n"
                               "            - TestX::test_x\n"
                               "          mode: skip\n"
                               "  global:\n"
                               "    supported_dtypes: [{name: float16}]\n";
    Result<ModeEdit> edit =
        planModeEdit(text, request("TestXPRIVATEUSE1::test_x_spyre_float32", EditKind::Promote));
    ASSERT_TRUE(edit) << edit.message();
    auto after = parseOutcomeConfig(edit->text);
    ASSERT_TRUE(after && !after->hasErrors());
    const Resolver resolver(after->config);
    auto outcome = [&](const char* method) {
        auto r = resolver.resolve({"test/test_x.py", "", method, {}, true});
        return r ? std::string(outcomeName(r->outcome)) : r.message();
    };
    EXPECT_EQ(outcome("test_x_spyre_float32"), "mandatory_success");
    EXPECT_EQ(outcome("test_x_spyre_float16"), "skip"); // the other entry's, unchanged
    bool named = false;
    for (const std::string& w : edit->warnings)
        named = named || w.find("test_x_spyre_float16 is decided by the entry at line 9") == 0;
    EXPECT_TRUE(named);
}

TEST(ConfigEditTest, CommentLinesDirectlyAboveAMovedNameMoveWithIt)
{
    const std::string text = kHead
                             + "        - names: # tests that fail\n"
                               "            - TestX::test_a\n"
                               "\n"
                               "            # RuntimeError on int64\n"
                               "            # https://example.org/issues/12\n"
                               "            - TestX::test_b  # since 2.11\n"
                               "          mode: xfail\n";
    Result<ModeEdit> edit = planModeEdit(text, request("TestX::test_b", EditKind::Promote));
    ASSERT_TRUE(edit) << edit.message();
    EXPECT_EQ(edit->text, kHead
                              + "        - names: # tests that fail\n"
                                "            - TestX::test_a\n"
                                "\n"
                                "          mode: xfail\n"
                                "        # xfail -> mandatory_success: seen passing (12/12 runs "
                                "since abc1234)\n"
                                "        - names:\n"
                                "            # RuntimeError on int64\n"
                                "            # https://example.org/issues/12\n"
                                "            - TestX::test_b  # since 2.11\n"
                                "          mode: mandatory_success\n");
}

TEST(ConfigEditTest, UnifiedDiffHasThreeLinesOfContext)
{
    const std::string before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const std::string after = "a\nb\nc\nd\nE\nf\ng\nh\n";
    EXPECT_EQ(unifiedDiff(before, after, "x.yaml"),
              "--- a/x.yaml\n+++ b/x.yaml\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
    EXPECT_EQ(unifiedDiff("a\nb", "a\nc", "y"),
              "--- a/y\n+++ b/y\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
              "\\ No newline at end of file\n");
    EXPECT_EQ(unifiedDiff(before, before, "x"), "");
}

// The reference: the length of a longest common subsequence, by the table
// the diff used to build (fine for a few dozen lines).
std::size_t lcsLength(const std::vector<std::string_view>& a,
                      const std::vector<std::string_view>& b)
{
    std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = a.size(); i-- > 0;)
        for (std::size_t j = b.size(); j-- > 0;)
            t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
    return t[0][0];
}

std::vector<std::string_view> without(const std::vector<std::string_view>& lines,
                                      const std::vector<std::size_t>& dropped)
{
    std::vector<std::string_view> kept;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (!std::binary_search(dropped.begin(), dropped.end(), i + 1))
            kept.push_back(lines[i]);
    return kept;
}

TEST(ConfigEditTest, TheDiffKeepsACommonSubsequenceOfTheLongestLength)
{
    std::uint64_t state = 42;
    auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<unsigned>(state >> 33);
    };
    for (int round = 0; round < 300; ++round) {
        std::string before, after;
        const unsigned n = next() % 40, m = next() % 40, alphabet = 2 + next() % 5;
        for (unsigned i = 0; i < n; ++i)
            before += std::string(1, static_cast<char>('a' + next() % alphabet)) + "\n";
        for (unsigned i = 0; i < m; ++i)
            after += std::string(1, static_cast<char>('a' + next() % alphabet)) + "\n";
        SCOPED_TRACE(before + "---\n" + after);
        const auto a = splitLines(before);
        const auto b = splitLines(after);
        const LineChanges changes = diffLines(before, after);
        ASSERT_TRUE(std::is_sorted(changes.removed.begin(), changes.removed.end()));
        ASSERT_TRUE(std::is_sorted(changes.added.begin(), changes.added.end()));
        // What stays of each side is the same lines: a common subsequence...
        EXPECT_EQ(without(a, changes.removed), without(b, changes.added));
        // ... and a longest one: the edit script is shortest.
        EXPECT_EQ(a.size() - changes.removed.size(), lcsLength(a, b));
    }
}

// Moving one name out of a 30,000-name entry: linear memory, two edits (the
// old table took 3.5 GB and 14 s here).
TEST(ConfigEditTest, ADiffOfAHugeEntryIsTheEditNotATableOfBothTexts)
{
    std::string before, after, moved;
    for (int i = 0; i < 30000; ++i) {
        const std::string line = "            - TestOps::test_" + std::to_string(i) + "\n";
        before += line;
        if (i == 15000)
            moved = line;
        else
            after += line;
    }
    after += moved;
    const LineChanges changes = diffLines(before, after);
    EXPECT_EQ(changes.removed, std::vector<std::size_t>{15001});
    EXPECT_EQ(changes.added, std::vector<std::size_t>{30000});
    const std::string diff = unifiedDiff(before, after, "c.yaml");
    EXPECT_NE(diff.find("@@ -14998,7 +14998,6 @@"), std::string::npos) << diff.substr(0, 400);
}

} // namespace
} // namespace relayhud::config
