// Issue 6's "done when" over every config in the shared corpus: a save
// without edits is byte-identical, and moving each listed name gives a diff
// that touches only the expected lines and re-parses to exactly that change.
#include "config_test_util.h"

#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_file.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/resolver.h"
#include "relayhud/config/spyre_names.h"
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

// Every byte outside the touched lines is kept in order; a removed line is
// the deciding entry's mode line or a moved name item (with the comment lines
// directly above it), and every moved line reappears among the added ones.
void expectMinimalDiff(const std::string& before, const ModeEdit& edit, const std::string& what)
{
    const LineChanges changes = diffLines(before, edit.text);
    const std::vector<std::string> a = linesOf(before);
    const std::vector<std::string> b = linesOf(edit.text);
    EXPECT_EQ(without(a, changes.removed), without(b, changes.added)) << what;
    EXPECT_FALSE(changes.added.empty()) << what;
    for (const std::size_t line : changes.removed) {
        const std::string& text = a[line - 1];
        const std::size_t first = text.find_first_not_of(' ');
        if (text.compare(first, 5, "mode:") == 0)
            continue;
        const std::string content = text.substr(first + (text[first] == '-' ? 1 : 0));
        bool found = false;
        for (const std::size_t added : changes.added)
            found = found || b[added - 1].find(content) != std::string::npos;
        EXPECT_TRUE(found) << what << ": line " << line << " '" << text << "' was lost";
    }
}

// The listings of every other method are what they were.
void expectOtherListingsKept(const OutcomeConfig& before, const std::string& after,
                             const std::string& method)
{
    Result<ParsedConfig> reparsed = parseOutcomeConfig(after);
    ASSERT_TRUE(reparsed) << reparsed.message();
    EXPECT_FALSE(reparsed->hasErrors());
    auto others = [&](const OutcomeConfig& config) {
        std::map<std::string, Listing> out = listings(config);
        for (auto it = out.begin(); it != out.end();)
            it = it->first == "0:" + method || it->first.ends_with("::" + method) ? out.erase(it)
                                                                                  : std::next(it);
        return out;
    };
    const std::map<std::string, Listing> expected = others(before);
    const std::map<std::string, Listing> actual = others(reparsed->config);
    ASSERT_EQ(actual.size(), expected.size()) << method;
    for (const auto& [name, listing] : expected) {
        const Listing& got = actual.at(name);
        EXPECT_EQ(got.mode, listing.mode) << name << " while editing " << method;
        EXPECT_EQ(got.signature, listing.signature) << name << " while editing " << method;
        EXPECT_EQ(got.count, listing.count) << name << " while editing " << method;
    }
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

// The property every edit must have, checked here with the resolver alone:
// the edited method's dtype-less variant now has the target mode, and every
// other exact method of the section resolves as it did, in every dtype.
void expectResolvesAsIntended(const OutcomeConfig& before, const std::string& after,
                              const std::string& method, const ModeEdit& edit)
{
    Result<ParsedConfig> reparsed = parseOutcomeConfig(after);
    ASSERT_TRUE(reparsed);
    const Resolver was(before);
    const Resolver now(reparsed->config);
    Result<Resolution> moved = now.resolve({"", "", method + "_spyre", {}, true});
    ASSERT_TRUE(moved);
    EXPECT_EQ(moved->configMode, edit.to) << method;
    std::set<std::string> others;
    for (const TestEntry& entry : before.files[0].tests)
        for (const NameItem& item : entry.names)
            if (!item.regex && item.method != method)
                others.insert(item.method);
    for (const std::string& other : others)
        for (const char* dtype : {"", "_float16", "_float32", "_int64", "_bfloat16"}) {
            const std::string variant = other + "_spyre" + dtype;
            Result<Resolution> a = was.resolve({"", "", variant, {}, true});
            Result<Resolution> b = now.resolve({"", "", variant, {}, true});
            ASSERT_TRUE(a && b);
            EXPECT_EQ(outcomeName(a->outcome), std::string(outcomeName(b->outcome)))
                << variant << " changed while editing " << method;
        }
}

// Every exact method listed in a corpus config moves (the mode of the
// entry that decides its dtype-less variant, to the other side) with a
// minimal diff that changes no other method's listing; planModeEdit proves
// the outcome itself with the framework's rules.
TEST(ConfigCorpusTest, EveryListedMethodMovesWithAMinimalVerifiedDiff)
{
    std::size_t edits = 0;
    for (const std::filesystem::path& source : corpusConfigFiles()) {
        const std::string text = readText(source);
        Result<ParsedConfig> parsed = parseOutcomeConfig(text);
        ASSERT_TRUE(parsed) << source;
        const OutcomeConfig& config = parsed->config;
        ASSERT_EQ(config.files.size(), 1u) << source;
        const Resolver resolver(config);
        std::set<std::string> done;
        for (const TestEntry& entry : config.files[0].tests) {
            for (const NameItem& item : entry.names) {
                if (item.regex || !done.insert(item.method).second)
                    continue;
                if (parseVariantName(item.method, {}).deviceFound)
                    continue; // a dead listing: the editor refuses to move it
                Result<Resolution> r = resolver.resolve({"", "", item.method, {}, false});
                ASSERT_TRUE(r) << r.message();
                const EditRequest request = requestFor(item.name, r->configMode);
                Result<ModeEdit> edit = planModeEdit(text, request);
                const std::string what = source.filename().string() + " " + item.name;
                ASSERT_TRUE(edit) << what << ": " << edit.message();
                EXPECT_EQ(edit->from, r->configMode) << what;
                expectMinimalDiff(text, *edit, what);
                expectOtherListingsKept(config, edit->text, item.method);
                expectResolvesAsIntended(config, edit->text, item.method, *edit);
                ++edits;
            }
        }
    }
    EXPECT_GT(edits, 500u);
}

} // namespace
} // namespace relayhud::config
