// The declared set of an outcome config against the cases that ran.
//
// explainTest() is the one place that knows the precedence, but it explains
// one test at a time with sentences, too slow for 30,000 cases. What it
// decides depends only on the deciding entry and the case's op and dtype
// marks, never on the rest of the name, so it runs once per (file, entry,
// marks) and the answer is shared by every case with that key; finding the
// entry is a hash lookup (first exact listing, else first pattern, as
// explainTest's own search).
//
// What a bucket "expects" of a case (anything else is `unexpected`):
//   mandatory_success  passed (skipped counts as not run, not as unexpected)
//   xfail              anything but a pass (a pass is an XPASS: green, worth promoting)
//   xfail_strict       anything but a pass
//   skip               nothing: a skipped test is deleted before collection
//   unlisted           what its unlisted_test_mode expects
#include "relayhud/config/config_explain.h"
#include "relayhud/verdict/verdict.h"
#include "verdict/marks_text.h"

#include <string_view>
#include <unordered_map>

namespace relayhud::verdict {
namespace {

using config::Decision;
using config::Mode;

constexpr std::size_t kNoEntry = static_cast<std::size_t>(-1);

struct Located {
    std::size_t entry = kNoEntry;
    std::size_t name = 0;
};

// One file section's names, indexed.
struct SectionIndex {
    std::unordered_map<std::string_view, Located> exact;
    std::vector<std::pair<std::string_view, Located>> patterns;
    std::unordered_map<std::string_view, Located> patternMemo; // by base name
    // Per entry, per name: a case ran for it (not skipped), a case exists.
    std::vector<std::vector<std::pair<bool, bool>>> seen;

    explicit SectionIndex(const config::FileSection& file)
    {
        seen.resize(file.tests.size());
        for (std::size_t e = 0; e < file.tests.size(); ++e) {
            seen[e].resize(file.tests[e].names.size());
            for (std::size_t n = 0; n < file.tests[e].names.size(); ++n) {
                const config::NameItem& item = file.tests[e].names[n];
                if (item.pattern)
                    patterns.emplace_back(item.name, Located{e, n});
                else
                    exact.try_emplace(item.name, Located{e, n});
            }
        }
    }

    Located locate(std::string_view baseName)
    {
        if (auto it = exact.find(baseName); it != exact.end())
            return it->second;
        if (auto it = patternMemo.find(baseName); it != patternMemo.end())
            return it->second;
        Located found;
        for (const auto& [pattern, where] : patterns)
            if (config::globMatch(pattern, baseName)) {
                found = where;
                break;
            }
        patternMemo.emplace(baseName, found);
        return found;
    }
};

struct Decided {
    Mode mode = Mode::Xfail;
    bool unlisted = false;
    bool dropped = false;
    std::string why; // for a dropped variant
};

Bucket bucketOf(Mode mode)
{
    switch (mode) {
    case Mode::MandatorySuccess: return Bucket::MandatorySuccess;
    case Mode::Xfail: return Bucket::Xfail;
    case Mode::XfailStrict: return Bucket::XfailStrict;
    case Mode::Skip: return Bucket::Skip;
    }
    return Bucket::Unlisted;
}

bool passedOutcome(TestOutcome o)
{
    return o == TestOutcome::Passed || o == TestOutcome::XPassStrict;
}

class CoverageBuilder {
public:
    CoverageBuilder(const config::OutcomeConfig& config) : m_config(config)
    {
        m_sections.reserve(config.files.size());
        for (const config::FileSection& file : config.files) {
            m_sections.emplace_back(file);
            for (const config::TestEntry& entry : file.tests)
                m_out.buckets[static_cast<std::size_t>(bucketOf(entry.effectiveMode()))].declared +=
                    static_cast<std::int64_t>(entry.names.size());
        }
    }

    void add(const StoredTestResult& r)
    {
        const std::optional<std::size_t> file = section(r);
        if (!file)
            return;
        SectionIndex& index = m_sections[*file];
        const Located where = index.locate(r.baseName);
        const Decided& decided = decide(*file, where, r);
        if (decided.dropped) {
            m_out.unknown.push_back({r.identity, decided.why});
            return;
        }
        if (where.entry != kNoEntry) {
            auto& seen = index.seen[where.entry][where.name];
            seen.second = true;
            seen.first = seen.first || r.outcome != TestOutcome::Skipped;
        }
        count(decided, r);
    }

    ConfigCoverage finish()
    {
        for (std::size_t f = 0; f < m_config.files.size(); ++f) {
            const config::FileSection& file = m_config.files[f];
            for (std::size_t e = 0; e < file.tests.size(); ++e) {
                const Bucket bucket = bucketOf(file.tests[e].effectiveMode());
                for (std::size_t n = 0; n < file.tests[e].names.size(); ++n) {
                    const auto [ran, present] = m_sections[f].seen[e][n];
                    if (ran || bucket == Bucket::Skip)
                        continue;
                    ++m_out.buckets[static_cast<std::size_t>(bucket)].missing;
                    if (bucket == Bucket::MandatorySuccess) {
                        const config::NameItem& item = file.tests[e].names[n];
                        m_out.mandatoryNotRun.push_back(
                            {item.name, file.path, item.pos.line, present});
                    }
                }
            }
        }
        return std::move(m_out);
    }

private:
    std::optional<std::size_t> section(const StoredTestResult& r)
    {
        auto it = m_fileMemo.find(r.file);
        if (it == m_fileMemo.end()) {
            Result<std::size_t> found = config::findFileSection(m_config, r.file);
            it = m_fileMemo
                     .emplace(r.file, found ? std::optional<std::size_t>(*found) : std::nullopt)
                     .first;
            if (!found)
                m_fileErrors.emplace(r.file, found.message());
        }
        if (!it->second)
            m_out.unknown.push_back({r.identity, m_fileErrors[r.file]});
        return it->second;
    }

    const Decided& decide(std::size_t file, const Located& where, const StoredTestResult& r)
    {
        std::string key =
            std::to_string(file) + ':'
            + (where.entry == kNoEntry ? std::string("-") : std::to_string(where.entry)) + ':';
        appendOpDtypeKey(r.marks, key);
        auto it = m_decided.find(key);
        if (it != m_decided.end())
            return it->second;
        config::TestQuery query;
        query.file = r.file;
        const std::size_t sep = r.baseName.rfind("::");
        query.className = sep == std::string::npos ? "" : r.baseName.substr(0, sep);
        query.method = sep == std::string::npos ? r.baseName : r.baseName.substr(sep + 2);
        query.marks = parseMarkTags(r.marks);
        Decided d;
        Result<config::Explanation> e = config::explainTest(m_config, query);
        if (e) {
            d.mode = e->finalMode;
            d.unlisted = e->decision == Decision::Unlisted;
            d.dropped = e->dropped && e->finalMode != Mode::Skip;
            if (d.dropped)
                d.why = "the config drops this variant: " + e->steps.back();
        } else {
            d.dropped = true;
            d.why = e.message();
        }
        return m_decided.emplace(std::move(key), std::move(d)).first->second;
    }

    void count(const Decided& d, const StoredTestResult& r)
    {
        const Bucket bucket = d.unlisted ? Bucket::Unlisted : bucketOf(d.mode);
        BucketCounts& counts = m_out.buckets[static_cast<std::size_t>(bucket)];
        ++counts.ran;
        if (d.unlisted)
            m_out.unlistedRan.push_back(r.identity);
        switch (d.mode) {
        case Mode::MandatorySuccess:
            if (r.outcome != TestOutcome::Passed && r.outcome != TestOutcome::Skipped) {
                ++counts.unexpected;
                m_out.mandatoryNotPassed.push_back(r.identity);
            }
            break;
        case Mode::Xfail: counts.unexpected += passedOutcome(r.outcome) ? 1 : 0; break;
        case Mode::XfailStrict:
            if (passedOutcome(r.outcome)) {
                ++counts.unexpected;
                m_out.strictXpassed.push_back(r.identity);
            }
            break;
        case Mode::Skip:
            ++counts.unexpected;
            m_out.unknown.push_back(
                {r.identity, d.unlisted ? "not listed, and its file's unlisted_test_mode is skip: "
                                          "it should not have been collected"
                                        : "the config skips it (deleted before collection), yet "
                                          "it is in the report"});
            break;
        }
    }

    const config::OutcomeConfig& m_config;
    std::vector<SectionIndex> m_sections;
    std::unordered_map<std::string, std::optional<std::size_t>> m_fileMemo;
    std::unordered_map<std::string, std::string> m_fileErrors;
    std::unordered_map<std::string, Decided> m_decided;
    ConfigCoverage m_out;
};

} // namespace

ConfigCoverage configCoverage(const config::OutcomeConfig& config,
                              const std::vector<StoredTestResult>& results)
{
    CoverageBuilder builder(config);
    for (const StoredTestResult& r : results)
        builder.add(r);
    return builder.finish();
}

} // namespace relayhud::verdict
