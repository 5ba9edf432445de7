// Issue 6's "done when" over every config in the shared corpus: a save
// without edits is byte-identical, and moving each listed name gives a diff
// that touches only the expected lines and re-parses to exactly that change.
#include "config_test_util.h"

#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_file.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/text_diff.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace relayhud::config {
namespace {

using namespace relayhud::config::test;

struct Listing {
    Mode mode;
    std::string signature;
    std::size_t count = 0;
};

// The first listing of each name (the one that decides) and how often it is
// listed, per file section.
std::map<std::string, Listing> listings(const OutcomeConfig& config)
{
    std::map<std::string, Listing> out;
    for (std::size_t f = 0; f < config.files.size(); ++f)
        for (const TestEntry& entry : config.files[f].tests)
            for (const NameItem& item : entry.names) {
                const std::string key = std::to_string(f) + ":" + item.name;
                auto [at, inserted] =
                    out.try_emplace(key, Listing{entry.effectiveMode(), entry.signature, 0});
                ++at->second.count;
            }
    return out;
}

std::vector<std::string> without(const std::vector<std::string>& lines,
                                 const std::vector<std::size_t>& drop)
{
    const std::set<std::size_t> dropped(drop.begin(), drop.end());
    std::vector<std::string> out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (!dropped.count(i + 1))
            out.push_back(lines[i]);
    return out;
}

EditRequest requestFor(const std::string& name, Mode mode)
{
    EditRequest request;
    request.test = name;
    request.reason = "corpus walk";
    request.evidence = "passed 12/12 runs since abc1234";
    if (mode == Mode::MandatorySuccess)
        request.kind = EditKind::Demote;
    else if (mode == Mode::Skip) {
        request.kind = EditKind::SetMode;
        request.target = Mode::Xfail;
    } else
        request.kind = EditKind::Promote;
    return request;
}

void expectTouchedLines(const std::string& before, const ModeEdit& edit, const TestEntry& entry,
                        const NameItem& item)
{
    const LineChanges changes = diffLines(before, edit.text);
    const std::vector<std::string> a = linesOf(before);
    const std::vector<std::string> b = linesOf(edit.text);
    // Every byte outside the touched lines is kept, in order.
    EXPECT_EQ(without(a, changes.removed), without(b, changes.added)) << item.name;
    if (entry.names.size() == 1 && entry.mode) {
        const std::size_t line = entry.modePos.line;
        EXPECT_EQ(changes.removed, std::vector<std::size_t>{line}) << item.name;
        EXPECT_EQ(changes.added, (std::vector<std::size_t>{line, line + 1})) << item.name;
        EXPECT_NE(b[line].find(std::string("mode: ") + modeName(edit.to)), std::string::npos);
        EXPECT_NE(b[line - 1].find("# "), std::string::npos);
        return;
    }
    if (entry.names.size() == 1) {
        EXPECT_TRUE(changes.removed.empty()) << item.name;
        EXPECT_EQ(changes.added.size(), 2u) << item.name;
        return;
    }
    // Several names: only the name's own line goes, and it reappears with its
    // inline comment in a contiguous block (a sibling entry or its list).
    ASSERT_EQ(changes.removed.size(), 1u) << item.name;
    EXPECT_EQ(a[changes.removed.front() - 1], a[item.pos.line - 1]) << item.name;
    ASSERT_FALSE(changes.added.empty());
    EXPECT_EQ(changes.added.back() - changes.added.front() + 1, changes.added.size());
    const std::string own = a[item.pos.line - 1].substr(item.pos.column - 1);
    bool found = false;
    for (const std::size_t line : changes.added)
        found = found || b[line - 1].find(own) != std::string::npos;
    EXPECT_TRUE(found) << item.name << " lost its line or inline comment";
}

void expectOneSemanticChange(const OutcomeConfig& before, const std::string& after,
                             const std::string& key, Mode target)
{
    Result<ParsedConfig> reparsed = parseOutcomeConfig(after);
    ASSERT_TRUE(reparsed) << reparsed.message();
    EXPECT_FALSE(reparsed->hasErrors());
    std::map<std::string, Listing> expected = listings(before);
    expected.at(key).mode = target;
    const std::map<std::string, Listing> actual = listings(reparsed->config);
    ASSERT_EQ(actual.size(), expected.size()) << key;
    for (const auto& [name, listing] : expected) {
        const Listing& got = actual.at(name);
        EXPECT_EQ(got.mode, listing.mode) << name << " while editing " << key;
        EXPECT_EQ(got.signature, listing.signature) << name << " while editing " << key;
        EXPECT_EQ(got.count, listing.count) << name << " while editing " << key;
    }
    EXPECT_EQ(reparsed->config.global.signature, before.global.signature);
    ASSERT_EQ(reparsed->config.files.size(), before.files.size());
    for (std::size_t f = 0; f < before.files.size(); ++f)
        EXPECT_EQ(reparsed->config.files[f].signature, before.files[f].signature);
}

TEST(ConfigCorpusTest, SaveWithoutEditsIsByteIdentical)
{
    const std::vector<std::filesystem::path> files = corpusConfigFiles();
    ASSERT_GE(files.size(), 7u);
    TempDir dir;
    for (const std::filesystem::path& source : files) {
        const std::filesystem::path copy = dir.path() / source.filename();
        std::filesystem::copy_file(source, copy);
        // The corpus may be read-only; the copy must be writable to be saved.
        std::filesystem::permissions(copy, std::filesystem::perms::owner_write,
                                     std::filesystem::perm_options::add);
        Result<LoadedConfig> loaded = loadConfigFile(copy.string());
        ASSERT_TRUE(loaded) << loaded.message();
        Result<ParsedConfig> parsed = parseOutcomeConfig(loaded->text);
        ASSERT_TRUE(parsed) << source << ": " << parsed.message();
        EXPECT_FALSE(parsed->hasErrors()) << source;
        Result<void> saved = saveConfigFile(*loaded, loaded->text);
        ASSERT_TRUE(saved) << source << ": " << saved.message();
        EXPECT_EQ(readText(copy), readText(source)) << source;
    }
}

TEST(ConfigCorpusTest, EveryListedNameMovesWithAMinimalVerifiedDiff)
{
    std::size_t edits = 0;
    for (const std::filesystem::path& source : corpusConfigFiles()) {
        const std::string text = readText(source);
        Result<ParsedConfig> parsed = parseOutcomeConfig(text);
        ASSERT_TRUE(parsed) << source;
        const OutcomeConfig& config = parsed->config;
        ASSERT_EQ(config.files.size(), 1u) << source;
        std::set<std::string> done;
        for (const TestEntry& entry : config.files[0].tests) {
            for (const NameItem& item : entry.names) {
                if (item.pattern || !done.insert(item.name).second)
                    continue; // a later listing of a name never decides
                const EditRequest request = requestFor(item.name, entry.effectiveMode());
                Result<ModeEdit> edit = planModeEdit(text, request);
                ASSERT_TRUE(edit) << source << " " << item.name << ": " << edit.message();
                EXPECT_EQ(edit->from, entry.effectiveMode());
                expectTouchedLines(text, *edit, entry, item);
                expectOneSemanticChange(config, edit->text, "0:" + item.name, edit->to);
                ++edits;
            }
        }
    }
    EXPECT_GT(edits, 500u); // 560-odd names across the corpus
}

} // namespace
} // namespace relayhud::config
