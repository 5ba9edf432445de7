// The declared set of an outcome config against the cases that ran, every
// case judged by the framework's own rules (config/resolver.h): a case a
// regex entry governs is explained by it, a mandatory regex counts as run
// when a variant it governs ran, and a variant the framework deletes is
// never "missing", nor is a listing the job's pytest selection deselects
// (`-m "not xfail"`, config/pytest_selection.h).
//
// What a bucket "expects" of a case (anything else is `unexpected`):
//   mandatory_success  passed (skipped counts as not run, not as unexpected)
//   xfail              anything but a pass (a pass is an XPASS: green, worth promoting)
//   xfail_strict       anything but a pass
//   skip               nothing: a skipped test is deleted before collection
//   unlisted           what its unlisted_test_mode expects
#include "relayhud/config/config_explain.h"
#include "relayhud/config/resolver.h"
#include "relayhud/config/spyre_names.h"
#include "relayhud/junit/mark_tags.h"
#include "relayhud/verdict/verdict.h"
#include "verdict/resolution_memo.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace relayhud::verdict {
namespace {

using config::Mode;
using config::Outcome;

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

// Per section: which listings a case ran (or was reported skipped) for.
struct Seen {
    std::unordered_map<std::string, std::pair<bool, bool>> methods; // exact: ran, present
    std::set<std::pair<std::size_t, std::size_t>> regexRan, regexPresent;
};

class CoverageBuilder {
public:
    CoverageBuilder(const config::Resolver& resolver, ResolutionMemo* memo,
                    const config::ResolveContext& context,
                    const std::optional<config::PytestSelection>& selection)
        : m_config(resolver.config()), m_resolver(resolver), m_memo(memo), m_context(context),
          m_seen(m_config.files.size())
    {
        m_out.selection = selection;
        for (const config::FileSection& file : m_config.files)
            for (const config::TestEntry& entry : file.tests)
                m_out.buckets[static_cast<std::size_t>(bucketOf(entry.effectiveMode()))].declared +=
                    static_cast<std::int64_t>(entry.names.size());
    }

    void add(const StoredTestResult& r)
    {
        auto resolve = [&] {
            config::VariantQuery query{r.file, r.className, r.name, {}, true};
            // The marks outlive the loop: values() views into them.
            const TestMarks marks = parseMarkTags(r.marks);
            for (const std::string_view op : marks.values(MarkKind::Op))
                query.ops.emplace_back(op);
            return m_resolver.resolve(query, m_context);
        };
        if (!m_memo) {
            add(r, resolve());
            return;
        }
        add(r, m_memo->find(r, resolve));
    }

    void add(const StoredTestResult& r, const Result<config::Resolution>& resolved)
    {
        if (!resolved) {
            m_out.unknown.push_back({r.identity, resolved.message()});
            return;
        }
        const config::Resolution& d = *resolved;
        if (d.outcome == Outcome::CannotJudge) {
            m_out.unknown.push_back({r.identity, "cannot judge: " + d.cannotJudge});
            return;
        }
        if (d.outcome == Outcome::Dropped) {
            std::string why = "the config deletes this variant before collection (" + d.dropReason
                              + "), yet the report has it";
            // A framework older than #2981 ran it: say so when the run's is unknown.
            if (d.droppedBy == config::DropStep::OpExclude && !m_context.frameworkAsOf)
                why += "; " + std::string(config::kOpsExcludeNotEnforced)
                       + ", so the run may have used an older framework";
            m_out.unknown.push_back({r.identity, std::move(why)});
            return;
        }
        markSeen(d, r);
        count(d, r);
        useListing(d, r);
    }

    ConfigCoverage finish()
    {
        for (std::size_t f = 0; f < m_config.files.size(); ++f) {
            const config::FileSection& file = m_config.files[f];
            for (std::size_t e = 0; e < file.tests.size(); ++e) {
                const Bucket bucket = bucketOf(file.tests[e].effectiveMode());
                for (std::size_t n = 0; n < file.tests[e].names.size(); ++n) {
                    const config::NameItem& item = file.tests[e].names[n];
                    const auto [ran, present] = seen(f, e, n);
                    if (ran || bucket == Bucket::Skip || neverMatches(item))
                        continue;
                    if (bucket == Bucket::Xfail || bucket == Bucket::XfailStrict) {
                        const config::Tri deselects = m_out.selection
                                                          ? m_out.selection->deselectsXfail
                                                          : config::Tri::Unknown;
                        if (deselects == config::Tri::Yes) {
                            ++m_out.buckets[static_cast<std::size_t>(bucket)].deselected;
                            m_out.deselected.push_back(
                                {item.name, file.path, item.pos.line, present});
                            continue;
                        }
                        if (deselects == config::Tri::Unknown)
                            ++m_out.xfailNotRunSelectionUnknown;
                    }
                    ++m_out.buckets[static_cast<std::size_t>(bucket)].missing;
                    if (bucket == Bucket::MandatorySuccess)
                        m_out.mandatoryNotRun.push_back(
                            {item.name, file.path, item.pos.line, present});
                }
            }
        }
        for (auto& [key, use] : m_uses)
            m_out.decidedBy.push_back(std::move(use));
        std::stable_sort(m_out.decidedBy.begin(), m_out.decidedBy.end(),
                         [](const ListingUse& a, const ListingUse& b) {
                             return a.regex != b.regex ? a.regex : a.cases > b.cases;
                         });
        return std::move(m_out);
    }

private:
    void useListing(const config::Resolution& d, const StoredTestResult& r)
    {
        if (!d.entryIndex || !d.nameIndex)
            return;
        const config::FileSection& file = m_config.files[d.fileIndex];
        const config::TestEntry& entry = file.tests[*d.entryIndex];
        const config::NameItem& item = entry.names[*d.nameIndex];
        auto [it, fresh] = m_uses.try_emplace({d.fileIndex, *d.entryIndex, *d.nameIndex});
        ListingUse& use = it->second;
        if (fresh)
            use = {item.name,
                   file.path,
                   item.pos.line,
                   item.regex,
                   config::modeName(entry.effectiveMode()),
                   0,
                   0,
                   {}};
        ++use.cases;
        use.passed += passedOutcome(r.outcome) ? 1 : 0;
        if (use.examples.size() < 3)
            use.examples.push_back(r.identity);
    }

    // A listing of a variant name never matches (spec 4.4), and a regex RE2
    // cannot run cannot be judged: neither is a test that failed to run.
    static bool neverMatches(const config::NameItem& item)
    {
        if (item.regex)
            return item.regexStatus != config::RegexStatus::Ok;
        return config::parseVariantName(item.method, {}).deviceFound;
    }

    std::pair<bool, bool> seen(std::size_t f, std::size_t e, std::size_t n) const
    {
        const config::NameItem& item = m_config.files[f].tests[e].names[n];
        const Seen& s = m_seen[f];
        if (!item.regex) {
            const auto it = s.methods.find(item.method);
            return it == s.methods.end() ? std::pair{false, false} : it->second;
        }
        return {s.regexRan.count({e, n}) > 0, s.regexPresent.count({e, n}) > 0};
    }

    void markSeen(const config::Resolution& d, const StoredTestResult& r)
    {
        Seen& s = m_seen[d.fileIndex];
        const bool ran = r.outcome != TestOutcome::Skipped;
        auto& method = s.methods[d.baseMethod];
        method.first = method.first || ran;
        method.second = true;
        if (d.decision == config::Decision::Regex && d.entryIndex && d.nameIndex) {
            s.regexPresent.insert({*d.entryIndex, *d.nameIndex});
            if (ran)
                s.regexRan.insert({*d.entryIndex, *d.nameIndex});
        }
    }

    void count(const config::Resolution& d, const StoredTestResult& r)
    {
        const bool unlisted = d.decision == config::Decision::Unlisted;
        const Bucket bucket = unlisted ? Bucket::Unlisted : bucketOf(d.configMode);
        BucketCounts& counts = m_out.buckets[static_cast<std::size_t>(bucket)];
        ++counts.ran;
        if (unlisted)
            m_out.unlistedRan.push_back(r.identity);
        if ((d.finalMode == Mode::Xfail || d.finalMode == Mode::XfailStrict) && m_out.selection
            && m_out.selection->deselectsXfail == config::Tri::Yes)
            m_out.unknown.push_back(
                {r.identity, std::string("the config runs it as ") + config::modeName(d.finalMode)
                                 + ", which the job's selection deselects (" + m_out.selection->why
                                 + "), yet it is in the report: the run may have used another "
                                   "config or command"});
        switch (d.finalMode) {
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
                {r.identity, unlisted ? "not listed, and its file's unlisted_test_mode is skip: "
                                        "it should not have been collected"
                                      : "the config skips it (deleted before collection), yet "
                                        "it is in the report"});
            break;
        }
    }

    const config::OutcomeConfig& m_config;
    const config::Resolver& m_resolver;
    ResolutionMemo* m_memo; // null: resolve every result
    const config::ResolveContext& m_context;
    std::vector<Seen> m_seen;
    std::map<std::tuple<std::size_t, std::size_t, std::size_t>, ListingUse> m_uses;
    ConfigCoverage m_out;
};

} // namespace

ConfigCoverage configCoverage(const RunConfig& config, const std::vector<StoredTestResult>& results,
                              const std::optional<config::PytestSelection>& selection)
{
    std::optional<config::Resolver> fresh; // only when it came without one
    if (!config.resolver)
        fresh.emplace(*config.config);
    CoverageBuilder builder(config.resolver ? *config.resolver : *fresh, config.memo.get(),
                            config.context, selection);
    std::unique_lock<std::mutex> held;
    if (config.memo)
        held = config.memo->hold();
    for (const StoredTestResult& r : results)
        builder.add(r);
    return builder.finish();
}

ConfigCoverage configCoverage(const config::OutcomeConfig& config,
                              const std::vector<StoredTestResult>& results,
                              const config::ResolveContext& context,
                              const std::optional<config::PytestSelection>& selection)
{
    const config::Resolver resolver(config);
    CoverageBuilder builder(resolver, nullptr, context, selection);
    for (const StoredTestResult& r : results)
        builder.add(r);
    return builder.finish();
}

} // namespace relayhud::verdict
