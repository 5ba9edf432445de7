// suggestModeChanges(): resolve each stored variant once with the
// framework's rules, group a job's variants by (file section, method), and
// keep the methods whose every variant the same entry governs and that
// passed (xfail) or failed (mandatory_success) in each of the job's last N runs.
#include "relayhud/config/config_suggest.h"

#include "relayhud/config/config_explain.h"
#include "relayhud/config/spyre_names.h"
#include "relayhud/junit/mark_tags.h"
#include "relayhud/junit/test_identity.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace relayhud::config {
namespace {

// What the config does to one stored variant, worked out once for all jobs.
struct Decided {
    bool known = false; // in one of the config's sections, and judged
    Resolution resolution;
};

Decided decide(const Resolver& resolver, const RecentTest& test, const ResolveContext& context)
{
    TestQuery query = parseTestQuery(test.identity);
    query.file = test.file;
    const TestMarks marks = parseMarkTags(test.marks); // values() views into it
    for (const std::string_view op : marks.values(MarkKind::Op))
        query.ops.emplace_back(op);
    VariantQuery variant = variantOf(query, context);
    variant.observed = true;
    Result<Resolution> r = resolver.resolve(variant, context);
    if (!r || r->outcome == Outcome::CannotJudge)
        return {}; // not this config's test, or not judgeable
    return {true, std::move(*r)};
}

// A strict xfail that passed is reported as XPASS(strict): still a pass.
bool passed(TestOutcome o) { return o == TestOutcome::Passed || o == TestOutcome::XPassStrict; }
bool failed(TestOutcome o) { return o == TestOutcome::Failed || o == TestOutcome::Error; }

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

// The dtypes the deciding entry lets run (its include, else the globals)
// that none of the reported variants has.
std::vector<std::string> unevidencedDtypes(const OutcomeConfig& config, const Resolution& r,
                                           const std::set<std::string>& seen)
{
    std::vector<std::string> allowed;
    if (r.entryIndex) {
        const TestEntry& entry = config.files[r.fileIndex].tests[*r.entryIndex];
        for (const std::string& d : entry.dtypes.include)
            allowed.emplace_back(canonicalDtype(d));
    }
    for (const NamedOption& option : config.global.supportedDtypes)
        allowed.emplace_back(canonicalDtype(option.name));
    std::vector<std::string> out;
    if (seen.empty())
        return out; // the method takes no dtype
    for (const std::string& d : allowed)
        if (!seen.count(d) && std::find(out.begin(), out.end(), d) == out.end())
            out.push_back(d);
    return out;
}

struct Group {
    std::vector<const RecentTestOutcomes*> variants;
};

std::optional<Suggestion> suggestFor(const OutcomeConfig& config, const RecentJob& job,
                                     const Group& group, const RecentResults& recent,
                                     const std::vector<Decided>& decided,
                                     const SuggestOptions& options)
{
    const Resolution& first = decided[group.variants.front()->test].resolution;
    const bool promote = first.configMode == Mode::Xfail || first.configMode == Mode::XfailStrict;
    if (!promote && first.configMode != Mode::MandatorySuccess)
        return std::nullopt;
    bool anyMandatory = false;
    std::set<std::string> dtypes;
    for (const RecentTestOutcomes* variant : group.variants) {
        const Resolution& mine = decided[variant->test].resolution;
        // The report has a variant the config deletes, or another entry
        // governs it: the config and the report disagree; leave it to a person.
        if (!mine.runs() || mine.entryIndex != first.entryIndex || mine.decision != first.decision)
            return std::nullopt;
        anyMandatory = anyMandatory || mine.finalMode == Mode::MandatorySuccess;
        if (!allRuns(*variant, promote ? passed : failed))
            return std::nullopt;
        if (mine.dtype)
            dtypes.insert(*mine.dtype);
    }
    if (!promote && !anyMandatory)
        return std::nullopt; // every variant is force_xfail'd: the failures are expected
    const RecentTest& test = recent.tests[group.variants.front()->test];
    const TestQuery query = parseTestQuery(test.identity);
    Suggestion s;
    s.kind = promote ? EditKind::Promote : EditKind::Demote;
    const std::string generic = genericClassName(query.className, options.context);
    s.test = testIdentity(test.file, generic, first.baseMethod);
    s.baseName = first.baseMethod;
    s.from = first.configMode;
    s.to = promote ? Mode::MandatorySuccess : options.demoteTo;
    s.fileIndex = first.fileIndex;
    s.entryIndex = first.entryIndex;
    s.repo = job.repo;
    s.workflow = job.workflow;
    s.job = job.name;
    s.runs = job.runs;
    s.variants = static_cast<int>(group.variants.size());
    s.evidence = evidenceText(s);
    s.unevidenced = unevidencedDtypes(config, first, dtypes);
    return s;
}

} // namespace

EditRequest Suggestion::request(const std::string& reason) const
{
    EditRequest r{test, {}, kind, to, reason, evidence};
    r.demoteTo = to;
    return r;
}

std::vector<Suggestion> suggestModeChanges(const OutcomeConfig& config, const RecentResults& recent,
                                           const SuggestOptions& options)
{
    const Resolver resolver(config);
    std::vector<Decided> decided(recent.tests.size());
    std::vector<bool> done(recent.tests.size(), false);
    std::vector<Suggestion> out;
    for (const RecentJob& job : recent.jobs) {
        if (!options.repo.empty() && job.repo != options.repo)
            continue; // another backend's job
        if (static_cast<int>(job.runs.size()) < options.runs)
            continue;                                                // too little evidence
        std::map<std::pair<std::size_t, std::string>, Group> groups; // section, method
        for (const RecentTestOutcomes& test : job.tests) {
            if (!done[test.test]) {
                decided[test.test] = decide(resolver, recent.tests[test.test], options.context);
                done[test.test] = true;
            }
            const Decided& d = decided[test.test];
            if (d.known)
                groups[{d.resolution.fileIndex, d.resolution.baseMethod}].variants.push_back(&test);
        }
        for (const auto& [key, group] : groups)
            if (std::optional<Suggestion> s =
                    suggestFor(config, job, group, recent, decided, options))
                out.push_back(std::move(*s));
    }
    std::sort(out.begin(), out.end(), [](const Suggestion& a, const Suggestion& b) {
        return std::tie(a.baseName, a.repo, a.workflow, a.job)
               < std::tie(b.baseName, b.repo, b.workflow, b.job);
    });
    return out;
}

namespace {

bool selects(const JobSelection& s, const std::string& repo, const std::string& workflow,
             const std::string& job)
{
    return s.repo == repo && (s.workflow.empty() || s.workflow == workflow)
           && (s.job.empty() || s.job == job);
}

std::string jobName(const std::string& repo, const std::string& workflow, const std::string& job)
{
    std::string out = repo;
    if (!workflow.empty())
        out += " " + workflow;
    if (!job.empty())
        out += (workflow.empty() ? " " : " / ") + job;
    return out;
}

} // namespace

XfailEvidence xfailEvidence(const RecentResults& recent,
                            const std::vector<JobSelection>& selections)
{
    XfailEvidence out;
    auto judge = [&](const std::string& name, const PytestSelection* selection) {
        if (!selection)
            out.unknown.push_back(name + ": its pytest selection was not read");
        else if (selection->deselectsXfail == Tri::Yes)
            out.deselecting.push_back(name + ": " + selection->why);
        else if (selection->deselectsXfail == Tri::No)
            out.running.push_back(name + ": " + selection->why);
        else
            out.unknown.push_back(name + ": " + selection->why);
    };
    for (const RecentJob& job : recent.jobs) {
        const auto it =
            std::find_if(selections.begin(), selections.end(), [&](const JobSelection& s) {
                return selects(s, job.repo, job.workflow, job.name);
            });
        judge(jobName(job.repo, job.workflow, job.name),
              it == selections.end() ? nullptr : &it->selection);
    }
    if (recent.jobs.empty())
        for (const JobSelection& s : selections)
            judge(jobName(s.repo, s.workflow, s.job), &s.selection);
    const std::string would =
        "a job that runs the config without -m \"not xfail\" would (with --runxfail its xfail "
        "tests report plain passes and failures)";
    if (!out.deselecting.empty() && out.running.empty() && out.unknown.empty()) {
        out.sentences.push_back(
            "no job runs the xfail tests: every job deselects them with -m \"not xfail\", so no "
            "xfail or xfail_strict test can ever produce promotion evidence; "
            + would);
    } else if (!out.deselecting.empty()) {
        out.sentences.push_back(
            std::to_string(out.deselecting.size())
            + (out.deselecting.size() == 1 ? " job deselects" : " jobs deselect")
            + " the xfail tests (-m \"not xfail\") and can never produce promotion evidence");
        if (out.running.empty())
            out.sentences.push_back("no job is known to run the xfail tests; " + would);
    }
    for (const std::string& job : out.deselecting)
        out.sentences.push_back("lacks xfail evidence: " + job);
    for (const std::string& job : out.running)
        out.sentences.push_back("runs the xfail tests: " + job);
    if (!out.unknown.empty() && !out.deselecting.empty())
        for (const std::string& job : out.unknown)
            out.sentences.push_back("cannot tell: " + job);
    return out;
}

AppliedSuggestions applySuggestions(std::string_view text,
                                    const std::vector<Suggestion>& suggestions,
                                    const std::string& reason, const ResolveContext& context)
{
    AppliedSuggestions out;
    out.text = std::string(text);
    for (const Suggestion& s : suggestions) {
        Result<ModeEdit> edit = planModeEdit(out.text, s.request(reason), context);
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

} // namespace relayhud::config
