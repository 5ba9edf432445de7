// suggestModeChanges(): group each job's tests by base name, ask the config
// what it gives each variant (explainTest, once per test), and keep the base
// names whose every variant passed (xfail_strict) or failed
// (mandatory_success) in each of the job's last N runs.
#include "relayhud/config/config_suggest.h"

#include "relayhud/config/config_explain.h"
#include "relayhud/junit/mark_tags.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace relayhud::config {
namespace {

// What the config says about one stored test, worked out once for all jobs.
struct Verdict {
    bool known = false; // in one of the config's files, resolved
    std::size_t fileIndex = 0;
    std::optional<std::size_t> entryIndex;
    Mode configMode = Mode::Xfail;
    Mode finalMode = Mode::Xfail;
    bool dropped = false;
};

Verdict verdictOf(const OutcomeConfig& config, const RecentTest& test,
                  const BaseNameOptions& options)
{
    TestQuery query = parseTestQuery(test.baseName);
    query.file = test.file;
    query.marks = parseMarkTags(test.marks);
    Result<Explanation> ex = explainTest(config, query, options);
    if (!ex)
        return {}; // a file the config does not list: not this config's test
    return {true, ex->fileIndex, ex->entryIndex, ex->configMode, ex->finalMode, ex->dropped};
}

// A strict xfail that passed is reported as XPASS(strict): still a pass.
bool passed(TestOutcome o) { return o == TestOutcome::Passed || o == TestOutcome::XPassStrict; }
// A force_xfail variant of a mandatory test fails as an expected failure.
bool failed(TestOutcome o)
{
    return o == TestOutcome::Failed || o == TestOutcome::Error || o == TestOutcome::XFailed;
}

bool allRuns(const RecentTestOutcomes& test, bool (*wanted)(TestOutcome))
{
    return std::all_of(test.outcomes.begin(), test.outcomes.end(),
                       [&](const std::optional<TestOutcome>& o) { return o && wanted(*o); });
}

std::string evidenceText(const Suggestion& s)
{
    const std::string runs = std::to_string(s.runs.size());
    std::string text = std::string(s.kind == EditKind::Promote ? "passed " : "failed ") + runs + "/"
                       + runs + " runs";
    if (s.variants > 1)
        text += " (" + std::to_string(s.variants) + " variants each)";
    text += " of " + s.repo + " " + s.job + " since " + s.runs.front().sha.shortSha();
    const auto reruns = std::count_if(s.runs.begin(), s.runs.end(),
                                      [](const RecentRun& r) { return r.runAttempt > 1; });
    if (reruns > 0)
        text += "; " + std::to_string(reruns) + (reruns == 1 ? " was a rerun" : " were reruns");
    return text;
}

// The variants of one base name in one job.
struct Group {
    std::vector<const RecentTestOutcomes*> variants;
};

std::optional<Suggestion> suggestFor(const RecentJob& job, const Group& group,
                                     const RecentResults& recent,
                                     const std::vector<Verdict>& verdicts)
{
    const RecentTest& first = recent.tests[group.variants.front()->test];
    const Verdict& v = verdicts[group.variants.front()->test];
    const bool promote = v.configMode == Mode::XfailStrict;
    if (!promote && v.configMode != Mode::MandatorySuccess)
        return std::nullopt;
    bool anyMandatory = false;
    for (const RecentTestOutcomes* variant : group.variants) {
        const Verdict& mine = verdicts[variant->test];
        if (mine.dropped)
            return std::nullopt; // the report and the config disagree; leave it to a person
        anyMandatory = anyMandatory || mine.finalMode == Mode::MandatorySuccess;
        if (!allRuns(*variant, promote ? passed : failed))
            return std::nullopt;
    }
    if (!promote && !anyMandatory)
        return std::nullopt; // every variant is force_xfail'd: the failures are expected
    Suggestion s;
    s.kind = promote ? EditKind::Promote : EditKind::Demote;
    s.test = testIdentity(first.file, "", first.baseName);
    s.baseName = first.baseName;
    s.from = v.configMode;
    s.to = promote ? Mode::MandatorySuccess : Mode::XfailStrict;
    s.fileIndex = v.fileIndex;
    s.entryIndex = v.entryIndex;
    s.repo = job.repo;
    s.workflow = job.workflow;
    s.job = job.name;
    s.runs = job.runs;
    s.variants = static_cast<int>(group.variants.size());
    s.evidence = evidenceText(s);
    return s;
}

} // namespace

EditRequest Suggestion::request(const std::string& reason) const
{
    return EditRequest{test, {}, kind, to, reason, evidence};
}

std::vector<Suggestion> suggestModeChanges(const OutcomeConfig& config, const RecentResults& recent,
                                           const SuggestOptions& options)
{
    std::vector<Verdict> verdicts(recent.tests.size());
    std::vector<bool> explained(recent.tests.size(), false);
    std::vector<Suggestion> out;
    for (const RecentJob& job : recent.jobs) {
        if (static_cast<int>(job.runs.size()) < options.runs)
            continue;                                                     // too little evidence
        std::map<std::pair<std::size_t, std::string_view>, Group> groups; // file index, base name
        for (const RecentTestOutcomes& test : job.tests) {
            if (!explained[test.test]) {
                verdicts[test.test] = verdictOf(config, recent.tests[test.test], options.baseNames);
                explained[test.test] = true;
            }
            const Verdict& v = verdicts[test.test];
            if (v.known)
                groups[{v.fileIndex, recent.tests[test.test].baseName}].variants.push_back(&test);
        }
        for (const auto& [key, group] : groups)
            if (std::optional<Suggestion> s = suggestFor(job, group, recent, verdicts))
                out.push_back(std::move(*s));
    }
    std::sort(out.begin(), out.end(), [](const Suggestion& a, const Suggestion& b) {
        return std::tie(a.baseName, a.repo, a.workflow, a.job)
               < std::tie(b.baseName, b.repo, b.workflow, b.job);
    });
    return out;
}

AppliedSuggestions applySuggestions(std::string_view text,
                                    const std::vector<Suggestion>& suggestions,
                                    const std::string& reason, const BaseNameOptions& options)
{
    AppliedSuggestions out;
    out.text = std::string(text);
    for (const Suggestion& s : suggestions) {
        Result<ModeEdit> edit = planModeEdit(out.text, s.request(reason), options);
        if (!edit) {
            out.skipped.push_back(s.test + ": " + edit.message());
            continue;
        }
        out.text = std::move(edit->text);
        out.applied.push_back(edit->summary);
        out.warnings.insert(out.warnings.end(), edit->warnings.begin(), edit->warnings.end());
    }
    return out;
}

std::vector<Finding> unmatchedPatterns(const OutcomeConfig& config,
                                       const std::vector<KnownTest>& known)
{
    std::vector<std::vector<std::string_view>> namesOf(config.files.size());
    for (const KnownTest& test : known)
        if (Result<std::size_t> file = findFileSection(config, test.file); file)
            namesOf[*file].push_back(test.baseName);
    std::vector<Finding> out;
    for (std::size_t f = 0; f < config.files.size(); ++f) {
        const std::vector<std::string_view>& names = namesOf[f];
        if (names.empty())
            continue;
        for (const TestEntry& entry : config.files[f].tests) {
            if (entry.effectiveMode() == Mode::Skip)
                continue;
            for (const NameItem& item : entry.names) {
                const auto matches = [&](std::string_view name) {
                    return globMatch(item.name, name);
                };
                if (item.pattern && std::none_of(names.begin(), names.end(), matches))
                    out.push_back({Severity::Warning, item.pos,
                                   "pattern '" + item.name + "' matches none of the "
                                       + std::to_string(names.size()) + " tests the cache knows in "
                                       + config.files[f].path});
            }
        }
    }
    return out;
}

} // namespace relayhud::config
